import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { sanitizePath } from '../../kv-args.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';

export default defineCommand({
  path: ['list'],
  synopsis: 'List the keys under any path of the secrets API',
  usage: 'svc list [options] PATH',
  description:
    'Lists the keys under the given path of the secrets API (relative to /v1/), with the LIST method. ' +
    'An empty or missing listing is reported as "No value found" with exit code 2, as the API answers 404.',
  examples: [
    { command: 'svc list sys/policies/acl', description: 'List the ACL policies' },
    { command: 'svc list -format=json auth/token/accessors', description: 'List token accessors as a JSON array' },
  ],
  exitCodes: { 0: 'keys were listed', 1: 'a usage error', 2: 'a server error, or nothing at the path' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [{ name: 'path', description: 'The path to list, relative to /v1/.', required: true }],
  async run(ctx) {
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by list; use -format=json');
    const path = sanitizePath(ctx.args[0]);
    let secret;
    try {
      secret = await clientFor(ctx).secrets('LIST', `${path}/`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 404) throw err;
    }
    if (!secret) {
      ctx.io.err(`No value found at ${path}/`);
      return 2;
    }
    const keys = secret.data?.keys;
    if (!Array.isArray(keys)) {
      ctx.io.err(`No entries found at ${path}/`);
      return 2;
    }
    const { renderList } = await import('../../output/format.js');
    await renderList(ctx.io, keys.map(String), { format: ctx.flags.format as OutputFormat });
    return 0;
  },
});
