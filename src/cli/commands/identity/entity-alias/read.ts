import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { ApiError } from '../../../../shared/errors.js';
import type { OutputFormat } from '../../../output/format.js';

export default defineCommand({
  path: ['identity', 'entity-alias', 'read'],
  synopsis: 'Print an entity alias',
  usage: 'svc identity entity-alias read [options] ID',
  description: 'Prints the alias with the given ID: its name, entity, mount, metadata and timestamps.',
  examples: [{ command: 'svc identity entity-alias read -format=json 5e1f9c3a-8d2b-4e7f-a6c1-9b0d3e2f1a44' }],
  exitCodes: { 0: 'the alias was printed', 1: 'a usage error', 2: 'a server error, or no such alias' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [{ name: 'id', description: 'The ID of the alias.', required: true }],
  async run(ctx) {
    const path = `identity/entity-alias/id/${encodeURIComponent(ctx.args[0])}`;
    let secret;
    try {
      secret = await clientFor(ctx).secrets('GET', path);
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 404) throw err;
    }
    if (!secret) {
      ctx.io.err(`No value found at ${path}`);
      return 2;
    }
    const { renderSecret } = await import('../../../output/format.js');
    await renderSecret(ctx.io, secret, { format: ctx.flags.format as OutputFormat, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
