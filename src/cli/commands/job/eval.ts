import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'eval'],
  synopsis: 'Force an evaluation of a job',
  usage: 'svc job eval [options] JOB',
  description:
    'Creates a new evaluation of a job (an ID or a unique ID prefix), so the scheduler looks at it again: ' +
    'for example after nodes were added, or with -force-reschedule to replace failed allocations now ' +
    'rather than after their reschedule delay. Then follows the evaluation, unless -detach.',
  examples: [{ command: 'svc job eval example' }, { command: 'svc job eval -force-reschedule -detach example' }],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job, or a prefix matching several jobs', 2: 'some allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'force-reschedule', type: 'bool', description: 'Reschedule failed allocations now, even those whose reschedule delay has not passed.' },
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./eval.run.js')).jobEval(ctx),
});
