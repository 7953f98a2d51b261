import { writeArgsAndPrint } from '../../secrets-output.js';
import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['patch'],
  synopsis: 'Patch data at a path of the secrets API',
  usage: 'svc patch [options] PATH [K=V ...]',
  description:
    'Changes some fields of what is stored at the given path (relative to /v1/), keeping the others: an ' +
    'HTTP PATCH whose body is a JSON merge patch (application/merge-patch+json), as `vault patch` sends. ' +
    'K=V pairs are read as by `svc write` (@file, - for stdin, a bare - for the whole JSON body). Paths ' +
    'that take PATCH: sys/policies/acl/NAME, identity/entity/id/ID and identity/entity/name/NAME; others ' +
    'answer 405. Needs the "patch" capability on the path.',
  examples: [
    { command: 'svc patch identity/entity/name/build-agent policies=ci-deploy', description: "Change an entity's policies, keeping its metadata" },
  ],
  exitCodes: { 0: 'the data was patched', 1: 'a usage error', 2: 'a server error, such as 405 for a path that takes no PATCH' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [{ name: 'force', type: 'bool', aliases: ['f'], description: 'Allow the patch with no K=V pairs.' }],
  args: [
    { name: 'path', description: 'The path to patch, relative to /v1/.', required: true, complete: 'secrets-path' },
    { name: 'data', description: 'K=V pairs, @file, or - for a JSON body from stdin.', variadic: true },
  ],
  run: (ctx) => writeArgsAndPrint(ctx, 'PATCH'),
});
