import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { apiPath, kvTarget, MOUNT_FLAG, reportingKvFailures, step, versionList, VERSIONS_FLAG, KvFailure } from './kv-mount.js';

export default defineCommand({
  path: ['kv', 'delete'],
  synopsis: 'Delete versions in the KV store',
  usage: 'svc kv delete [options] KEY',
  description:
    'Deletes KEY of a KV secrets engine. On a version 2 mount this is a soft delete of the latest version ' +
    '(or of those -versions names): its data is kept, `svc kv undelete` brings it back and `svc kv ' +
    'destroy` removes it for good. On a version 1 mount the data is removed. Deleting what does not ' +
    'exist succeeds.',
  examples: [
    { command: 'svc kv delete secret/foo', description: 'Delete the latest version' },
    { command: 'svc kv delete -versions=1,2 secret/foo', description: 'Delete versions 1 and 2' },
  ],
  exitCodes: { 0: 'the data is deleted', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [MOUNT_FLAG, { ...VERSIONS_FLAG, description: 'The versions to delete (version 2 mounts), such as -versions=1,3; the latest when not given.' }],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const t = await kvTarget(ctx, ctx.args[0]);
      const versions = versionList(ctx.flags.versions);
      if (versions.length > 0 && t.version === 1) throw new KvFailure(`-versions is for KV version 2 mounts; ${t.mount}/ is version 1`, 1);
      const path = versions.length > 0 ? apiPath(t, 'delete') : apiPath(t, 'data');
      const client = clientFor(ctx);
      const call = versions.length > 0 ? client.secrets('PUT', path, { body: { versions } }) : client.secrets('DELETE', path);
      await step(`Error deleting ${path}`, call);
      ctx.io.out(`Success! Data deleted (if it existed) at: ${path}`);
      return 0;
    }),
});
