import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingKvFailures, step } from '../kv/kv-mount.js';
import { UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';

interface MountInfo {
  type: string;
  accessor: string;
  description: string;
  uuid: string;
  local: boolean;
  seal_wrap: boolean;
  external_entropy_access: boolean;
  options: Record<string, string> | null;
  running_plugin_version?: string;
  config: { default_lease_ttl: number; max_lease_ttl: number; force_no_cache?: boolean };
}

export default defineCommand({
  path: ['secrets', 'list'],
  synopsis: 'List the enabled secrets engines',
  usage: 'svc secrets list [options]',
  description:
    'Lists the enabled secrets engines: path, type, accessor and description. -detailed adds the TTLs, ' +
    'replication, seal wrapping, options (a KV engine\'s version), the UUID and the running version. ' +
    'With -format=json or yaml it prints the mounts keyed by path. Needs "read" on sys/mounts.',
  examples: [{ command: 'svc secrets list' }, { command: 'svc secrets list -detailed' }],
  exitCodes: { 0: 'the engines were listed', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [{ name: 'detailed', type: 'bool', description: 'Print more columns: TTLs, replication, seal wrap, options, UUID and version.' }],
  run: (ctx) => reportingKvFailures(ctx, async () => {
      if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by secrets list; use -format=json');
      const secret = await step('Error listing secrets engines', clientFor(ctx).secrets('GET', 'sys/mounts'));
      const mounts = (secret?.data ?? {}) as Record<string, MountInfo>;
      const format = ctx.flags.format as OutputFormat;
      const { formatDuration, goValue, renderData, renderTable } = await import('../../output/format.js');
      if (format !== 'table') {
        await renderData(ctx.io, mounts, format);
        return 0;
      }
      const ttl = (secs: number) => (secs === 0 ? 'system' : formatDuration(secs));
      const paths = Object.keys(mounts).sort();
      if (ctx.flags.detailed !== true) {
        renderTable(ctx.io, ['Path', 'Type', 'Accessor', 'Description'], paths.map((p) => [p, mounts[p].type, mounts[p].accessor, mounts[p].description]), { dashes: true });
        return 0;
      }
      const headers = ['Path', 'Plugin', 'Accessor', 'Default TTL', 'Max TTL', 'Force No Cache', 'Replication', 'Seal Wrap', 'External Entropy Access', 'Options', 'Description', 'UUID', 'Running Version'];
      const rows = paths.map((p) => {
        const m = mounts[p];
        return [
          p,
          m.type,
          m.accessor,
          ttl(m.config.default_lease_ttl),
          ttl(m.config.max_lease_ttl),
          String(m.config.force_no_cache === true),
          m.local ? 'local' : 'replicated',
          String(m.seal_wrap),
          String(m.external_entropy_access),
          m.options ? goValue(m.options) : '',
          m.description,
          m.uuid,
          m.running_plugin_version ?? '',
        ];
      });
      renderTable(ctx.io, headers, rows, { dashes: true });
      return 0;
  }),
});
