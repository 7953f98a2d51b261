/**
 * `svc alloc restart`: restart an allocation's tasks in place. The command's declaration is in
 * src/cli/commands/alloc/restart.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { apiFailure, checkTask, resolveAlloc } from '../../resolve/alloc.js';
import { getAlloc, restartAlloc } from '../../../api/allocs.js';

export function allocRestart(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const flagTask = (ctx.flags.task as string | undefined) ?? '';
    const argTask = ctx.args[1] ?? '';
    if (flagTask && argTask && flagTask !== argTask) throw new UsageError('Give the task either as -task or as the TASK argument, not both');
    const task = flagTask || argTask;
    const allTasks = ctx.flags['all-tasks'] === true;
    if (task && allTasks) throw new UsageError('The -task and -all-tasks options are mutually exclusive');
    const client = clientFor(ctx);
    const stub = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
    if (task) checkTask(await getAlloc(client, stub.ID, stub.Namespace), task);
    await restartAlloc(client, stub.ID, { task: task || undefined, allTasks, namespace: stub.Namespace }).catch((err: unknown) => apiFailure('restarting allocation', err));
    return 0;
  });
}
