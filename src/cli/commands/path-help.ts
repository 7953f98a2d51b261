import { defineCommand } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { sanitizePath } from '../kv-args.js';

interface HelpAnswer {
  help?: string;
  openapi?: unknown;
}

export default defineCommand({
  path: ['path-help'],
  synopsis: 'Print help for a path of the secrets API',
  usage: 'svc path-help [options] PATH',
  description:
    'Asks the server for the help of a secrets API path (GET /v1/PATH?help=1) and prints it: the route ' +
    'that matches, its parameters with their types and its description. The text comes from the same ' +
    'declaration that validates requests, so it always matches what the server accepts. With -format=json ' +
    'it prints the OpenAPI document for the path instead. Any valid token will do; no capability on the ' +
    'path is needed.',
  examples: [
    { command: 'svc path-help auth/token/create', description: 'Show the parameters of token creation' },
    { command: 'svc path-help -format=json sys/policies/acl/default', description: 'Print the OpenAPI document of a path' },
  ],
  exitCodes: { 0: 'the help was printed', 1: 'a usage error', 2: 'a server error, such as a path no backend serves' },
  family: 'secrets',
  flagSets: ['http'],
  flags: [
    {
      name: 'format',
      type: 'string',
      env: 'SVC_FORMAT',
      default: 'table',
      choices: ['table', 'json', 'yaml'],
      description: 'Print the help text (table) or the OpenAPI document for the path (json, yaml).',
      group: 'Output Options',
    },
  ],
  args: [{ name: 'path', description: 'A path of the secrets API, relative to /v1/, such as auth/token/create.', required: true, complete: 'secrets-path' }],
  async run(ctx) {
    const path = sanitizePath(ctx.args[0]);
    const answer = (await clientFor(ctx).secrets('GET', path, { query: { help: '1' } })) as HelpAnswer | undefined;
    const format = ctx.flags.format as string;
    if (format === 'json') {
      ctx.io.out(JSON.stringify(answer?.openapi ?? null, null, 2));
    } else if (format === 'yaml') {
      const { stringify } = await import('yaml');
      ctx.io.out(stringify(answer?.openapi ?? null));
    } else {
      ctx.io.out(answer?.help ?? '');
    }
    return 0;
  },
});
