import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'scale'],
  synopsis: 'Change the count of a job\'s task group',
  usage: 'svc job scale [options] JOB [GROUP] COUNT',
  description:
    'Sets the count of one task group of a job (an ID or a unique ID prefix); the group may be left out ' +
    'when the job has only one. A new count makes a new job version and an evaluation, which is followed ' +
    'unless -detach; the same count only records a scaling event. The server refuses while a deployment ' +
    'of the job is running, and keeps the count within the group\'s scaling block. `svc job scaling-events` ' +
    'lists what was asked and when.',
  examples: [
    { command: 'svc job scale example 3', description: 'A job with one group' },
    { command: 'svc job scale example cache 5' },
    { command: 'svc job scale -check-index 12 -detach example cache 0', description: 'Only if nobody changed the job since index 12' },
  ],
  exitCodes: {
    0: 'the count was set (and its evaluation placed everything)',
    1: 'an error: unknown job or group, a running deployment, a count outside the scaling policy, a check-index conflict',
    2: 'some allocations could not be placed',
  },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'check-index', type: 'string', description: 'Scale only if the job\'s modify index is this number.' },
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' },
    { name: 'group', description: 'The task group to scale; may be left out when the job has only one.' },
    { name: 'count', description: 'The new count.', required: true },
  ],
  run: async (ctx) => (await import('./scale.run.js')).jobScale(ctx),
});
