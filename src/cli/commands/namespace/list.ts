import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['namespace', 'list'],
  synopsis: 'List namespaces',
  usage: 'svc namespace list [options]',
  description: 'Lists the namespaces the token can access, with their descriptions.',
  examples: [
    { command: 'svc namespace list' },
    { command: 'svc namespace list -json', description: 'Print the namespaces as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  run: async (ctx) => (await import('./list.run.js')).namespaceList(ctx),
});
