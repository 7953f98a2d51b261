import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { kvSources, parseKvArgs, sanitizePath, toQuery } from '../../kv-args.js';
import type { OutputFormat } from '../../output/format.js';

export default defineCommand({
  path: ['delete'],
  synopsis: 'Delete data at any path of the secrets API',
  usage: 'svc delete [options] PATH [K=V ...]',
  description:
    'Deletes the data at the given path of the secrets API (relative to /v1/). K=V pairs are sent as query ' +
    'parameters. Deleting something that does not exist is not an error.',
  examples: [{ command: 'svc delete sys/policies/acl/my-policy', description: 'Delete a policy' }],
  exitCodes: { 0: 'the data was deleted, or did not exist', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [
    { name: 'path', description: 'The path to delete, relative to /v1/.', required: true, complete: 'secrets-path' },
    { name: 'data', description: 'K=V pairs sent as query parameters.', variadic: true },
  ],
  async run(ctx) {
    const path = sanitizePath(ctx.args[0]);
    const data = await parseKvArgs(ctx.args.slice(1), kvSources(ctx.io.stdin));
    const secret = await clientFor(ctx).secrets('DELETE', path, { query: toQuery(data) });
    const format = ctx.flags.format as OutputFormat;
    if (!secret) {
      if (format === 'table') ctx.io.out(`Success! Data deleted (if it existed) at: ${path}`);
      return 0;
    }
    const { renderSecret } = await import('../../output/format.js');
    await renderSecret(ctx.io, secret, { format, field: ctx.flags.field as string | undefined });
    return 0;
  },
});
