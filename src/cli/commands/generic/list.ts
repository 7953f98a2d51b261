import { defineCommand } from '../../define.js';
import { listAndPrint } from '../../secrets-output.js';
import { sanitizePath } from '../../kv-args.js';

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
  args: [{ name: 'path', description: 'The path to list, relative to /v1/.', required: true, complete: 'secrets-path' }],
  async run(ctx) {
    return listAndPrint(ctx, sanitizePath(ctx.args[0]));
  },
});
