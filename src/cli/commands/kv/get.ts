import { defineCommand } from '../../define.js';
import { readKeeping404 } from '../../secrets-output.js';
import { renderSecret } from '../../output/format.js';
import { apiPath, KvFailure, kvTarget, MOUNT_FLAG, reportingKvFailures, step } from './kv-mount.js';
import { outputOptions, printPath, printSection, printWarnings } from './kv-output.js';

export default defineCommand({
  path: ['kv', 'get'],
  synopsis: 'Retrieve data from the KV store',
  usage: 'svc kv get [options] KEY',
  description:
    'Retrieves the value at KEY of a KV secrets engine. On a version 2 mount it prints the secret\'s path, ' +
    'its version\'s metadata and its data; -version reads an older version. A deleted or destroyed ' +
    'version prints its metadata and no data. -field prints one key of the data, raw.',
  examples: [
    { command: 'svc kv get secret/foo' },
    { command: 'svc kv get -mount=secret foo', description: 'The same secret, the mount given apart' },
    { command: 'svc kv get -version=1 secret/foo', description: 'Read version 1' },
    { command: 'svc kv get -field=password secret/db', description: 'Print only the password' },
  ],
  exitCodes: { 0: 'the secret was read', 1: 'a usage error, or -field names no key', 2: 'a server error, or no value at KEY' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [MOUNT_FLAG, { name: 'version', type: 'int', group: 'Common Options', description: 'The version to read (version 2 mounts); the latest when not given.' }],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const t = await kvTarget(ctx, ctx.args[0]);
      const version = ctx.flags.version as number | undefined;
      if (version !== undefined && t.version === 1) throw new KvFailure(`-version is for KV version 2 mounts; ${t.mount}/ is version 1`, 1);
      const path = apiPath(t, 'data');
      const { status, secret } = await step(`Error reading ${path}`, readKeeping404(ctx, path, version !== undefined ? { version: String(version) } : {}));
      if (!secret || (status === 404 && !secret.data)) throw new KvFailure(`No value found at ${path}`, 2);
      const opts = outputOptions(ctx);
      const inner = t.version === 2 ? (secret.data?.data as Record<string, unknown> | null | undefined) : secret.data;
      if (opts.field !== undefined) {
        if (!inner) throw new KvFailure(`No data found at ${path}`, 2);
        // "data" may name a key of the secret or, as in Vault, the data block itself.
        const source = t.version === 2 && opts.field === 'data' && !Object.hasOwn(inner, 'data') ? secret : { data: inner };
        await renderSecret(ctx.io, source, opts);
        return 0;
      }
      if (opts.format !== 'table') {
        await renderSecret(ctx.io, secret, opts);
        return 0;
      }
      printWarnings(ctx.io, secret);
      if (t.version === 2) {
        printPath(ctx.io, 'Secret Path', path);
        const metadata = secret.data?.metadata as Record<string, unknown> | null | undefined;
        if (metadata) {
          printSection(ctx.io, 'Metadata', metadata);
          if (inner) ctx.io.out('');
        }
      }
      if (inner) printSection(ctx.io, 'Data', inner);
      return 0;
    }),
});
