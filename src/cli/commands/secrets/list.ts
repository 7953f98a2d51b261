import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingKvFailures, step } from '../kv/kv-mount.js';
import { printMountList, type MountInfo } from '../../output/mount-list.js';

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
  run: (ctx) =>
    reportingKvFailures(ctx, () =>
      printMountList(ctx, 'secrets', async () => {
        const secret = await step('Error listing secrets engines', clientFor(ctx).secrets('GET', 'sys/mounts'));
        return (secret?.data ?? {}) as Record<string, MountInfo>;
      }),
    ),
});
