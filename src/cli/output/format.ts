/**
 * Rendering of command results. Commands return data; these functions print it: Vault style for the
 * secrets commands (`-format table|json|yaml`, `-field`), aligned columns for the scheduler commands.
 * Data goes to stdout, warnings to stderr.
 *
 * On the start-up path: node built-ins only at top level; `yaml` is loaded when YAML is rendered.
 */
import { stripVTControlCharacters } from 'node:util';
import type { Io } from '../io.js';
import { UsageError } from '../../shared/errors.js';
import { colours, errColours } from './colour.js';

export type OutputFormat = 'table' | 'json' | 'yaml';

export interface RenderOptions {
  format: OutputFormat;
  /** print only this field's value, raw; takes precedence over `format` (as in Vault) */
  field?: string;
}

/** A secrets API response as the client receives it; other top-level keys are printed by json/yaml. */
export interface SecretResponse {
  data?: Record<string, unknown> | null;
  auth?: Record<string, unknown> | null;
  warnings?: string[] | null;
  lease_id?: string;
  lease_duration?: number;
  renewable?: boolean;
  [key: string]: unknown;
}

/**
 * Seconds → Go's time.Duration text with Vault's trimming of zero units: 0s, 500ms, 45s, 1m, 1h30m,
 * 1h1s, 768h.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  const abs = Math.abs(seconds);
  const trim = (n: number) => String(Number(n.toFixed(9)));
  if (abs < 1) {
    if (abs >= 1e-3) return `${sign}${trim(abs * 1e3)}ms`;
    if (abs >= 1e-6) return `${sign}${trim(abs * 1e6)}µs`;
    return `${sign}${trim(abs * 1e9)}ns`;
  }
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs - h * 3600) / 60);
  const s = trim(abs - h * 3600 - m * 60);
  let text = h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
  if (text.endsWith('m0s')) text = text.slice(0, -2);
  text = text.replace(/h0m/, 'h');
  return sign + text;
}

/** Go's `%v` of a decoded JSON value: `[a b c]`, `map[k:v k2:v2]` (keys sorted), `<nil>`. */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `map[${sortedKeys(obj)
      .map((k) => `${k}:${goValue(obj[k])}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** Byte-order sort, as Go's sort.Strings (not locale order). */
export function sortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Vault prints fields that look like TTLs as durations (`token_ttl    768h`). */
function looksLikeDuration(key: string): boolean {
  return key === 'period' || key.endsWith('_period') || key === 'ttl' || key.endsWith('_ttl');
}

function humanDurationValue(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return formatDuration(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return formatDuration(Number(value));
  return value;
}

/** Go's `%q` of a []string: `["default" "root"]`. */
function quotedList(value: unknown): string {
  const list = Array.isArray(value) ? value : [];
  return `[${list.map((v) => JSON.stringify(String(v))).join(' ')}]`;
}

export interface TableOptions {
  /** a dashes line under the headers, Vault style (`Path    Type`/`----    ----`) */
  dashes?: boolean;
  /** spaces between columns: 4 with `dashes` (Vault), else 2 (Nomad) */
  gap?: number;
  /** what an empty cell shows: "n/a" with `dashes` (Vault), else "<none>" (Nomad) */
  empty?: string;
}

/** Escape sequences start with ESC or CSI; text with neither (any output without colour) is its own length, and the stripping regex is never built. */
const ESCAPES = /[\u001b\u009b]/;
const visibleLength = (s: string) => (ESCAPES.test(s) ? stripVTControlCharacters(s).length : s.length);

/** Aligned columns as text, ending in a newline; the last column is not padded. Headers are bold where stdout takes colour. */
export function formatTable(headers: string[], rows: string[][], opts: TableOptions = {}): string {
  const gap = ' '.repeat(opts.gap ?? (opts.dashes ? 4 : 2));
  const empty = opts.empty ?? (opts.dashes ? 'n/a' : '<none>');
  const columns = Math.max(headers.length, ...rows.map((r) => r.length));
  const lines: string[][] = [];
  if (headers.length > 0) {
    const { bold } = colours();
    lines.push(headers.map((h) => bold(h)));
    if (opts.dashes) lines.push(headers.map((h) => '-'.repeat(visibleLength(h))));
  }
  for (const row of rows) lines.push(Array.from({ length: columns }, (_, i) => (row[i] === undefined || row[i] === '' ? empty : row[i])));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(0, ...lines.map((l) => visibleLength(l[i] ?? ''))));
  return lines
    .map((cells) =>
      cells
        .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i] - visibleLength(cell))))
        .join(gap)
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

/** Prints aligned columns: Nomad style by default, Vault style (`----` line, 4 spaces) with `dashes`. */
export function renderTable(io: Io, headers: string[], rows: string[][], opts: TableOptions = {}): void {
  io.out(formatTable(headers, rows, opts));
}

async function toYaml(value: unknown): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(value);
}

function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A plain value as JSON or YAML, for commands whose machine output is not a response envelope. */
export async function renderData(io: Io, value: unknown, format: 'json' | 'yaml'): Promise<void> {
  io.out(format === 'yaml' ? await toYaml(value) : toJson(value));
}

/** The value `-field` names, looked up as Vault does (auth fields first, then data); undefined if absent. */
function extractField(secret: SecretResponse, field: string): unknown {
  const auth = secret.auth;
  if (auth) {
    const authFields: Record<string, unknown> = {
      token: auth.client_token,
      token_accessor: auth.accessor,
      token_duration: auth.lease_duration,
      token_renewable: auth.renewable,
      token_policies: auth.token_policies,
      identity_policies: auth.identity_policies,
      policies: auth.policies,
    };
    if (field in authFields && authFields[field] !== undefined && authFields[field] !== null) return authFields[field];
    const meta = auth.metadata as Record<string, unknown> | null | undefined;
    if (field.startsWith('token_meta_') && meta && meta[field.slice('token_meta_'.length)] != null) {
      return meta[field.slice('token_meta_'.length)];
    }
  }
  const data = secret.data;
  if (data && data[field] !== undefined && data[field] !== null) return data[field];
  if ((secret.lease_duration ?? 0) > 0) {
    const lease: Record<string, unknown> = secret.lease_id
      ? { lease_id: secret.lease_id, lease_duration: secret.lease_duration, lease_renewable: secret.renewable }
      : { refresh_interval: secret.lease_duration };
    if (lease[field] !== undefined) return lease[field];
  }
  return undefined;
}

/** A raw field value: strings as they are, scalars as text, objects and arrays as JSON. */
export function rawValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** The Key/Value rows of Vault's table output for a secret: lease, then auth, then data (keys sorted). */
export function secretRows(secret: SecretResponse): string[][] {
  const rows: string[][] = [];
  const lease = secret.lease_duration ?? 0;
  if (lease > 0) {
    if (secret.lease_id) {
      rows.push(['lease_id', secret.lease_id]);
      rows.push(['lease_duration', formatDuration(lease)]);
      rows.push(['lease_renewable', String(secret.renewable === true)]);
    } else {
      rows.push(['refresh_interval', formatDuration(lease)]);
    }
  }
  const auth = secret.auth;
  if (auth) {
    if (auth.client_token) rows.push(['token', String(auth.client_token)]);
    if (auth.accessor) rows.push(['token_accessor', String(auth.accessor)]);
    const duration = Number(auth.lease_duration ?? 0);
    rows.push(['token_duration', duration === 0 ? '∞' : formatDuration(duration)]);
    rows.push(['token_renewable', String(auth.renewable === true)]);
    rows.push(['token_policies', quotedList(auth.token_policies)]);
    rows.push(['identity_policies', quotedList(auth.identity_policies)]);
    rows.push(['policies', quotedList(auth.policies)]);
    const meta = (auth.metadata ?? {}) as Record<string, unknown>;
    for (const k of sortedKeys(meta)) rows.push([`token_meta_${k}`, goValue(meta[k])]);
  }
  const data = secret.data ?? {};
  for (const k of sortedKeys(data)) {
    const v = looksLikeDuration(k) ? humanDurationValue(data[k]) : data[k];
    rows.push([k, goValue(v)]);
  }
  return rows;
}

function warningBlock(warnings: string[]): string {
  return ['WARNING! The following warnings were returned from the server:', '', ...warnings.flatMap((w) => [`  * ${w}`, ''])].join('\n');
}

/**
 * Prints a secrets API response. `field` wins over `format` and prints the value raw, with a trailing
 * newline only when stdout is a terminal (as Vault, so `$(svc read -field=x ...)` and redirects get the
 * bare value). json/yaml print the whole response; table prints warnings to stderr, then the Key/Value
 * table (nothing when there are no rows).
 */
export async function renderSecret(io: Io, secret: SecretResponse, opts: RenderOptions): Promise<void> {
  if (opts.field !== undefined && opts.field !== '') {
    const value = extractField(secret, opts.field);
    if (value === undefined) throw new UsageError(`Field "${opts.field}" not present in secret`);
    io.stdout.write(rawValue(value) + (io.stdout.isTTY ? '\n' : ''));
    return;
  }
  if (opts.format === 'json') return io.out(toJson(secret));
  if (opts.format === 'yaml') return io.out(await toYaml(secret));
  if (secret.warnings && secret.warnings.length > 0) {
    const block = warningBlock(secret.warnings);
    io.err(`${errColours().yellow(block)}\n`);
  }
  const rows = secretRows(secret);
  if (rows.length === 0) return;
  io.out(formatTable(['Key', 'Value'], rows, { dashes: true }));
}

/** Prints the keys of a list: `Keys`/`----` then one per line; a JSON array; a YAML list. */
export async function renderList(io: Io, keys: string[], opts: RenderOptions): Promise<void> {
  if (opts.format === 'json') return io.out(toJson(keys));
  if (opts.format === 'yaml') return io.out(await toYaml(keys));
  io.out(['Keys', '----', ...keys].join('\n'));
}
