import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'scaling-events'],
  synopsis: 'Display the scaling events of a job',
  usage: 'svc job scaling-events [options] JOB',
  description:
    'Lists the scaling requests a job (an ID or a unique ID prefix) received, newest first across its task ' +
    'groups: the count asked for (empty when a request only recorded an event) and the count before it. ' +
    'The server keeps the 20 newest events of each group.',
  examples: [{ command: 'svc job scaling-events example' }, { command: 'svc job scaling-events -verbose example', description: 'With errors, messages and evaluation IDs' }],
  exitCodes: { 0: 'success, also when there are no events', 1: 'an error, an unknown job, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [{ name: 'verbose', type: 'bool', description: 'Add each event\'s error flag, message and evaluation ID.' }],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./scaling-events.run.js')).jobScalingEvents(ctx),
});
