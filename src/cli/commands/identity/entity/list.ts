import { defineCommand } from '../../../define.js';
import { listAndPrint } from '../../../secrets-output.js';

export default defineCommand({
  path: ['identity', 'entity', 'list'],
  synopsis: 'List the entities',
  usage: 'svc identity entity list [options]',
  description:
    'Lists the IDs of all entities (LIST identity/entity/id), or their names with -by-name. When there ' +
    'are none it says "No value found" and exits 2, as the API answers 404.',
  examples: [{ command: 'svc identity entity list' }, { command: 'svc identity entity list -by-name -format=json' }],
  exitCodes: { 0: 'the entities were listed', 1: 'a usage error', 2: 'a server error, or no entities' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [{ name: 'by-name', type: 'bool', description: 'List the entity names instead of their IDs.' }],
  async run(ctx) {
    return listAndPrint(ctx, ctx.flags['by-name'] === true ? 'identity/entity/name/' : 'identity/entity/id/');
  },
});
