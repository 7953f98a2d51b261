import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['namespace', 'status'],
  synopsis: 'Display a namespace\'s status',
  usage: 'svc namespace status [options] NAME',
  description: 'Shows the namespace\'s name and description, and its metadata when it has any.',
  examples: [
    { command: 'svc namespace status default' },
    { command: 'svc namespace status -json web', description: 'Print the namespace as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error or an unknown namespace' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  args: [{ name: 'name', description: 'The namespace to show.', required: true, complete: 'namespace' }],
  run: async (ctx) => (await import('./status.run.js')).namespaceStatus(ctx),
});
