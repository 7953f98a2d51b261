import { defineCommand } from '../../../define.js';
import { clientFor } from '../../../client-from-flags.js';
import { ApiError, UsageError } from '../../../../shared/errors.js';
import type { OutputFormat } from '../../../output/format.js';

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
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by list; use -format=json');
    const path = 'identity/entity-alias/id/';
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
