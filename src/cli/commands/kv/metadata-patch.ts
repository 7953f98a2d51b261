import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { KvFailure, metadataPath, reportingKvFailures, step } from './kv-mount.js';
import { metadataBody, METADATA_FLAGS } from './metadata-put.js';

export default defineCommand({
  path: ['kv', 'metadata', 'patch'],
  synopsis: 'Patch the settings of a key in the KV store',
  usage: 'svc kv metadata patch [options] KEY',
  description:
    'Changes only the settings of KEY given, on a version 2 mount, keeping the others; custom metadata is ' +
    'merged key by key. Needs the "patch" capability on <mount>/metadata/KEY.',
  examples: [
    { command: 'svc kv metadata patch -max-versions=10 secret/foo' },
    { command: 'svc kv metadata patch -custom-metadata=owner=dev secret/foo', description: 'Change one custom key' },
  ],
  exitCodes: { 0: 'the settings were patched', 1: 'a usage error, or a version 1 mount', 2: 'a server error, or no secret at KEY' },
  family: 'secrets',
  flagSets: ['http'],
  flags: METADATA_FLAGS,
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const body = metadataBody(ctx);
      if (Object.keys(body).length === 0) throw new KvFailure('Nothing to patch: give at least one of -max-versions, -cas-required, -delete-version-after, -custom-metadata', 1);
      const path = await metadataPath(ctx);
      const headers = { 'content-type': 'application/merge-patch+json' };
      await step(`Error writing data to ${path}`, clientFor(ctx).secrets('PATCH', path, { body, headers }), `No value found at ${path}`);
      ctx.io.out(`Success! Data written to: ${path}`);
      return 0;
    }),
});
