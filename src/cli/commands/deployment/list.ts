import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['deployment', 'list'],
  synopsis: 'List deployments',
  usage: 'svc deployment list [options]',
  description:
    'Lists the deployments of the namespace (-namespace=* lists every namespace the token can see), newest ' +
    'first within a page: their job, the job version they roll out, their status and its description. ' +
    '-filter takes an expression evaluated against each deployment (e.g. \'Status == "failed"\'), and ' +
    '-per-page with -page-token pages through the list.',
  examples: [
    { command: 'svc deployment list' },
    { command: 'svc deployment list -filter \'JobID == "web"\'', description: 'Only the deployments of one job' },
    { command: 'svc deployment list -json', description: 'The deployments as a JSON array' },
  ],
  exitCodes: { 0: 'success (also when there are no deployments)', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'filter', type: 'string', description: 'A filter expression evaluated against each deployment.' },
    { name: 'per-page', type: 'int', description: 'How many deployments to show per page.' },
    { name: 'page-token', type: 'string', description: 'Where the page starts: the token the previous page printed.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  run: async (ctx) => (await import('./list.run.js')).deploymentList(ctx),
});
