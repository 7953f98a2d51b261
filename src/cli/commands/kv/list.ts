import { defineCommand } from '../../define.js';
import { listAndPrint } from '../../secrets-output.js';
import { UsageError } from '../../../shared/errors.js';
import { apiPath, kvTarget, MOUNT_FLAG, reportingKvFailures } from './kv-mount.js';

export default defineCommand({
  path: ['kv', 'list'],
  synopsis: 'List data or secrets',
  usage: 'svc kv list [options] PATH',
  description:
    'Lists the keys under PATH of a KV secrets engine; names ending in "/" are folders. On a version 2 ' +
    'mount the list comes from the metadata, so it needs "list" on <mount>/metadata/PATH.',
  examples: [{ command: 'svc kv list secret/' }, { command: 'svc kv list -mount=secret my-app/' }, { command: 'svc kv list -mount=secret', description: 'List the top of the mount' }],
  exitCodes: { 0: 'the keys were listed', 1: 'a usage error', 2: 'a server error, or no keys under PATH' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [MOUNT_FLAG],
  args: [{ name: 'path', description: 'The folder: mount and path (secret/my-app/), or the path with -mount; the mount itself when empty.', complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      if ((ctx.args[0] ?? '') === '' && ctx.flags.mount === undefined) throw new UsageError('Not enough arguments: give the path to list, such as secret/, or -mount');
      const t = await kvTarget(ctx, ctx.args[0] ?? '');
      return listAndPrint(ctx, apiPath(t, 'metadata'));
    }),
});
