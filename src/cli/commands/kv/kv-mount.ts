/**
 * What every `svc kv` command shares, as Vault's kv commands do it: finding the mount a path is under and
 * its version (Vault's preflight request, sys/internal/ui/mounts/<path>), the API path for an operation
 * (secret/foo → secret/data/foo on version 2), the failures a command explains itself with an exit
 * code (which `svc secrets` reports its failures with too), and the "== Secret Path ==" style headings.
 */
import { ApiError } from '../../../shared/errors.js';
import { clientFor } from '../../client-from-flags.js';
import type { CommandContext, FlagSpec } from '../../define.js';
import { sanitizePath } from '../../kv-args.js';
import { errColours } from '../../output/colour.js';

/** A failure the command explains in one line, with Vault's exit code for it. */
export class KvFailure extends Error {
  constructor(
    message: string,
    readonly code: 1 | 2,
  ) {
    super(message);
  }
}

export async function reportingKvFailures(ctx: CommandContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (!(err instanceof KvFailure)) throw err;
    ctx.io.err(errColours().red(err.message));
    return err.code;
  }
}

/**
 * Runs an API call; a server error becomes "<what>: <the server's answer>", exit 2, as Vault words it,
 * and a 404 `notFound` when given.
 */
export async function step<T>(what: string, call: Promise<T>, notFound?: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404 && notFound !== undefined) throw new KvFailure(notFound, 2);
    if (err instanceof ApiError) throw new KvFailure(`${what}: ${err.message}`, 2);
    throw err;
  }
}

export const MOUNT_FLAG: FlagSpec = {
  name: 'mount',
  type: 'string',
  group: 'Common Options',
  description:
    'The path where the KV secrets engine is mounted, such as "secret". With it, KEY is the secret\'s ' +
    'name inside the mount (`-mount=secret foo`); without it, KEY starts with the mount (`secret/foo`).',
};

export interface KvTarget {
  /** the mount path without its trailing slash: "secret" */
  mount: string;
  version: 1 | 2;
  /** the secret's name inside the mount: "foo/bar", "" for the mount itself */
  key: string;
}

interface MountEntry {
  path?: string;
  type?: string;
  options?: Record<string, string> | null;
}

function versionOf(entry: MountEntry): 1 | 2 {
  return entry.options?.version === '2' ? 2 : 1;
}

/**
 * The mount `full` is under, as Vault's preflight request finds it: sys/internal/ui/mounts/<path>, which
 * a token may read when it may do anything under that mount. Its 403 is the same for a path under no
 * mount and for a mount out of the token's reach, so the message names both.
 */
async function mountOf(ctx: CommandContext, full: string): Promise<{ path: string; entry: MountEntry } | undefined> {
  // As Vault's preflight: -output-curl-string is for the command's own request, so this one is sent.
  const client = clientFor({ ...ctx, flags: { ...ctx.flags, 'output-curl-string': false } });
  let answer;
  try {
    answer = await client.secrets('GET', `sys/internal/ui/mounts/${full}`);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 403) return undefined;
    return step('Error determining the KV secrets engine', Promise.reject(err));
  }
  const entry = (answer?.data ?? {}) as MountEntry;
  return typeof entry.path === 'string' ? { path: entry.path, entry } : undefined;
}

/** The mount, version and name KEY (with -mount or without) refers to; no KV mount there is exit 2. */
export async function kvTarget(ctx: CommandContext, arg: string): Promise<KvTarget> {
  const flagMount = typeof ctx.flags.mount === 'string' ? sanitizePath(ctx.flags.mount) : undefined;
  const path = sanitizePath(arg);
  const full = flagMount === undefined ? path : `${flagMount}/${path}`;
  const found = await mountOf(ctx, full);
  if (found === undefined || (flagMount !== undefined && found.path !== `${flagMount}/`)) {
    const where = flagMount === undefined ? full : flagMount;
    throw new KvFailure(
      `No secrets engine is mounted at "${where}/" that this token can reach: "svc secrets list" shows the mounts and "svc secrets enable kv" adds one; ` +
        'a token reaches a mount with any capability on a path under it',
      2,
    );
  }
  if (found.entry.type !== 'kv') throw new KvFailure(`The secrets engine at ${found.path} is of type "${found.entry.type}", not a KV secrets engine`, 2);
  return { mount: found.path.slice(0, -1), version: versionOf(found.entry), key: full.slice(found.path.length) };
}

/** The API path of `t` for an operation of version 2 ("data", "metadata", ...), or its plain path on version 1. */
export function apiPath(t: KvTarget, prefix?: string): string {
  return [t.mount, t.version === 2 ? prefix : undefined, t.key].filter((s) => s !== undefined && s !== '').join('/');
}

/** A version 2 command run against a version 1 mount: Vault's message, exit 1. */
export function needsV2(t: KvTarget, what: string): void {
  if (t.version === 1) throw new KvFailure(`${what} not supported on KV Version 1`, 1);
}

/** The `<mount>/metadata/<key>` path of the KEY argument, for the `kv metadata` commands: version 2 mounts only. */
export async function metadataPath(ctx: CommandContext): Promise<string> {
  const t = await kvTarget(ctx, ctx.args[0]);
  needsV2(t, 'Metadata');
  return apiPath(t, 'metadata');
}

/** Vault's heading: the title between runs of "=" that together span `width` characters. */
export function heading(title: string, width: number): string {
  let signs = width - (title.length + 2);
  if (signs <= 0) signs = 4;
  if (signs % 2 !== 0) signs += 1;
  const side = '='.repeat(signs / 2);
  return `${side} ${title} ${side}`;
}

/** A heading as wide as the Key/Value table of `data` below it. */
export function headingFor(title: string, data: Record<string, unknown>): string {
  return heading(title, Math.max(0, ...Object.keys(data).map((k) => k.length)) + 9);
}

/** `versions` flags, each a number or a comma-separated list of them, as one list. */
export function versionList(flag: unknown): number[] {
  const parts = (Array.isArray(flag) ? flag : []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  return parts.map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 1) throw new KvFailure(`Invalid version "${p}": versions are whole numbers from 1`, 1);
    return n;
  });
}

export const VERSIONS_FLAG: FlagSpec = {
  name: 'versions',
  type: 'strings',
  description: 'The versions to act on, such as -versions=1,3 (or the flag repeated).',
};
