import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['namespace', 'apply'],
  synopsis: 'Create or update a namespace',
  usage: 'svc namespace apply [options] NAME',
  description:
    'Creates the namespace, or updates it when it exists. Settings not given on the command line keep ' +
    'their current values. Needs a management token.',
  examples: [{ command: 'svc namespace apply -description="Web services" web' }],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [{ name: 'description', type: 'string', description: 'A human-readable description of the namespace.' }],
  args: [{ name: 'name', description: 'The namespace to create or update.', required: true, complete: 'namespace' }],
  run: async (ctx) => (await import('./apply.run.js')).namespaceApply(ctx),
});
