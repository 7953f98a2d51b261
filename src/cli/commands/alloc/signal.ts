import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { apiFailure, checkTask, resolveAlloc } from './resolve.js';

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
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const flagTask = (ctx.flags.task as string | undefined) ?? '';
      const argTask = ctx.args[1] ?? '';
      if (flagTask && argTask && flagTask !== argTask) throw new UsageError('Give the task either as -task or as the TASK argument, not both');
      const task = flagTask || argTask;
      let signal = String(ctx.flags.s ?? 'SIGKILL').trim().toUpperCase();
      if (signal === '') throw new UsageError('-s must name a signal');
      if (!signal.startsWith('SIG')) signal = `SIG${signal}`;
      const client = clientFor(ctx);
      const stub = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
      const { getAlloc, signalAlloc } = await import('../../../api/allocs.js');
      if (task) checkTask(await getAlloc(client, stub.ID, stub.Namespace), task);
      await signalAlloc(client, stub.ID, signal, task || undefined, stub.Namespace).catch((err: unknown) => apiFailure('signalling allocation', err));
      return 0;
    });
  },
});
