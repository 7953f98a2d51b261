import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';

export default defineCommand({
  path: ['policy', 'delete'],
  synopsis: 'Delete a policy',
  usage: 'svc policy delete [options] NAME',
  description:
    'Deletes the named policy. Tokens that hold it keep the name but lose what it granted. Deleting a ' +
    'policy that does not exist succeeds; "root" and "default" cannot be deleted.',
  examples: [{ command: 'svc policy delete ci-deploy' }],
  exitCodes: { 0: 'the policy is gone', 1: 'a usage error', 2: 'a server error' },
  family: 'secrets',
  flagSets: ['http'],
  args: [{ name: 'name', description: 'The name of the policy.', required: true, complete: 'policy' }],
  async run(ctx) {
    const name = ctx.args[0].trim().toLowerCase();
    await clientFor(ctx).secrets('DELETE', `sys/policies/acl/${encodeURIComponent(name)}`);
    ctx.io.out(`Success! Deleted policy: ${name}`);
    return 0;
  },
});
