import { defineCommand } from '../../define.js';
import { PROMOTE_FLAGS } from '../deployment/promote.js';

export default defineCommand({
  path: ['job', 'promote'],
  synopsis: 'Promote a job\'s canaries',
  usage: 'svc job promote [options] JOB',
  description:
    'Promotes the canaries of the job\'s latest deployment, of every task group or of those named by -group, ' +
    'once they are healthy: the rest of the old allocations are then replaced, max_parallel at a time. The ' +
    'command follows the evaluation and the deployment unless -detach is given.',
  examples: [{ command: 'svc job promote example' }, { command: 'svc job promote -group web example' }],
  exitCodes: { 0: 'the canaries were promoted (and the deployment monitored)', 1: 'an error: an unknown job, no deployment, or canaries not ready' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: PROMOTE_FLAGS,
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./promote.run.js')).jobPromote(ctx),
});
