/**
 * `svc alloc pause`: override a task's pause schedule, or read its state. The command's declaration is
 * in src/cli/commands/alloc/pause.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { apiFailure, checkTask, resolveAlloc } from '../../resolve/alloc.js';
import { getAlloc } from '../../../api/allocs.js';
import { getPauseState, setPauseState, type PauseInput } from '../../../api/alloc-pause.js';

export function allocPause(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const state = ctx.flags.state as PauseInput | undefined;
    const status = ctx.flags.status === true;
    if (state !== undefined && status) throw new UsageError('Give either -state or -status, not both');
    if (state === undefined && !status) throw new UsageError('Give -state pause|run|scheduled to override the schedule, or -status to read it');
    const flagTask = (ctx.flags.task as string | undefined) ?? '';
    const argTask = ctx.args[1] ?? '';
    if (flagTask && argTask && flagTask !== argTask) throw new UsageError('Give the task either as -task or as the TASK argument, not both');
    const task = flagTask || argTask;
    if (!task) throw new UsageError('A task is required: give it as the TASK argument or with -task');
    const client = clientFor(ctx);
    const stub = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
    checkTask(await getAlloc(client, stub.ID, stub.Namespace), task);
    if (status) {
      const current = await getPauseState(client, stub.ID, task, stub.Namespace).catch((err: unknown) => apiFailure('getting task pause state', err));
      ctx.io.out(`Pause state: ${JSON.stringify(current)}`);
      return 0;
    }
    await setPauseState(client, stub.ID, task, state!, stub.Namespace).catch((err: unknown) => apiFailure('setting pause state', err));
    return 0;
  });
}
