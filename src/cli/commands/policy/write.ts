import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { kvSources } from '../../kv-args.js';
import { UserError } from '../../../shared/errors.js';
import { readFailure } from '../../read-failure.js';

export default defineCommand({
  path: ['policy', 'write'],
  synopsis: 'Upload a policy from a file or stdin',
  usage: 'svc policy write [options] NAME PATH',
  description:
    'Uploads the policy document at PATH (HCL or JSON) under NAME, replacing any policy of that name. ' +
    'PATH "-" reads the document from stdin. The server parses the document before storing it, so a ' +
    'policy with an error is refused with the line that holds it and nothing changes. Names are ' +
    'case-insensitive. Uses sys/policies/acl/NAME, which needs the "update" capability.',
  examples: [
    { command: 'svc policy write ci-deploy examples/policies/ci-deploy.hcl', description: 'Upload a policy from a file' },
    { command: 'cat ops.hcl | svc policy write ops -', description: 'Upload a policy from stdin' },
  ],
  exitCodes: { 0: 'the policy was stored', 1: 'a usage error, or the file cannot be read', 2: 'a server error, such as a policy that does not parse' },
  family: 'secrets',
  flagSets: ['http'],
  args: [
    { name: 'name', description: 'The name of the policy.', required: true, complete: 'policy' },
    { name: 'path', description: 'The policy file, or - for stdin.', required: true, complete: 'file' },
  ],
  async run(ctx) {
    const name = ctx.args[0].trim().toLowerCase();
    const source = ctx.args[1];
    let policy: string;
    try {
      policy = source === '-' ? await kvSources(ctx.io.stdin).readStdin() : await kvSources(ctx.io.stdin).readFile(source);
    } catch (err) {
      throw new UserError(`cannot read the policy file "${source}": ${readFailure(err)}`);
    }
    await clientFor(ctx).secrets('PUT', `sys/policies/acl/${encodeURIComponent(name)}`, { body: { policy } });
    ctx.io.out(`Success! Uploaded policy: ${name}`);
    return 0;
  },
});
