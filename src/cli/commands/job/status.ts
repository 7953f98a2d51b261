/**
 * `svc job status`: Nomad's job list, or one job's screen. What it does is in status.run.ts, loaded
 * with the other job commands' bodies (dist/cli-job-run.cjs) when one of them runs.
 */
import { defineCommand } from '../../define.js';

/** test/e2e/job-cli.test.ts imports it from here; esbuild leaves the unused name out of dist/main.cjs. */
export { formatNomadTime } from '../../output/nomad.js';

export default defineCommand({
  path: ['job', 'status'],
  synopsis: 'Display status information about a job',
  usage: 'svc job status [options] [JOB]',
  description:
    'Without a job, lists the jobs of the namespace (-namespace=* lists every namespace the token can see). ' +
    'With a job ID or a unique ID prefix, shows the job, the summary of its task groups, why placements ' +
    'failed while a blocked evaluation waits for capacity, delayed rescheduling, the latest deployment and ' +
    'the allocations (created and modified times are relative; -verbose shows them in full).',
  examples: [
    { command: 'svc job status', description: 'List the jobs' },
    { command: 'svc job status example' },
    { command: 'svc job status -evals example', description: 'Also list the job\'s evaluations' },
    { command: 'svc job status -json example', description: 'Print the job as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'short', type: 'bool', description: 'Print only the job\'s header, without the summary and allocations.' },
    { name: 'evals', type: 'bool', description: 'Also list the job\'s evaluations.' },
    { name: 'all-allocs', type: 'bool', description: 'Also list the allocations of earlier jobs registered under the same ID.' },
    { name: 'verbose', type: 'bool', description: 'Full IDs, absolute times, and the evaluations.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', complete: 'job' }],
  run: async (ctx) => (await import('./status.run.js')).jobStatus(ctx),
});
