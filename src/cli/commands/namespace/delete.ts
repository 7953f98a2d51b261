import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';

export default defineCommand({
  path: ['namespace', 'delete'],
  synopsis: 'Delete a namespace',
  usage: 'svc namespace delete [options] NAME',
  description: 'Deletes the namespace. The "default" namespace cannot be deleted. Needs a management token.',
  examples: [{ command: 'svc namespace delete web' }],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http'],
  args: [{ name: 'name', description: 'The namespace to delete.', required: true, complete: 'namespace' }],
  async run(ctx) {
    const name = ctx.args[0];
    await clientFor(ctx).scheduler('DELETE', `/v1/namespace/${encodeURIComponent(name)}`);
    ctx.io.out(`Successfully deleted namespace ${JSON.stringify(name)}!`);
    return 0;
  },
});
