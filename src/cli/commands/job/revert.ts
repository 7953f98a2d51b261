import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'revert'],
  synopsis: 'Revert a job to an earlier version',
  usage: 'svc job revert [options] JOB VERSION|TAG',
  description:
    'Registers an earlier version of a job (an ID or a unique ID prefix) again, as a new version with the ' +
    'old spec and its source. The version is a number from `svc job history`, or the name of a version ' +
    'tag (`svc job tag apply`). Then follows the evaluation, unless -detach.',
  examples: [{ command: 'svc job revert example 2' }, { command: 'svc job revert -detach example golden', description: 'The version tagged "golden"' }],
  exitCodes: { 0: 'success', 1: 'an error: unknown job, version or tag, or the current version', 2: 'some allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' },
    { name: 'version', description: 'The version number, or the name of a version tag.', required: true },
  ],
  run: async (ctx) => (await import('./revert.run.js')).jobRevert(ctx),
});
