import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'restart'],
  synopsis: 'Restart a running allocation',
  usage: 'svc alloc restart [options] ALLOC [TASK]',
  description:
    'Restarts the running tasks of an allocation (an ID or a unique ID prefix) in place, or one task when ' +
    'TASK or -task is given; -all-tasks restarts every task, including finished prestart and poststart ' +
    'tasks. Prints nothing on success.',
  examples: [{ command: 'svc alloc restart 9f2c7a11' }, { command: 'svc alloc restart 9f2c web', description: 'Only the task "web"' }],
  exitCodes: { 0: 'the tasks were restarted', 1: 'an error, an unknown allocation or task, or a prefix matching several' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'task', type: 'string', description: 'Restart only this task (the same as the TASK argument).' },
    { name: 'all-tasks', type: 'bool', description: 'Restart every task of the allocation, not only the running ones.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' },
    { name: 'task', description: 'Restart only this task.' },
  ],
  run: async (ctx) => (await import('./restart.run.js')).allocRestart(ctx),
});
