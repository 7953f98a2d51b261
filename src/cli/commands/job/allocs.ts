import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'allocs'],
  synopsis: 'List the allocations of a job',
  usage: 'svc job allocs [options] JOB',
  description:
    'Lists the allocations of a job (an ID or a unique ID prefix), newest first, with the columns of ' +
    '`svc job status`. -all also lists the allocations of earlier jobs registered under the same ID.',
  examples: [{ command: 'svc job allocs example' }, { command: 'svc job allocs -json example', description: 'The allocation stubs as JSON' }],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'all', type: 'bool', description: 'Include the allocations of earlier jobs registered under the same ID.' },
    { name: 'verbose', type: 'bool', description: 'Full IDs, the evaluation and node name, and absolute times.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./allocs.run.js')).jobAllocs(ctx),
});
