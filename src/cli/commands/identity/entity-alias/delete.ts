import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import type { OutputFormat } from '../../../output/format.js';

export default defineCommand({
  path: ['identity', 'entity-alias', 'delete'],
  synopsis: 'Delete an entity alias',
  usage: 'svc identity entity-alias delete [options] ID',
  description: 'Deletes the alias with the given ID. Its entity stays. Deleting an alias that does not exist is not an error.',
  examples: [{ command: 'svc identity entity-alias delete 5e1f9c3a-8d2b-4e7f-a6c1-9b0d3e2f1a44' }],
  exitCodes: { 0: 'the alias was deleted, or did not exist', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [{ name: 'id', description: 'The ID of the alias.', required: true, complete: 'entity-alias' }],
  async run(ctx) {
    const path = `identity/entity-alias/id/${encodeURIComponent(ctx.args[0])}`;
    await clientFor(ctx).secrets('DELETE', path);
    if ((ctx.flags.format as OutputFormat) === 'table') ctx.io.out(`Success! Data deleted (if it existed) at: ${path}`);
    return 0;
  },
});
