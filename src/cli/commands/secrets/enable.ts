import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingKvFailures, step } from '../kv/kv-mount.js';
import { ENABLE_FLAGS, enableConfig, enableFlags, MOUNT_SETTING_FLAGS, mountPath, mountSettings } from './mount-flags.js';

export default defineCommand({
  path: ['secrets', 'enable'],
  synopsis: 'Enable a secrets engine',
  usage: 'svc secrets enable [options] TYPE',
  description:
    'Enables a secrets engine of the given TYPE at -path, which defaults to the type. The path must not ' +
    'be in use, nor nested inside or around another mount. "kv" is the KV engine, version 1 unless ' +
    '-version=2 is given; "kv-v2" is version 2. Needs "create" or "update" on sys/mounts/<path>. The ' +
    'settings Vault has are kept and shown by `svc secrets list -detailed` and sys/mounts, but a single ' +
    'svc cluster replicates to no other, so -local changes nothing else; nor does -seal-wrap (every ' +
    'secret is encrypted at rest already), -external-entropy-access, -force-no-cache, the header lists ' +
    '(the KV engine reads no request header and sets none) or the audit keys (the audit log HMACs every ' +
    'value). -listing-visibility=unauth lists the engine to callers without a token at ' +
    'sys/internal/ui/mounts.',
  examples: [
    { command: 'svc secrets enable -path=secret -version=2 kv', description: 'A KV version 2 engine at secret/' },
    { command: 'svc secrets enable kv-v2', description: 'A KV version 2 engine at kv-v2/' },
    { command: 'svc secrets enable -path=apps -description="app secrets" kv' },
    { command: 'svc secrets enable -path=team -local -seal-wrap -options=version=2 kv', description: 'Settings shown by `svc secrets list -detailed`' },
  ],
  exitCodes: { 0: 'the engine was enabled', 1: 'a usage error', 2: 'a server error, such as a path in use' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [{ name: 'path', type: 'string', description: 'Where to mount the engine; the type when not given.' }, ...MOUNT_SETTING_FLAGS, ...ENABLE_FLAGS],
  args: [{ name: 'type', description: 'The engine type: "kv" or "kv-v2".', required: true, choices: ['kv', 'kv-v2'] }],
  async run(ctx) {
    const type = ctx.args[0].trim();
    const path = mountPath((ctx.flags.path as string | undefined) || type);
    const { ttls, options, description } = mountSettings(ctx.flags);
    const body = { type, description, config: { ...ttls, ...enableConfig(ctx.flags) }, options, ...enableFlags(ctx.flags) };
    return reportingKvFailures(ctx, async () => {
      const answer = await step('Error enabling', clientFor(ctx).secrets('POST', `sys/mounts/${path}`, { body }));
      for (const warning of answer?.warnings ?? []) ctx.io.err(`WARNING! ${warning}`);
      const version = ctx.flags['plugin-version'] ? ` version ${ctx.flags['plugin-version'] as string}` : '';
      ctx.io.out(`Success! Enabled the ${type} secrets engine${version} at: ${path}`);
      return 0;
    });
  },
});
