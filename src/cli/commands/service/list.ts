import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['service', 'list'],
  synopsis: 'List registered services',
  usage: 'svc service list [options]',
  description:
    'Lists the services registered in the namespace, each with every tag its registrations carry; ' +
    '-namespace=* lists every namespace the token can read, with a Namespace column.',
  examples: [
    { command: 'svc service list' },
    { command: 'svc service list -namespace "*"', description: 'The services of every namespace' },
    { command: 'svc service list -json', description: 'The services as JSON, per namespace' },
  ],
  exitCodes: { 0: 'success (also when no service is registered)', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  run: async (ctx) => (await import('./list.run.js')).serviceList(ctx),
});
