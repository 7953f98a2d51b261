import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../flags/from-fields.js';
import { AUTH_ENABLE_FIELDS, AUTH_MOUNT_CONFIG_FIELDS } from '../../../secrets/sys/fields.js';
import { UsageError } from '../../../shared/errors.js';
import { authMountName } from '../../auth-mount.js';

export default defineCommand({
  path: ['auth', 'enable'],
  synopsis: 'Enable an auth method',
  usage: 'svc auth enable [options] TYPE',
  description:
    'Enables an auth method of the given TYPE at auth/<path>/, where the path defaults to the type. The ' +
    'path must not be in use, nor nested inside or around another auth mount. Needs "sudo" on ' +
    'sys/auth/<path>.',
  examples: [
    { command: 'svc auth enable cloud', description: 'Enable the cloud auth method at auth/cloud/' },
    { command: 'svc auth enable -path=ci -description="CI machines" cloud', description: 'Enable it at auth/ci/' },
  ],
  exitCodes: { 0: 'the method was enabled', 1: 'a usage error', 2: 'a server error, such as a path in use' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [...flagsFromFields(AUTH_ENABLE_FIELDS, { omit: ['type'] }), ...flagsFromFields(AUTH_MOUNT_CONFIG_FIELDS)],
  // The types the server mounts besides token (src/secrets/auth/backends.ts), which is always mounted.
  args: [{ name: 'type', description: 'The type of the auth method, such as "cloud".', required: true, choices: ['cloud'] }],
  async run(ctx) {
    const type = ctx.args[0].trim();
    const { path: flagPath, ...fields } = toRequestData(AUTH_ENABLE_FIELDS, ctx.flags);
    const path = authMountName((flagPath as string | undefined) || type);
    if (path === '') throw new UsageError('the mount path must not be empty');
    const config = toRequestData(AUTH_MOUNT_CONFIG_FIELDS, ctx.flags);
    const body = { ...fields, type, ...(Object.keys(config).length > 0 ? { config } : {}) };
    const answer = await clientFor(ctx).secrets('POST', `sys/auth/${path}`, { body });
    for (const warning of answer?.warnings ?? []) ctx.io.err(`WARNING! ${warning}`);
    ctx.io.out(`Success! Enabled ${type} auth method at: ${path}/`);
    return 0;
  },
});
