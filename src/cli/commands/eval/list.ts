import { defineCommand } from '../../define.js';

const STATUSES = ['blocked', 'pending', 'complete', 'failed', 'canceled'];

export default defineCommand({
  path: ['eval', 'list'],
  synopsis: 'List evaluations',
  usage: 'svc eval list [options]',
  description:
    'Lists the evaluations of the namespace, newest first within a page: -job and -status narrow the list, ' +
    '-filter takes an expression evaluated against each evaluation (e.g. \'Status == "blocked"\'), and ' +
    '-per-page with -page-token pages through it.',
  examples: [
    { command: 'svc eval list' },
    { command: 'svc eval list -job example -status complete' },
    { command: 'svc eval list -filter \'TriggeredBy == "job-register"\' -per-page 20' },
  ],
  exitCodes: { 0: 'success (also when no evaluation matches)', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'job', type: 'string', description: 'Only evaluations of this job ID.', complete: 'job' },
    { name: 'status', type: 'string', description: 'Only evaluations with this status.', choices: STATUSES },
    { name: 'filter', type: 'string', description: 'A filter expression evaluated against each evaluation.' },
    { name: 'per-page', type: 'int', description: 'How many evaluations to show per page.' },
    { name: 'page-token', type: 'string', description: 'Where the page starts: the token the previous page printed.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  run: async (ctx) => (await import('./list.run.js')).evalList(ctx),
});
