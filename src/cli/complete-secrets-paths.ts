/**
 * Completion of a secrets API path (`svc read auth/cl<TAB>`), one segment at a time as a shell completes
 * directories. The top level (auth/, identity/, sys/) is known without a server; the server says what
 * else exists: sys/internal/ui/mounts names the secrets engines and auth mounts the token reaches, and a
 * mount's help (`GET <mount>?help=1`, what `svc path-help <mount>` prints) lists the path patterns of its backend,
 * whose literal parts are offered. Where a pattern takes a name (auth/cloud/role/<role>), the names a
 * LIST of that directory answers are offered too, and so are the secrets of a KV mount. Every failure
 * leaves out what it would have added.
 */
import type { ApiClient } from '../api/http/client.js';

const ROOTS = ['auth/', 'identity/', 'sys/'];

/** The patterns of a backend's help (`    ^role/(?<role>[^/]+)/tag$`), as written. */
function helpPatterns(help: string): string[] {
  return [...help.matchAll(/^ {4}\^(.*)\$$/gm)].map((m) => m[1]);
}

/**
 * A pattern's literal start: all of it when it has no variable part, else up to the last `/` before its
 * first variable part, with `named` set when a name follows that `/` directly.
 */
function literalOf(pattern: string): { path: string; named: boolean } {
  const cut = pattern.search(/[(?[\]*+.\\|{}]/);
  if (cut === -1) return { path: pattern, named: false };
  const head = pattern.slice(0, cut);
  const dir = head.slice(0, head.lastIndexOf('/') + 1);
  return { path: dir, named: dir === head && dir !== '' };
}

async function mountHelp(client: ApiClient, mount: string, signal: AbortSignal): Promise<string> {
  const answer = await client.secrets('GET', mount, { query: { help: '1' }, signal });
  return typeof answer?.help === 'string' ? answer.help : '';
}

/** The keys a LIST of `dir` answers; [] when it answers none. */
export async function listNames(client: ApiClient, dir: string, signal: AbortSignal): Promise<string[]> {
  const answer = await client.secrets('GET', dir, { query: { list: 'true' }, signal });
  const keys = answer?.data?.keys;
  return Array.isArray(keys) ? keys.map(String) : [];
}

/** Every path under `mount` the server tells of that `prefix` may lead to. */
async function underMount(client: ApiClient, mount: string, prefix: string, signal: AbortSignal): Promise<string[]> {
  const literals = helpPatterns(await mountHelp(client, mount, signal).catch(() => '')).map(literalOf);
  const out = literals.map((l) => mount + l.path).filter((p) => p !== mount);
  const dir = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  if (literals.some((l) => l.named && mount + l.path === dir)) out.push(...(await listNames(client, dir, signal).catch(() => [])).map((name) => dir + name));
  return out;
}

interface EngineEntry {
  type?: string;
  options?: Record<string, string> | null;
}

/** The prefixes of a version 2 KV mount's API below which a secret's name follows. */
const KV2_PREFIXES = ['data/', 'metadata/', 'delete/', 'undelete/', 'destroy/', 'subkeys/'];

/**
 * The secrets of a KV mount in the folder `prefix` is in: a version 1 mount's LIST of it, a version 2
 * mount's LIST of its metadata. On version 2 a name is offered both after the API prefix typed
 * (`secret/data/app`, for the generic commands) and straight after the mount (`secret/app`, the form
 * `svc kv` takes).
 */
async function kvKeys(client: ApiClient, mount: string, entry: EngineEntry, prefix: string, signal: AbortSignal): Promise<string[]> {
  const dir = prefix.slice(0, prefix.lastIndexOf('/') + 1);
  const rel = dir.slice(mount.length);
  if (entry.options?.version !== '2') return (await listNames(client, dir, signal).catch(() => [])).map((name) => dir + name);
  const api = KV2_PREFIXES.find((p) => rel.startsWith(p)) ?? '';
  const names = await listNames(client, `${mount}metadata/${rel.slice(api.length)}`, signal).catch(() => []);
  return names.map((name) => dir + name);
}

/** The candidates for `prefix`, cut after the segment being completed (`auth/cloud/config/`). */
export async function secretsPaths(client: ApiClient, prefix: string, signal: AbortSignal): Promise<string[]> {
  const found = [...ROOTS];
  // An auth/ path is under one of the auth mounts; any other under a secrets engine, of which
  // identity/ and sys/ are always there. sys/internal/ui/mounts lists those the token can do anything
  // under, which a token that may not read sys/mounts or sys/auth may still ask.
  const answer = await client.secrets('GET', 'sys/internal/ui/mounts', { signal }).catch(() => undefined);
  const visible = (answer?.data ?? {}) as { secret?: Record<string, EngineEntry>; auth?: Record<string, unknown> };
  let mounts: string[];
  let engines: Record<string, EngineEntry> = {};
  if (prefix.startsWith('auth/')) {
    mounts = Object.keys(visible.auth ?? {}).map((path) => `auth/${path}`);
  } else {
    engines = visible.secret ?? {};
    mounts = [...new Set(['identity/', 'sys/', ...Object.keys(engines)])];
  }
  found.push(...mounts);
  if (prefix.includes('/')) {
    const mount = mounts.filter((m) => prefix.startsWith(m)).sort((a, b) => b.length - a.length)[0];
    if (mount) found.push(...(await underMount(client, mount, prefix, signal)));
    if (mount && engines[mount]?.type === 'kv') found.push(...(await kvKeys(client, mount, engines[mount], prefix, signal)));
  }
  const segments = found
    .filter((p) => p.startsWith(prefix))
    .map((p) => {
      const slash = p.indexOf('/', prefix.length);
      return slash === -1 ? p : p.slice(0, slash + 1);
    });
  // The directory typed so far is no completion of itself.
  return segments.filter((p) => p !== prefix || !p.endsWith('/'));
}
