import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../flags/from-fields.js';
import { AUTH_TUNE_FIELDS } from '../../../secrets/sys/fields.js';
import { UsageError } from '../../../shared/errors.js';
import { authMountName } from '../../auth-mount.js';

export default defineCommand({
  path: ['auth', 'tune'],
  synopsis: 'Tune an auth method configuration',
  usage: 'svc auth tune [options] PATH',
  description:
    'Changes the settings of the auth method mounted at auth/PATH/ (sys/auth/PATH/tune): its default and ' +
    'maximum lease TTLs, description, listing visibility and token type. Only the settings given change. ' +
    'Tokens the method issues afterwards get the new TTLs. `svc read sys/auth/PATH/tune` shows the ' +
    'settings in force. Needs "sudo" on sys/auth/PATH/tune.',
  examples: [
    { command: 'svc auth tune -default-lease-ttl=72h cloud', description: 'Tokens from auth/cloud/ last 72 hours by default' },
    { command: 'svc auth tune -max-lease-ttl=system token', description: 'Return the token method to the system maximum' },
  ],
  exitCodes: { 0: 'the method was tuned', 1: 'a usage error', 2: 'a server error, such as no mount at the path' },
  family: 'secrets',
  flagSets: ['http'],
  flags: flagsFromFields(AUTH_TUNE_FIELDS, { omit: ['path'] }),
  args: [{ name: 'path', description: 'The mount path, relative to auth/.', required: true, complete: 'mount' }],
  async run(ctx) {
    const path = authMountName(ctx.args[0]);
    if (path === '') throw new UsageError('the mount path must not be empty');
    const body = toRequestData(AUTH_TUNE_FIELDS, ctx.flags);
    await clientFor(ctx).secrets('POST', `sys/auth/${path}/tune`, { body });
    ctx.io.out(`Success! Tuned the auth method at: ${path}/`);
    return 0;
  },
});
