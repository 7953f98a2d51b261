import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';

export default defineCommand({
  path: ['policy', 'list'],
  synopsis: 'List the installed policies',
  usage: 'svc policy list [options]',
  description: 'Lists the names of every ACL policy, the built-in "default" and "root" included.',
  examples: [{ command: 'svc policy list' }, { command: 'svc policy list -format=json', description: 'Print the names as a JSON array' }],
  exitCodes: { 0: 'the names were listed', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  async run(ctx) {
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by policy list; use -format=json');
    const secret = await clientFor(ctx).secrets('LIST', 'sys/policies/acl');
    const keys = secret?.data?.keys;
    const { renderList } = await import('../../output/format.js');
    await renderList(ctx.io, Array.isArray(keys) ? keys.map(String) : [], { format: ctx.flags.format as OutputFormat });
    return 0;
  },
});
