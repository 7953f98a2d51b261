/**
 * `svc alloc signal`: signal an allocation's tasks. The command's declaration is in
 * src/cli/commands/alloc/signal.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { apiFailure, checkTask, resolveAlloc } from '../../resolve/alloc.js';
import { getAlloc, signalAlloc } from '../../../api/allocs.js';

export function allocSignal(ctx: CommandContext): Promise<number> {
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
    if (task) checkTask(await getAlloc(client, stub.ID, stub.Namespace), task);
    await signalAlloc(client, stub.ID, signal, task || undefined, stub.Namespace).catch((err: unknown) => apiFailure('signalling allocation', err));
    return 0;
  });
}
