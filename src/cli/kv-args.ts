/**
 * The `k=v` arguments of the generic commands (`svc write PATH k=v ...`), as Vault's kvbuilder reads them:
 *
 * - `k=v` sets k; a repeated key becomes a list, in order (`policies=a policies=b`).
 * - `k=@file` takes the value from the file, `k=\@x` is the literal `@x`, `k=-` takes it from stdin.
 * - A bare `-` reads a whole JSON object from stdin, a bare `@file` from the file; their keys fill in
 *   what the `k=v` arguments before them did not set.
 * - stdin can be used once; an empty argument is ignored; anything else without `=` is an error.
 *
 * The parser does no I/O itself: the caller passes the readers, so tests need no files or pipes.
 */
import type { Readable } from 'node:stream';
import { UsageError } from '../shared/errors.js';
import { readFailure } from './read-failure.js';

export interface KvSources {
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}

export async function parseKvArgs(args: string[], sources: KvSources): Promise<Record<string, unknown>> {
  // No prototype: keys such as `toString` or `__proto__` are data here, like any other.
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let stdinUsed = false;
  const stdin = async (): Promise<string> => {
    if (stdinUsed) throw new UsageError('Failed to parse K=V data: stdin already consumed (only one "-" may be given)');
    stdinUsed = true;
    return sources.readStdin();
  };
  const file = async (path: string): Promise<string> => {
    if (path === '') throw new UsageError('Failed to parse K=V data: "@" must be followed by a file name');
    try {
      return await sources.readFile(path);
    } catch (err) {
      throw new UsageError(`Failed to parse K=V data: error reading file "${path}": ${readFailure(err)}`);
    }
  };

  for (const arg of args) {
    if (arg === '') continue;
    const eq = arg.indexOf('=');
    if (eq === -1) {
      if (arg === '-') mergeMissing(result, parseJsonObject(await stdin(), 'stdin'));
      else if (arg.startsWith('@')) mergeMissing(result, parseJsonObject(await file(arg.slice(1)), arg.slice(1)));
      else throw new UsageError(`Failed to parse K=V data: format must be key=value, got "${arg}"`);
      continue;
    }
    const key = arg.slice(0, eq);
    if (key === '') throw new UsageError(`Failed to parse K=V data: missing key in "${arg}"`);
    let value = arg.slice(eq + 1);
    if (value.startsWith('@')) value = await file(value.slice(1));
    else if (value.startsWith('\\@')) value = value.slice(1);
    else if (value === '-') value = await stdin();
    add(result, key, value);
  }
  return result;
}

function add(result: Record<string, unknown>, key: string, value: unknown): void {
  if (!Object.hasOwn(result, key)) {
    result[key] = value;
    return;
  }
  const existing = result[key];
  result[key] = [...(Array.isArray(existing) ? existing : [existing]), value];
}

// Vault merges a JSON document without overwriting keys already set, so `k=v -` lets k=v win.
function mergeMissing(result: Record<string, unknown>, doc: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(doc)) if (!Object.hasOwn(result, k)) result[k] = v;
}

function parseJsonObject(text: string, source: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`Failed to parse K=V data: ${source} does not hold valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`Failed to parse K=V data: ${source} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** The real readers: files relative to the working directory, and all of stdin. */
export function kvSources(stdin: Readable): KvSources {
  return {
    readFile: async (path) => (await import('node:fs/promises')).readFile(path, 'utf8'),
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Query parameters for read and delete. The server keeps one value per parameter and splits list fields
 * on commas, so a repeated key is sent once, comma-joined, rather than repeated as Vault's client does.
 */
export function toQuery(data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) out[k] = v.map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item))).join(',');
    else out[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

/** A generic command's PATH, relative to /v1/, without leading or trailing slashes (as Vault's sanitizePath). */
export function sanitizePath(arg: string): string {
  return arg.trim().replace(/^\/+|\/+$/g, '');
}
