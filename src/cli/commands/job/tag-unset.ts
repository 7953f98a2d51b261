import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'tag', 'unset'],
  synopsis: 'Remove a tag from a job version',
  usage: 'svc job tag unset [options] JOB',
  description: 'Removes the tag -name from the version of a job (an ID or a unique ID prefix) that holds it; the version is then pruned like any other once it is old.',
  examples: [{ command: 'svc job tag unset -name golden example' }],
  exitCodes: { 0: 'success', 1: 'an error: no -name, an unknown job, or a tag the job does not have' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [{ name: 'name', type: 'string', description: 'The tag to remove (required).' }],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./tag-unset.run.js')).jobTagUnset(ctx),
});
