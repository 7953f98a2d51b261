import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { sanitizePath } from '../../kv-args.js';
import { reportingKvFailures, step } from './kv-mount.js';

export default defineCommand({
  path: ['kv', 'enable-versioning'],
  synopsis: 'Turn on versioning for a KV store',
  usage: 'svc kv enable-versioning [options] PATH',
  description:
    'Upgrades the version 1 KV mount at PATH to version 2: each key\'s data becomes its version 1. There is ' +
    'no way back. Needs "update" on sys/mounts/PATH/tune.',
  examples: [{ command: 'svc kv enable-versioning kv/' }],
  exitCodes: { 0: 'the mount is version 2', 1: 'a usage error', 2: 'a server error, such as no mount at PATH' },
  family: 'secrets',
  flagSets: ['http'],
  args: [{ name: 'path', description: 'The mount path of the KV secrets engine, such as "kv".', required: true, complete: 'secrets-path' }],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const mount = `${sanitizePath(ctx.args[0])}/`;
      await step(`Error tuning secrets engine ${mount}`, clientFor(ctx).secrets('POST', `sys/mounts/${mount}tune`, { body: { options: { version: '2' } } }));
      ctx.io.out(`Success! Tuned the secrets engine at: ${mount}`);
      return 0;
    }),
});
