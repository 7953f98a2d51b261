import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { authMountName } from '../../auth-mount.js';

export default defineCommand({
  path: ['auth', 'disable'],
  synopsis: 'Disable an auth method',
  usage: 'svc auth disable [options] PATH',
  description:
    'Disables the auth method mounted at auth/PATH/. Every token it issued is revoked and its identity ' +
    'aliases are removed. Disabling a path where nothing is mounted succeeds. The token method cannot be ' +
    'disabled. Needs "sudo" on sys/auth/PATH.',
  examples: [{ command: 'svc auth disable cloud' }],
  exitCodes: { 0: 'nothing is mounted at the path any more', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  args: [{ name: 'path', description: 'The mount path, relative to auth/.', required: true, complete: 'mount' }],
  async run(ctx) {
    const path = authMountName(ctx.args[0]);
    if (path === '') throw new UsageError('the mount path must not be empty');
    await clientFor(ctx).secrets('DELETE', `sys/auth/${path}`);
    ctx.io.out(`Success! Disabled the auth method (if it existed) at: ${path}/`);
    return 0;
  },
});
