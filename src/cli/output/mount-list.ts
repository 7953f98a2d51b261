/**
 * `svc auth list` and `svc secrets list`: the mounts of sys/auth or sys/mounts as Vault's CLI prints them,
 * a short table by default and every setting with -detailed, or the whole answer with -format.
 */
import type { CommandContext } from '../define.js';
import { UsageError } from '../../shared/errors.js';
import type { OutputFormat } from './format.js';

export interface MountInfo {
  type: string;
  accessor: string;
  description: string;
  uuid: string;
  local: boolean;
  seal_wrap: boolean;
  external_entropy_access: boolean;
  options: Record<string, string> | null;
  running_plugin_version?: string;
  config: { default_lease_ttl: number; max_lease_ttl: number; force_no_cache?: boolean; token_type?: string };
}

/** What the two lists' -detailed tables differ in: auth methods show their token type, engines their plugin and version. */
const KINDS = {
  auth: { type: 'Type', after: [['Token Type', (m: MountInfo) => m.config.token_type ?? '']], last: [] },
  secrets: {
    type: 'Plugin',
    after: [['Force No Cache', (m: MountInfo) => String(m.config.force_no_cache === true)]],
    last: [['Running Version', (m: MountInfo) => m.running_plugin_version ?? '']],
  },
} as const satisfies Record<string, { type: string; after: ReadonlyArray<readonly [string, (m: MountInfo) => string]>; last: ReadonlyArray<readonly [string, (m: MountInfo) => string]> }>;

/** Prints what `read` answers (the mounts keyed by path), asked only once the flags are known to be usable. */
export async function printMountList(ctx: CommandContext, kind: keyof typeof KINDS, read: () => Promise<Record<string, MountInfo>>): Promise<number> {
  if (ctx.flags.field !== undefined) throw new UsageError(`-field is not supported by ${kind} list; use -format=json`);
  const mounts = await read();
  const format = ctx.flags.format as OutputFormat;
  const { formatDuration, goValue, renderData, renderTable } = await import('./format.js');
  if (format !== 'table') {
    await renderData(ctx.io, mounts, format);
    return 0;
  }
  const paths = Object.keys(mounts).sort();
  if (ctx.flags.detailed !== true) {
    renderTable(ctx.io, ['Path', 'Type', 'Accessor', 'Description'], paths.map((p) => [p, mounts[p].type, mounts[p].accessor, mounts[p].description]), { dashes: true });
    return 0;
  }
  const ttl = (secs: number) => (secs === 0 ? 'system' : formatDuration(secs));
  const { type, after, last } = KINDS[kind];
  const columns: ReadonlyArray<readonly [string, (m: MountInfo) => string]> = [
    [type, (m) => m.type],
    ['Accessor', (m) => m.accessor],
    ['Default TTL', (m) => ttl(m.config.default_lease_ttl)],
    ['Max TTL', (m) => ttl(m.config.max_lease_ttl)],
    ...after,
    ['Replication', (m) => (m.local ? 'local' : 'replicated')],
    ['Seal Wrap', (m) => String(m.seal_wrap)],
    ['External Entropy Access', (m) => String(m.external_entropy_access)],
    ['Options', (m) => (m.options ? goValue(m.options) : '')],
    ['Description', (m) => m.description],
    ['UUID', (m) => m.uuid],
    ...last,
  ];
  renderTable(ctx.io, ['Path', ...columns.map(([h]) => h)], paths.map((p) => [p, ...columns.map(([, cell]) => cell(mounts[p]))]), { dashes: true });
  return 0;
}
