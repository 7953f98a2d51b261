import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'signal'],
  synopsis: 'Signal a running allocation',
  usage: 'svc alloc signal [options] ALLOC [TASK]',
  description:
    'Sends a signal to the tasks of an allocation (an ID or a unique ID prefix), or to one task when TASK or ' +
    '-task is given. Prints nothing on success.',
  examples: [{ command: 'svc alloc signal -s SIGHUP 9f2c7a11 web' }, { command: 'svc alloc signal 9f2c', description: 'SIGKILL to every task' }],
  exitCodes: { 0: 'the signal was sent', 1: 'an error, an unknown allocation or task, or a prefix matching several' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 's', type: 'string', default: 'SIGKILL', description: 'The signal to send, by name (SIGHUP, SIGUSR1, …).' },
    { name: 'task', type: 'string', description: 'Signal only this task (the same as the TASK argument).' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' },
    { name: 'task', description: 'Signal only this task.' },
  ],
  run: async (ctx) => (await import('./signal.run.js')).allocSignal(ctx),
});
