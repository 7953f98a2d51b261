import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingKvFailures, step } from '../kv/kv-mount.js';
import { mountPath } from './mount-flags.js';

export default defineCommand({
  path: ['secrets', 'disable'],
  synopsis: 'Disable a secrets engine',
  usage: 'svc secrets disable [options] PATH',
  description:
    'Disables the secrets engine mounted at PATH. All of its data is removed with it, for good. ' +
    'Disabling a path where nothing is mounted succeeds. Needs "delete" on sys/mounts/PATH.',
  examples: [{ command: 'svc secrets disable kv/' }],
  exitCodes: { 0: 'nothing is mounted at the path any more', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  args: [{ name: 'path', description: 'The mount path of the engine, such as "kv".', required: true, complete: 'secrets-path' }],
  async run(ctx) {
    const path = mountPath(ctx.args[0]);
    return reportingKvFailures(ctx, async () => {
      await step(`Error disabling secrets engine at ${path}`, clientFor(ctx).secrets('DELETE', `sys/mounts/${path}`));
      ctx.io.out(`Success! Disabled the secrets engine (if it existed) at: ${path}`);
      return 0;
    });
  },
});
