import { defineCommand } from '../../../define.js';
import { listAndPrint } from '../../../secrets-output.js';

export default defineCommand({
  path: ['identity', 'entity-alias', 'list'],
  synopsis: 'List the entity aliases',
  usage: 'svc identity entity-alias list [options]',
  description:
    'Lists the IDs of all entity aliases (LIST identity/entity-alias/id). When there are none it says ' +
    '"No value found" and exits 2, as the API answers 404.',
  examples: [{ command: 'svc identity entity-alias list -format=json' }],
  exitCodes: { 0: 'the aliases were listed', 1: 'a usage error', 2: 'a server error, or no aliases' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  async run(ctx) {
    return listAndPrint(ctx, 'identity/entity-alias/id/');
  },
});
