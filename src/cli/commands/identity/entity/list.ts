import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { ApiError, UsageError } from '../../../../shared/errors.js';
import type { OutputFormat } from '../../../output/format.js';

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
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by list; use -format=json');
    const path = ctx.flags['by-name'] === true ? 'identity/entity/name/' : 'identity/entity/id/';
    let secret;
    try {
      secret = await clientFor(ctx).secrets('LIST', path);
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 404) throw err;
    }
    const keys = secret?.data?.keys;
    if (!Array.isArray(keys)) {
      ctx.io.err(`No value found at ${path}`);
      return 2;
    }
    const { renderList } = await import('../../../output/format.js');
    await renderList(ctx.io, keys.map(String), { format: ctx.flags.format as OutputFormat });
    return 0;
  },
});
