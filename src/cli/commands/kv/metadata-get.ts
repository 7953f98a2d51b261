import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { renderSecret } from '../../output/format.js';
import { metadataPath, MOUNT_FLAG, reportingKvFailures, step } from './kv-mount.js';
import { outputOptions, printPath, printSection, printWarnings } from './kv-output.js';

export default defineCommand({
  path: ['kv', 'metadata', 'get'],
  synopsis: 'Retrieve the metadata of a key in the KV store',
  usage: 'svc kv metadata get [options] KEY',
  description:
    'Prints the metadata of KEY on a version 2 mount: its settings (max_versions, cas_required, ' +
    'delete_version_after, custom_metadata), its current and oldest versions, then each version kept ' +
    'with its creation, deletion time and whether it is destroyed.',
  examples: [{ command: 'svc kv metadata get secret/foo' }, { command: 'svc kv metadata get -mount=secret foo' }],
  exitCodes: { 0: 'the metadata was read', 1: 'a usage error, or a version 1 mount', 2: 'a server error, or no secret at KEY' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [MOUNT_FLAG],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const path = await metadataPath(ctx);
      const secret = await step(`Error reading ${path}`, clientFor(ctx).secrets('GET', path), `No value found at ${path}`);
      const opts = outputOptions(ctx);
      if (!secret?.data) {
        ctx.io.err(`No value found at ${path}`);
        return 2;
      }
      if (opts.field !== undefined || opts.format !== 'table') {
        await renderSecret(ctx.io, secret, opts);
        return 0;
      }
      const { versions, ...metadata } = secret.data as { versions?: Record<string, Record<string, unknown>> };
      printWarnings(ctx.io, secret);
      printPath(ctx.io, 'Metadata Path', path);
      printSection(ctx.io, 'Metadata', metadata);
      for (const v of Object.keys(versions ?? {}).map(Number).sort((a, b) => a - b)) {
        ctx.io.out('');
        printSection(ctx.io, `Version ${v}`, versions![String(v)]);
      }
      return 0;
    }),
});
