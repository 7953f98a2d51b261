import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../flags/from-fields.js';
import { UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';
import { TOKEN_RENEW_SELF_FIELDS } from '../../../secrets/token/fields.js';

export default defineCommand({
  path: ['token', 'renew'],
  synopsis: 'Renew a token lease',
  usage: 'svc token renew [options] [TOKEN | ACCESSOR]',
  description:
    'Renews a token: its TTL starts again from now, as the -increment asked for or else as long as its ' +
    'current TTL, never past its max TTL or explicit max TTL. A periodic token gets its period again. ' +
    'Without an argument the token in use is renewed (auth/token/renew-self, which the default policy ' +
    'allows); with -accessor the argument is an accessor.',
  examples: [
    { command: 'svc token renew', description: 'Renew the token in use' },
    { command: 'svc token renew -increment=30m svc.2ORv...', description: 'Renew a token for 30 minutes' },
    { command: 'svc token renew -accessor 8609694a...', description: 'Renew a token by its accessor' },
  ],
  exitCodes: { 0: 'the token was renewed', 1: 'a usage error', 2: 'a server error, such as a token that is not renewable' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [
    ...flagsFromFields(TOKEN_RENEW_SELF_FIELDS),
    { name: 'accessor', type: 'bool', description: 'Treat the argument as an accessor instead of a token.' },
  ],
  args: [{ name: 'token', description: 'The token, or with -accessor its accessor. Defaults to the token in use.' }],
  async run(ctx) {
    const accessor = ctx.flags.accessor === true;
    const arg = ctx.args[0];
    if (accessor && arg === undefined) throw new UsageError('Not enough arguments with -accessor (expected 1, got 0)');
    const body = toRequestData(TOKEN_RENEW_SELF_FIELDS, ctx.flags);
    const client = clientFor(ctx);
    const secret =
      arg === undefined
        ? await client.secrets('POST', 'auth/token/renew-self', { body })
        : accessor
          ? await client.secrets('POST', 'auth/token/renew-accessor', { body: { ...body, accessor: arg } })
          : await client.secrets('POST', 'auth/token/renew', { body: { ...body, token: arg } });
    const { renderSecret } = await import('../../output/format.js');
    await renderSecret(ctx.io, secret ?? {}, { format: ctx.flags.format as OutputFormat, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
