import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'action'],
  synopsis: 'Run a pre-defined action from a job\'s task',
  usage: 'svc job action [options] ACTION',
  description:
    'Runs an action a task of the job declares, in -alloc or a random running allocation of -job, and exits ' +
    'with its exit code. The job\'s action list picks the group and task when only one declares the action. ' +
    '-i, -t and -e work as for `svc alloc exec`.',
  examples: [{ command: 'svc job action -job example weather' }, { command: 'svc job action -alloc 9f2c -task redis flush' }],
  exitCodes: { 0: 'the action exited 0 (other exit codes are the action\'s own)', 1: 'an error, or the action exited 1' },
  family: 'scheduler',
  flagSets: ['http', 'prompt'],
  flags: [
    { name: 'job', type: 'string', description: 'The job; required without -alloc.', complete: 'job' },
    { name: 'alloc', type: 'string', description: 'The allocation (ID or prefix) to run in.', complete: 'alloc' },
    { name: 'group', type: 'string', description: 'Only allocations of this task group.' },
    { name: 'task', type: 'string', description: 'The task whose action to run.' },
    { name: 'i', type: 'bool', default: true, description: 'Pass stdin to the action.' },
    { name: 't', type: 'bool', description: 'Allocate a terminal; the default when stdin and stdout are terminals.' },
    { name: 'e', type: 'string', default: '~', description: 'The escape character, or "none" (see svc alloc exec).' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'action', description: 'The action\'s name.', required: true }],
  run: async (ctx) => (await import('./action.run.js')).jobAction(ctx),
});
