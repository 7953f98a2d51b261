import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingKvFailures, step } from '../kv/kv-mount.js';
import { UsageError } from '../../../shared/errors.js';
import { MOUNT_SETTING_FLAGS, mountPath, mountSettings } from './mount-flags.js';

export default defineCommand({
  path: ['secrets', 'tune'],
  synopsis: 'Tune a secrets engine configuration',
  usage: 'svc secrets tune [options] PATH',
  description:
    'Changes the settings of the secrets engine mounted at PATH: its lease TTLs, description and options. ' +
    'Only the settings given change; options are merged into the engine\'s. -version=2 (or ' +
    '-options=version=2) upgrades a KV version 1 engine, as `svc kv enable-versioning` does. `svc read ' +
    'sys/mounts/PATH/tune` shows the settings in force. Needs "update" on sys/mounts/PATH/tune.',
  examples: [
    { command: 'svc secrets tune -default-lease-ttl=72h secret/' },
    { command: 'svc secrets tune -description="team secrets" secret/' },
  ],
  exitCodes: { 0: 'the engine was tuned', 1: 'a usage error', 2: 'a server error, such as no mount at the path' },
  family: 'secrets',
  flagSets: ['http'],
  flags: MOUNT_SETTING_FLAGS,
  args: [{ name: 'path', description: 'The mount path of the engine, such as "secret".', required: true, complete: 'secrets-path' }],
  async run(ctx) {
    const path = mountPath(ctx.args[0]);
    const { ttls, options, description } = mountSettings(ctx.flags);
    const body = { ...ttls, description, options };
    if (Object.values(body).every((v) => v === undefined)) throw new UsageError('nothing to tune: give at least one setting');
    return reportingKvFailures(ctx, async () => {
      await step(`Error tuning secrets engine ${path}`, clientFor(ctx).secrets('POST', `sys/mounts/${path}tune`, { body }));
      ctx.io.out(`Success! Tuned the secrets engine at: ${path}`);
      return 0;
    });
  },
});
