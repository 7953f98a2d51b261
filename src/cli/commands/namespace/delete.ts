import { defineCommand } from '../../define.js';

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
  run: async (ctx) => (await import('./delete.run.js')).namespaceDelete(ctx),
});
