/**
 * Read-and-print and list-and-print for secrets commands, as Vault's CLI does them: a 404 is "No value
 * found at PATH" with exit code 2, anything else is rendered in the chosen -format (and -field).
 */
import { ApiError, UsageError } from '../shared/errors.js';
import { clientFor } from './client-from-flags.js';
import { kvSources, parseKvArgs, sanitizePath } from './kv-args.js';
import type { CommandContext } from './define.js';
import type { OutputFormat } from './output/format.js';
import type { SecretsEnvelope } from '../api/http/client.js';
import { errColours } from './output/colour.js';

async function orNotFound<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) return undefined;
    throw err;
  }
}

/**
 * A GET that keeps what a 404 says, as Vault's client does: KV version 2 answers a deleted version 404
 * with its metadata, and a version 1 path on it 404 with a warning naming the command to use.
 */
export async function readKeeping404(ctx: CommandContext, path: string, query?: Record<string, string>): Promise<{ status: number; secret?: SecretsEnvelope }> {
  const client = clientFor(ctx);
  const { status, body } = await client.request('GET', `/v1/${path}`, { query });
  const text = body.toString('utf8');
  let secret: (SecretsEnvelope & { errors?: string[] }) | undefined;
  try {
    secret = text === '' ? undefined : JSON.parse(text);
  } catch {
    secret = undefined;
  }
  if (status >= 400 && status !== 404) throw client.apiError(status, secret?.errors ?? [text], client.url(`/v1/${path}`, query));
  return { status, secret };
}

export async function readAndPrint(ctx: CommandContext, path: string, query?: Record<string, string>): Promise<number> {
  const { status, secret } = await readKeeping404(ctx, path, query);
  if (!secret || (status === 404 && !secret.data)) {
    for (const w of secret?.warnings ?? []) ctx.io.err(`WARNING! ${w}`);
    ctx.io.err(errColours().red(`No value found at ${path}`));
    return 2;
  }
  const { renderSecret } = await import('./output/format.js');
  await renderSecret(ctx.io, secret, { format: ctx.flags.format as OutputFormat, field: ctx.flags.field as string | undefined });
  return 0;
}

/** Writes `body` to `path` and prints what Vault's CLI prints for a write. */
export async function writeAndPrint(ctx: CommandContext, path: string, body: Record<string, unknown>, method: 'POST' | 'PUT' | 'PATCH' = 'POST'): Promise<number> {
  // A PATCH body is a JSON merge patch, and says so as Vault's client does.
  const headers = method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : undefined;
  const secret = await clientFor(ctx).secrets(method, path, { body, headers });
  const format = ctx.flags.format as OutputFormat;
  if (!secret) {
    // As Vault: the message is for people; json/yaml output stays empty so scripts can parse it.
    if (format === 'table') ctx.io.out(`Success! Data written to: ${path}`);
    return 0;
  }
  const { renderSecret } = await import('./output/format.js');
  await renderSecret(ctx.io, secret, { format, field: ctx.flags.field as string | undefined });
  return 0;
}

/** `svc write` and `svc patch`: PATH and its K=V arguments (or -force for none) sent with `method`, the answer printed. */
export async function writeArgsAndPrint(ctx: CommandContext, method: 'PUT' | 'PATCH'): Promise<number> {
  const path = sanitizePath(ctx.args[0]);
  const pairs = ctx.args.slice(1);
  if (pairs.length === 0 && ctx.flags.force !== true) throw new UsageError('Must supply data or use -force');
  return writeAndPrint(ctx, path, await parseKvArgs(pairs, kvSources(ctx.io.stdin)), method);
}

/**
 * `path` is listed with the LIST method; its trailing slash is added here. Nothing there (a 404) exits 2
 * as in Vault, which then prints `{}` for json and yaml: here an empty list, `[]`, so that a script reads
 * the same type whether or not there are keys.
 */
export async function listAndPrint(ctx: CommandContext, path: string): Promise<number> {
  if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by list; use -format=json');
  const listed = `${path.replace(/\/+$/, '')}/`;
  const secret = await orNotFound(clientFor(ctx).secrets('LIST', listed));
  const keys = secret?.data?.keys;
  const format = ctx.flags.format as OutputFormat;
  const { renderList } = await import('./output/format.js');
  if (!Array.isArray(keys)) {
    if (format === 'table') ctx.io.err(errColours().red(`No value found at ${listed}`));
    else await renderList(ctx.io, [], { format });
    return 2;
  }
  await renderList(ctx.io, keys.map(String), { format });
  return 0;
}
