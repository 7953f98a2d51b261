import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
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
  config: { default_lease_ttl: number; max_lease_ttl: number; token_type: string };
}

export default defineCommand({
  path: ['auth', 'list'],
  synopsis: 'List the enabled auth methods',
  usage: 'svc auth list [options]',
  description:
    'Lists the enabled auth methods: path, type, accessor and description. -detailed adds the TTLs, the ' +
    'token type, replication, seal wrapping, options and the UUID. With -format=json or yaml it prints ' +
    'the mounts keyed by path. Needs "read" on sys/auth.',
  examples: [{ command: 'svc auth list' }, { command: 'svc auth list -detailed' }],
  exitCodes: { 0: 'the mounts were listed', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [{ name: 'detailed', type: 'bool', description: 'Print more columns: TTLs, token type, replication, seal wrap, options and UUID.' }],
  async run(ctx) {
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by auth list; use -format=json');
    const secret = await clientFor(ctx).secrets('GET', 'sys/auth');
    const mounts = (secret?.data ?? {}) as Record<string, MountInfo>;
    const format = ctx.flags.format as OutputFormat;
    const { formatDuration, goValue, renderData, renderTable } = await import('../../output/format.js');
    if (format !== 'table') {
      await renderData(ctx.io, mounts, format);
      return 0;
    }
    const ttl = (secs: number) => (secs === 0 ? 'system' : formatDuration(secs));
    const paths = Object.keys(mounts).sort();
    if (ctx.flags.detailed === true) {
      const headers = ['Path', 'Type', 'Accessor', 'Default TTL', 'Max TTL', 'Token Type', 'Replication', 'Seal Wrap', 'External Entropy Access', 'Options', 'Description', 'UUID'];
      const rows = paths.map((p) => {
        const m = mounts[p];
        return [
          p,
          m.type,
          m.accessor,
          ttl(m.config.default_lease_ttl),
          ttl(m.config.max_lease_ttl),
          m.config.token_type,
          m.local ? 'local' : 'replicated',
          String(m.seal_wrap),
          String(m.external_entropy_access),
          m.options ? goValue(m.options) : '',
          m.description,
          m.uuid,
        ];
      });
      renderTable(ctx.io, headers, rows, { dashes: true });
    } else {
      renderTable(ctx.io, ['Path', 'Type', 'Accessor', 'Description'], paths.map((p) => [p, mounts[p].type, mounts[p].accessor, mounts[p].description]), { dashes: true });
    }
    return 0;
  },
});
