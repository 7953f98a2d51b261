/**
 * Every `svc auth cloud` command is one call to one endpoint of the mount, so each is declared as a row
 * (words, method, endpoint, fields, help) and this factory turns the row into a command: the flags come
 * from the endpoint's field schemas, the positionals fill the endpoint's `:field` segments, and the
 * output is what Vault's generic read/write/list/delete print for the same call.
 */
import { defineCommand, type ArgSpec, type CommandContext, type CommandSpec, type FlagSpec } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { flagName, flagsFromFields, toRequestData } from '../../../flags/from-fields.js';
import { listAndPrint, readAndPrint, writeAndPrint } from '../../../secrets-output.js';
import type { OutputFormat } from '../../../output/format.js';
import type { Fields, FieldSchema } from '../../../../framework/schema/field-schema.js';
import { UsageError } from '../../../../shared/errors.js';
import { mountPrefix } from '../../../auth-mount.js';
import { readFlagFile } from './flag-files.js';

export type EndpointMethod = 'GET' | 'POST' | 'DELETE' | 'LIST';

export interface EndpointCommand {
  /** the words after `svc auth cloud`: ['role', 'write'] */
  words: string[];
  method: EndpointMethod;
  /**
   * Relative to the mount. The `:field` segments are filled by the positional arguments, in order; they
   * are named after the endpoint's fields, so those fields are positionals and not flags.
   */
  endpoint: string;
  /** POST: the endpoint's field schemas, the body as flags (path segments are positionals instead) */
  fields?: Fields;
  /** fields whose flag also takes @FILE (read from the file) or - (stdin), as Vault's K=@file */
  fromFile?: string[];
  /** turns a positional into its path segment, by segment name, when plain percent-encoding is not enough */
  segment?: Record<string, (value: string) => string>;
  args?: ArgSpec[];
  synopsis: string;
  description: string;
  examples: Array<{ command: string; description?: string }>;
  /** what exit code 0 means for this command (1 is always a usage error) */
  ok: string;
  /** what exit code 2 means, when more than "a server error" */
  failed?: string;
}

export const MOUNT_FLAG: FlagSpec = {
  name: 'path',
  type: 'string',
  default: 'cloud',
  description: 'Mount path of the cloud auth method, relative to auth/ (the -path given to `svc auth enable`).',
  complete: 'cloud-mount',
};

const requiredOnWrite = (schema: FieldSchema) =>
  schema.required === true || (Array.isArray(schema.required) && (schema.required.includes('create') || schema.required.includes('update')));

function bodyFlags(row: EndpointCommand, params: string[]): FlagSpec[] {
  if (!row.fields) return [];
  const fileFlags = (row.fromFile ?? []).map((f) => flagName(f, row.fields![f]));
  return flagsFromFields(row.fields, { omit: params }).map((flag) =>
    fileFlags.includes(flag.name) ? { ...flag, description: `${flag.description} @FILE reads the value from a file, - from stdin.` } : flag,
  );
}

function usageOf(row: EndpointCommand, flags: FlagSpec[]): string {
  const required = Object.entries(row.fields ?? {})
    .filter(([name, schema]) => requiredOnWrite(schema) && flags.some((f) => f.name === flagName(name, schema)))
    .map(([name, schema]) => `-${flagName(name, schema)}=${row.fromFile?.includes(name) ? '@FILE' : name.toUpperCase()}`);
  const positionals = (row.args ?? []).map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`));
  return ['svc auth cloud', ...row.words, '[options]', ...required, ...positionals].join(' ');
}

async function requestBody(ctx: CommandContext, row: EndpointCommand, params: string[]): Promise<Record<string, unknown>> {
  if (!row.fields) return {};
  const body = toRequestData(row.fields, ctx.flags);
  for (const field of row.fromFile ?? []) {
    if (typeof body[field] === 'string') body[field] = await readFlagFile(body[field] as string, `-${flagName(field, row.fields[field])}`, ctx.io.stdin);
  }
  const missing = Object.entries(row.fields)
    .filter(([name, schema]) => !params.includes(name) && requiredOnWrite(schema) && (body[name] === undefined || body[name] === ''))
    .map(([name, schema]) => `-${flagName(name, schema)}`);
  if (missing.length > 0) throw new UsageError(`Missing required flags: ${missing.join(', ')}`);
  return body;
}

function apiPath(ctx: CommandContext, row: EndpointCommand): string {
  let next = 0;
  const rel = row.endpoint
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      const arg = row.args?.[next];
      const value = ctx.args[next++];
      if (value === undefined || value.trim() === '') throw new UsageError(`${(arg?.name ?? name).toUpperCase()} must not be empty`);
      return encodeURIComponent(row.segment?.[name] ? row.segment[name](value) : value);
    })
    .join('/');
  return mountPrefix(ctx.flags) + rel;
}

async function write(ctx: CommandContext, row: EndpointCommand, path: string, params: string[]): Promise<number> {
  const body = await requestBody(ctx, row, params);
  return writeAndPrint(ctx, path, body);
}

async function remove(ctx: CommandContext, path: string): Promise<number> {
  await clientFor(ctx).secrets('DELETE', path);
  if ((ctx.flags.format as OutputFormat) === 'table') ctx.io.out(`Success! Data deleted (if it existed) at: ${path}`);
  return 0;
}

export function endpointCommand(row: EndpointCommand): CommandSpec {
  const params = row.endpoint
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  const flags = [MOUNT_FLAG, ...bodyFlags(row, params)];
  return defineCommand({
    path: ['auth', 'cloud', ...row.words],
    synopsis: row.synopsis,
    usage: usageOf(row, flags),
    description: row.description,
    examples: row.examples,
    exitCodes: { 0: row.ok, 1: 'a usage error, such as an unknown flag or a missing argument', 2: row.failed ?? 'a server error' },
    family: 'secrets',
    flagSets: ['http', 'output'],
    flags,
    args: row.args,
    async run(ctx) {
      const path = apiPath(ctx, row);
      if (row.method === 'GET') return readAndPrint(ctx, path);
      if (row.method === 'LIST') return listAndPrint(ctx, path);
      if (row.method === 'DELETE') return remove(ctx, path);
      return write(ctx, row, path, params);
    },
  });
}
