import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { printMountList, type MountInfo } from '../../output/mount-list.js';

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
  run: (ctx) =>
    printMountList(ctx, 'auth', async () => {
      const secret = await clientFor(ctx).secrets('GET', 'sys/auth');
      return (secret?.data ?? {}) as Record<string, MountInfo>;
    }),
});
