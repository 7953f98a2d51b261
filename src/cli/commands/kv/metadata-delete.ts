import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { metadataPath, MOUNT_FLAG, reportingKvFailures, step } from './kv-mount.js';

export default defineCommand({
  path: ['kv', 'metadata', 'delete'],
  synopsis: 'Delete all versions and metadata of a key in the KV store',
  usage: 'svc kv metadata delete [options] KEY',
  description: 'Removes KEY from a version 2 mount for good: every version, its data and its metadata. Deleting what does not exist succeeds.',
  examples: [{ command: 'svc kv metadata delete secret/foo' }, { command: 'svc kv metadata delete -mount=secret foo' }],
  exitCodes: { 0: 'KEY is gone', 1: 'a usage error, or a version 1 mount', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [MOUNT_FLAG],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const path = await metadataPath(ctx);
      await step(`Error deleting ${path}`, clientFor(ctx).secrets('DELETE', path));
      ctx.io.out(`Success! Data deleted (if it existed) at: ${path}`);
      return 0;
    }),
});
