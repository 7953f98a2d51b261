import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { apiPath, KvFailure, kvTarget, MOUNT_FLAG, reportingKvFailures, step, versionList, VERSIONS_FLAG } from './kv-mount.js';

export default defineCommand({
  path: ['kv', 'destroy'],
  synopsis: 'Permanently remove one or more versions in the KV store',
  usage: 'svc kv destroy [options] KEY',
  description: 'Removes the data of versions of KEY on a version 2 mount for good; their metadata stays, marked destroyed. -versions names them; it is required. To remove every version and the metadata, use `svc kv metadata delete`.',
  examples: [{ command: 'svc kv destroy -versions=1,2 secret/foo' }, { command: 'svc kv destroy -versions=1,2 -mount=secret foo', description: 'The same, the mount given apart' }],
  exitCodes: { 0: 'the versions were destroyed', 1: 'a usage error, or a version 1 mount', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [MOUNT_FLAG, { ...VERSIONS_FLAG, description: 'The versions to destroy, such as -versions=1,3. Required.' }],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const versions = versionList(ctx.flags.versions);
      if (versions.length === 0) throw new KvFailure('No versions provided, use the "-versions" flag to specify the version to destroy.', 1);
      const t = await kvTarget(ctx, ctx.args[0]);
      if (t.version === 1) throw new KvFailure('Destroy not supported on KV Version 1', 1);
      const path = apiPath(t, 'destroy');
      await step(`Error writing data to ${path}`, clientFor(ctx).secrets('PUT', path, { body: { versions } }));
      ctx.io.out(`Success! Data written to: ${path}`);
      return 0;
    }),
});
