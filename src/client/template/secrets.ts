/**
 * What the `secret` function reads, as consul-template's Vault dependency: one secrets-API call per
 * distinct path (and, for the write form, its parameters), answered as consul-template's Secret struct
 * (`.Data`, and for a KV version 2 path `.Data.data` and `.Data.metadata`). What `secrets` lists, as
 * consul-template's vault.list: the keys of a LIST, sorted; on a KV version 2 mount the path is listed
 * under its metadata/, which is added when the path does not name it.
 *
 * Rendering is synchronous, reading is not, so a render runs against a cache: a secret not in it yet is
 * recorded as missing and the render's output thrown away; the caller fetches what was missing and
 * renders again, as consul-template's brain does between passes.
 */
import type { SecretsEnvelope } from '../../api/http/client.js';
import { ApiError } from '../../shared/errors.js';
import type { ServerPool } from '../server-pool.js';
import type { Value } from './go-format.js';

/** The secrets API as a node reaches it, with the task's token. */
export interface SecretSource {
  /** `/v1/<path>`: the envelope, undefined for 204; an ApiError for an error answer */
  call(method: 'GET' | 'PUT' | 'LIST', path: string, token: string, body?: Record<string, string>): Promise<SecretsEnvelope | undefined>;
  /** how often the secrets a running task's templates read are read again, in ms */
  pollMs: number;
  /**
   * A blocking read of `path` (svc's KV reads, version 1 and 2): resolves, once a KV change after `index`
   * happened or `waitSeconds` passed, to the index now; at once with index 0. Undefined when the server
   * cannot watch that path (a secret that is no KV read, an older server).
   */
  watch?(path: string, token: string, index: number, waitSeconds: number, signal: AbortSignal): Promise<number | undefined>;
}

/** One secret a template reads (`params` undefined) or writes with `params`, or (`list`) the keys below a path. */
export interface SecretDep {
  path: string;
  params?: Record<string, string>;
  list?: true;
}

export const depKey = (d: SecretDep): string => JSON.stringify([d.path, d.params ?? null, d.list ?? false]);

/** The secrets API through the node's servers: reads, writes, and blocking reads that answer the KV index. */
export function poolSecretSource(pool: Pick<ServerPool, 'secrets' | 'secretsIndex'>, pollMs: number): SecretSource {
  return {
    call: (method, secretPath, token, body) => pool.secrets(method, secretPath, token, { body }),
    pollMs,
    watch: (secretPath, token, index, waitSeconds, signal) =>
      pool.secretsIndex(secretPath, token, {
        query: { index: String(index), wait: `${waitSeconds}s` },
        signal,
        // The server holds the answer up to the wait: only past it (and a margin) is it a failed server.
        deadlineMs: (waitSeconds + 30) * 1000,
      }),
  };
}

/** How consul-template names a dependency in its messages. */
export const depName = (d: SecretDep): string => `vault.${d.list ? 'list' : d.params ? 'write' : 'read'}(${d.path})`;

/** The secret is not there (404): the first render waits for it, as consul-template does. */
export class SecretMissing extends Error {}

/** The secret could not be read for another reason (403, a server error): a render error. */
export class SecretReadFailed extends Error {}

/** `secret "path" "k=v" ...`: the parameters of the write form. */
export function parseSecretArgs(path: string, args: string[]): SecretDep {
  const clean = path.replace(/^\/+/, '');
  if (!clean) throw new Error('secret: the path is empty');
  if (args.length === 0) return { path: clean };
  const params: Record<string, string> = {};
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new Error(`secret: invalid parameter ${JSON.stringify(a)}: parameters are key=value`);
    params[a.slice(0, eq)] = a.slice(eq + 1);
  }
  return { path: clean, params };
}

/** `secrets "path"`: the path as consul-template keeps it, without the spaces and slashes around it. */
export function parseListPath(path: string): SecretDep {
  const clean = path.trim().replace(/^\/+|\/+$/g, '');
  if (!clean) throw new Error(`vault.list: invalid format: ${JSON.stringify(clean)}`);
  return { path: clean, list: true };
}

/**
 * The path a LIST of `path` goes to: on a KV version 2 mount its metadata/, as consul-template shims it.
 * A mount that cannot be looked up is taken for anything but version 2, as consul-template takes it.
 */
async function listPathOf(source: SecretSource, path: string, token: string): Promise<string> {
  let mount: Record<string, unknown> | null | undefined;
  try {
    mount = (await source.call('GET', `sys/internal/ui/mounts/${path}`, token))?.data;
  } catch {
    return path;
  }
  const options = mount?.options as Record<string, unknown> | null | undefined;
  if (mount?.type !== 'kv' || options?.version !== '2' || typeof mount.path !== 'string') return path;
  const metadata = `${mount.path.replace(/\/$/, '')}/metadata`;
  if (path === metadata || path.startsWith(`${metadata}/`)) return path;
  const rest = path.slice(mount.path.length).replace(/^\/+/, '');
  return rest ? `${metadata}/${rest}` : metadata;
}

/** Go's sort.Strings: by the bytes of the UTF-8 encoding, which UTF-16 order differs from above U+FFFF. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Lists `dep.path` with `token`: its keys, sorted; none for a path with nothing below it (404). */
async function fetchList(source: SecretSource, dep: SecretDep, token: string): Promise<string[]> {
  const listed = await listPathOf(source, dep.path, token);
  let env: SecretsEnvelope | undefined;
  try {
    env = await source.call('LIST', listed, token);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) return [];
    throw err;
  }
  const keys = env?.data?.keys;
  if (keys === undefined || keys === null) return [];
  if (!Array.isArray(keys)) throw new Error('unexpected response');
  if (keys.some((k) => typeof k !== 'string')) throw new Error('non-string in list');
  return (keys as string[]).slice().sort(byBytes);
}

function toSecret(env: SecretsEnvelope | undefined): Value {
  return {
    RequestID: env?.request_id ?? '',
    LeaseID: env?.lease_id ?? '',
    LeaseDuration: env?.lease_duration ?? 0,
    Renewable: env?.renewable ?? false,
    Data: env?.data ?? {},
    Warnings: env?.warnings ?? [],
  };
}

/**
 * Reads (or writes, or lists) one secret with `token`; SecretMissing on a read's 404, SecretReadFailed on
 * any other error.
 */
export async function fetchSecret(source: SecretSource, dep: SecretDep, token: string): Promise<Value> {
  try {
    if (dep.list) return await fetchList(source, dep, token);
    return toSecret(await source.call(dep.params ? 'PUT' : 'GET', dep.path, token, dep.params));
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) throw new SecretMissing(`${depName(dep)}: no secret exists at ${dep.path}`);
    const reason = err instanceof ApiError ? `Code: ${err.statusCode}. Errors: ${err.errors.join('; ')}` : (err as Error).message;
    throw new SecretReadFailed(`${depName(dep)}: ${reason}`);
  }
}

/** The secrets one template's renders have read, by dependency key. */
export class SecretCache {
  readonly values = new Map<string, { dep: SecretDep; value: Value }>();
  /** what the last render asked for and the cache did not have */
  missing: SecretDep[] = [];

  /** The `secret` function's lookup: the cached value, or nil and the dependency recorded as missing. */
  lookup(dep: SecretDep): Value {
    const hit = this.values.get(depKey(dep));
    if (hit) return hit.value;
    if (!this.missing.some((m) => depKey(m) === depKey(dep))) this.missing.push(dep);
    return undefined;
  }
}
