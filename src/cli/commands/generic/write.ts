import { writeArgsAndPrint } from '../../secrets-output.js';
import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['write'],
  synopsis: 'Write data to any path of the secrets API',
  usage: 'svc write [options] PATH [K=V ...]',
  description:
    'Writes data to the given path of the secrets API (relative to /v1/). K=V pairs become the JSON body; ' +
    'a repeated key becomes a list. A value of @file reads it from the file, - reads it from stdin; a bare ' +
    '- reads the whole JSON body from stdin. When the server answers with data it is printed, otherwise a ' +
    'success message is.',
  examples: [
    { command: 'svc write sys/policies/acl/my-policy policy=@my-policy.hcl', description: 'Write a policy from a file' },
    { command: 'svc write auth/token/create policies=dev policies=ops ttl=1h', description: 'Create a token with two policies' },
    { command: 'svc write sys/policies/acl/ro - < body.json', description: 'Send the JSON body from stdin' },
  ],
  exitCodes: { 0: 'the data was written', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [
    {
      name: 'force',
      type: 'bool',
      aliases: ['f'],
      description: 'Allow the write with no K=V pairs, for endpoints that need or expect no data.',
    },
  ],
  args: [
    { name: 'path', description: 'The path to write to, relative to /v1/.', required: true, complete: 'secrets-path' },
    { name: 'data', description: 'K=V pairs, @file, or - for a JSON body from stdin.', variadic: true },
  ],
  run: (ctx) => writeArgsAndPrint(ctx, 'PUT'),
});
