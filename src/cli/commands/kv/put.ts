import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { kvSources, parseKvArgs } from '../../kv-args.js';
import { apiPath, KvFailure, kvTarget, MOUNT_FLAG, reportingKvFailures, step } from './kv-mount.js';
import { printWritten } from './kv-output.js';

export const CAS_FLAG = {
  name: 'cas',
  type: 'int',
  default: -1,
  group: 'Common Options',
  description:
    'Check-and-set (version 2 mounts): 0 writes only when KEY does not exist, N only when its current ' +
    'version is N. -1, the default, writes whatever the current version, unless the mount or KEY has ' +
    'cas_required set.',
} as const;

export const DATA_ARG = { name: 'data', description: 'K=V pairs; a value of @file reads it from the file, - from stdin; a bare - reads a JSON object from stdin.', variadic: true } as const;

export default defineCommand({
  path: ['kv', 'put'],
  synopsis: 'Set or update data in the KV store',
  usage: 'svc kv put [options] KEY [DATA K=V...]',
  description:
    'Writes the data to KEY of a KV secrets engine, replacing what was there. On a version 2 mount the ' +
    'write is a new version, and the secret\'s path and that version\'s metadata are printed; the oldest ' +
    'versions beyond max_versions are removed. To change some keys only, use `svc kv patch`.',
  examples: [
    { command: 'svc kv put secret/foo bar=baz' },
    { command: 'svc kv put -mount=secret foo bar=baz', description: 'The same write, the mount given apart' },
    { command: 'svc kv put -cas=1 secret/foo bar=baz', description: 'Write only if the current version is 1' },
    { command: 'svc kv put secret/tls cert=@cert.pem', description: 'Read a value from a file' },
    { command: 'echo -n "s3cr3t" | svc kv put secret/db password=-', description: 'Read a value from stdin' },
  ],
  exitCodes: { 0: 'the data was written', 1: 'a usage error', 2: 'a server error, such as a check-and-set mismatch' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [MOUNT_FLAG, CAS_FLAG],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }, DATA_ARG],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const data = await parseKvArgs(ctx.args.slice(1), kvSources(ctx.io.stdin));
      if (Object.keys(data).length === 0) throw new KvFailure('Must supply data', 1);
      const t = await kvTarget(ctx, ctx.args[0]);
      const cas = ctx.flags.cas as number;
      if (t.version === 1 && cas > -1) throw new KvFailure(`-cas is for KV version 2 mounts; ${t.mount}/ is version 1`, 1);
      const path = apiPath(t, 'data');
      const body = t.version === 2 ? { data: { ...data }, options: cas > -1 ? { cas } : {} } : { ...data };
      const secret = await step(`Error writing data to ${path}`, clientFor(ctx).secrets('PUT', path, { body }));
      return printWritten(ctx, path, secret);
    }),
});
