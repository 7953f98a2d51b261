import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { flagsFromFields, toRequestData } from '../../flags/from-fields.js';
import type { OutputFormat } from '../../output/format.js';
import { TOKEN_CREATE_FIELDS } from '../../../secrets/token/fields.js';

export default defineCommand({
  path: ['token', 'create'],
  synopsis: 'Create a new token',
  usage: 'svc token create [options]',
  description:
    'Creates a token with auth/token/create. The new token is a child of the token making the request: ' +
    'revoking the parent revokes it too, unless it is an orphan (-orphan, which needs root or sudo). ' +
    "Without -policy the token gets the caller's policies; with it, the policies must be a subset of the " +
    "caller's unless the caller has root or sudo. Unless -no-default-policy is given, the \"default\" policy " +
    'is added. Print only the token with -field=token.',
  examples: [
    { command: 'svc token create -policy=ci -ttl=1h', description: 'A token with the "ci" policy that expires in an hour' },
    { command: 'svc token create -use-limit=2 -field=token', description: 'A token good for two requests; print only the token' },
    { command: 'svc token create -period=24h -orphan', description: 'A periodic orphan token, renewed at least daily' },
  ],
  exitCodes: { 0: 'the token was created', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: flagsFromFields(TOKEN_CREATE_FIELDS),
  async run(ctx) {
    const body = toRequestData(TOKEN_CREATE_FIELDS, ctx.flags);
    const secret = await clientFor(ctx).secrets('POST', 'auth/token/create', { body });
    const { renderSecret } = await import('../../output/format.js');
    await renderSecret(ctx.io, secret ?? {}, { format: ctx.flags.format as OutputFormat, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
