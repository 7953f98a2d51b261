import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'periodic', 'force'],
  synopsis: 'Launch an instance of a periodic job now',
  usage: 'svc job periodic force [options] JOB',
  description:
    'Launches a child of a periodic job (an ID or a unique ID prefix) now rather than at its next scheduled ' +
    'time, even while an earlier child still runs and the job prohibits overlap. Then follows the ' +
    'evaluation unless -detach.',
  examples: [{ command: 'svc job periodic force nightly-backup' }, { command: 'svc job periodic force -detach nightly-backup' }],
  exitCodes: { 0: 'success', 1: 'an error: not a periodic job, a stopped or disabled one, an unknown job', 2: 'some allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'job', description: 'A periodic job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./periodic-force.run.js')).jobPeriodicForce(ctx),
});
