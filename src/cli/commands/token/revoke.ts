import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';

export default defineCommand({
  path: ['token', 'revoke'],
  synopsis: 'Revoke a token and its children',
  usage: 'svc token revoke [options] [TOKEN | ACCESSOR]',
  description:
    'Revokes a token and every token created from it (orphans survive). With -self the token in use is ' +
    'revoked; with -accessor the argument is an accessor; with -mode=orphan only the token is revoked and ' +
    'its children become orphans (needs sudo). Revoking a token that does not exist is not an error.',
  examples: [
    { command: 'svc token revoke svc.2ORv...', description: 'Revoke a token and its children' },
    { command: 'svc token revoke -self', description: 'Revoke the token in use' },
    { command: 'svc token revoke -accessor 8609694a...', description: 'Revoke a token by its accessor' },
    { command: 'svc token revoke -mode=orphan svc.2ORv...', description: 'Revoke a token but keep its children' },
  ],
  exitCodes: { 0: 'the token was revoked, or did not exist', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [
    { name: 'accessor', type: 'bool', description: 'Treat the argument as an accessor instead of a token.' },
    { name: 'self', type: 'bool', description: 'Revoke the token in use; takes no argument.' },
    {
      name: 'mode',
      type: 'string',
      choices: ['orphan'],
      description: 'With "orphan", revoke only the token and leave its children as orphans. Needs sudo.',
    },
  ],
  args: [{ name: 'token', description: 'The token, or with -accessor its accessor.' }],
  async run(ctx) {
    const self = ctx.flags.self === true;
    const accessor = ctx.flags.accessor === true;
    const mode = (ctx.flags.mode as string | undefined) ?? '';
    const arg = ctx.args[0];
    if (self && arg !== undefined) throw new UsageError('Too many arguments with -self (expected 0, got 1)');
    if (!self && arg === undefined) throw new UsageError('Not enough arguments (expected 1 or -self, got 0)');
    if (self && accessor) throw new UsageError('Cannot use -self with -accessor!');
    if (self && mode !== '') throw new UsageError('Cannot use -self with -mode!');
    if (accessor && mode === 'orphan') throw new UsageError('Cannot use -accessor with -mode=orphan!');

    const client = clientFor(ctx);
    if (self) await client.secrets('POST', 'auth/token/revoke-self');
    else if (accessor) await client.secrets('POST', 'auth/token/revoke-accessor', { body: { accessor: arg } });
    else if (mode === 'orphan') await client.secrets('POST', 'auth/token/revoke-orphan', { body: { token: arg } });
    else await client.secrets('POST', 'auth/token/revoke', { body: { token: arg } });
    ctx.io.out('Success! Revoked token (if it existed)');
    return 0;
  },
});
