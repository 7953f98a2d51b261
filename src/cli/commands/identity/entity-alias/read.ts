import { defineCommand } from '../../../define.js';
import { readAndPrint } from '../../../secrets-output.js';

export default defineCommand({
  path: ['identity', 'entity-alias', 'read'],
  synopsis: 'Print an entity alias',
  usage: 'svc identity entity-alias read [options] ID',
  description: 'Prints the alias with the given ID: its name, entity, mount, metadata and timestamps.',
  examples: [{ command: 'svc identity entity-alias read -format=json 5e1f9c3a-8d2b-4e7f-a6c1-9b0d3e2f1a44' }],
  exitCodes: { 0: 'the alias was printed', 1: 'a usage error', 2: 'a server error, or no such alias' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [{ name: 'id', description: 'The ID of the alias.', required: true, complete: 'entity-alias' }],
  async run(ctx) {
    const path = `identity/entity-alias/id/${encodeURIComponent(ctx.args[0])}`;
    return readAndPrint(ctx, path);
  },
});
