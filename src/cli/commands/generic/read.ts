import { defineCommand } from '../../define.js';
import { readAndPrint } from '../../secrets-output.js';
import { kvSources, parseKvArgs, sanitizePath, toQuery } from '../../kv-args.js';

export default defineCommand({
  path: ['read'],
  synopsis: 'Read data from any path of the secrets API',
  usage: 'svc read [options] PATH [K=V ...]',
  description:
    'Reads data from the given path of the secrets API (relative to /v1/) and prints it. K=V pairs are ' +
    'sent as query parameters; a value of @file reads it from the file and - from stdin. This is the ' +
    'low-level command behind the specialised ones: anything the API serves can be read with it.',
  examples: [
    { command: 'svc read sys/policies/acl/my-policy', description: 'Read a policy' },
    { command: 'svc read -field=policy sys/policies/acl/my-policy', description: 'Print only the policy text' },
    { command: 'svc read -format=json auth/token/lookup-self', description: 'Print the whole response as JSON' },
  ],
  exitCodes: { 0: 'the data was read', 1: 'a usage error', 2: 'a server error, or no value at the path' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [
    { name: 'path', description: 'The path to read, relative to /v1/.', required: true, complete: 'secrets-path' },
    { name: 'data', description: 'K=V pairs sent as query parameters.', variadic: true },
  ],
  async run(ctx) {
    const path = sanitizePath(ctx.args[0]);
    const data = await parseKvArgs(ctx.args.slice(1), kvSources(ctx.io.stdin));
    return readAndPrint(ctx, path, toQuery(data));
  },
});
