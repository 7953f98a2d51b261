import { defineCommand, type CommandContext, type FlagSpec } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { KvFailure, metadataPath, MOUNT_FLAG, reportingKvFailures, step } from './kv-mount.js';

export const METADATA_FLAGS: FlagSpec[] = [
  MOUNT_FLAG,
  { name: 'max-versions', type: 'int', group: 'Common Options', description: 'The number of versions to keep; the oldest beyond it are removed. 0 means the mount\'s setting.' },
  { name: 'cas-required', type: 'bool', group: 'Common Options', description: 'Require check-and-set (-cas) on every write of KEY.' },
  { name: 'delete-version-after', type: 'duration', group: 'Common Options', description: 'Soft-delete each version this long after it is written, such as "3h25m19s"; 0 means the mount\'s setting.' },
  { name: 'custom-metadata', type: 'strings', group: 'Common Options', description: 'A key=value pair of metadata of your own about KEY; may be repeated.' },
];

/** The body from the flags given: only what the user set, so a patch changes nothing else. */
export function metadataBody(ctx: CommandContext): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (ctx.flags['max-versions'] !== undefined) body.max_versions = ctx.flags['max-versions'];
  if (ctx.flags['cas-required'] !== undefined) body.cas_required = ctx.flags['cas-required'];
  if (ctx.flags['delete-version-after'] !== undefined) body.delete_version_after = ctx.flags['delete-version-after'];
  const custom = (ctx.flags['custom-metadata'] as string[] | undefined) ?? [];
  if (custom.length > 0) {
    body.custom_metadata = Object.fromEntries(
      custom.map((kv) => {
        const eq = kv.indexOf('=');
        if (eq < 1) throw new KvFailure(`Invalid -custom-metadata "${kv}": give it as key=value`, 1);
        return [kv.slice(0, eq), kv.slice(eq + 1)];
      }),
    );
  }
  return body;
}

export default defineCommand({
  path: ['kv', 'metadata', 'put'],
  synopsis: 'Set or update the settings of a key in the KV store',
  usage: 'svc kv metadata put [options] KEY',
  description:
    'Writes the settings of KEY on a version 2 mount: the versions kept, whether writes need ' +
    'check-and-set, when versions are deleted, and custom metadata. A setting not given is reset to its ' +
    'default (custom metadata is replaced as a whole); to change some only, use `svc kv metadata patch`. ' +
    'KEY need not have data yet.',
  examples: [
    { command: 'svc kv metadata put -max-versions=5 secret/foo', description: 'Keep five versions' },
    { command: 'svc kv metadata put -cas-required secret/foo', description: 'Require -cas on every write' },
    { command: 'svc kv metadata put -custom-metadata=owner=ops -custom-metadata=env=prod secret/foo' },
  ],
  exitCodes: { 0: 'the settings were written', 1: 'a usage error, or a version 1 mount', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  flags: METADATA_FLAGS,
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const body = metadataBody(ctx);
      const path = await metadataPath(ctx);
      await step(`Error writing data to ${path}`, clientFor(ctx).secrets('PUT', path, { body }));
      ctx.io.out(`Success! Data written to: ${path}`);
      return 0;
    }),
});
