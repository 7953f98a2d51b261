import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';

export default defineCommand({
  path: ['token', 'lookup'],
  synopsis: 'Display information about a token',
  usage: 'svc token lookup [options] [TOKEN | ACCESSOR]',
  description:
    'Displays the properties of a token: its policies, TTL, uses left, metadata. Without an argument the ' +
    'token in use is looked up (auth/token/lookup-self, which the default policy allows); with -accessor ' +
    'the argument is an accessor (auth/token/lookup-accessor).',
  examples: [
    { command: 'svc token lookup', description: 'Look up the token in use' },
    { command: 'svc token lookup svc.2ORv...', description: 'Look up another token' },
    { command: 'svc token lookup -accessor 8609694a...', description: 'Look up a token by its accessor' },
  ],
  exitCodes: { 0: 'the token was found', 1: 'a usage error', 2: 'a server error, such as an unknown token' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [
    {
      name: 'accessor',
      type: 'bool',
      description: 'Treat the argument as an accessor instead of a token.',
    },
  ],
  args: [{ name: 'token', description: 'The token, or with -accessor its accessor. Defaults to the token in use.' }],
  async run(ctx) {
    const accessor = ctx.flags.accessor === true;
    const arg = ctx.args[0];
    if (accessor && arg === undefined) throw new UsageError('Not enough arguments with -accessor (expected 1, got 0)');
    const client = clientFor(ctx);
    const secret =
      arg === undefined
        ? await client.secrets('GET', 'auth/token/lookup-self')
        : accessor
          ? await client.secrets('POST', 'auth/token/lookup-accessor', { body: { accessor: arg } })
          : await client.secrets('POST', 'auth/token/lookup', { body: { token: arg } });
    const { renderSecret } = await import('../../output/format.js');
    await renderSecret(ctx.io, secret ?? {}, { format: ctx.flags.format as OutputFormat, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
