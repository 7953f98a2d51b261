/**
 * `svc alloc exec`: run a command inside a running task, over a WebSocket (Nomad's `alloc exec`). The
 * command's declaration is in src/cli/commands/alloc/exec.ts; the session itself in src/cli/exec/.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { reportingFailures } from '../../command-failure.js';
import { getAlloc } from '../../../api/allocs.js';
import { execUrl } from '../../../api/exec.js';
import { groupTasks, resolveAlloc } from '../../resolve/alloc.js';
import { resolveJob } from '../../resolve/job.js';
import { chooseTask, randomRunningAlloc } from '../../exec/target.js';
import { streamOptions } from '../../exec/options.js';
import { startSpinner } from '../../spinner.js';
import { runStreamingSession } from '../../exec/command-session.js';

export function allocExec(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const streams = streamOptions(ctx);
    const [target, ...rest] = ctx.args;
    // Flags stop at ALLOC (stopAtFirstArg), so a `--` after it is still here: `ALLOC -- ls -l` runs `ls -l`.
    const command = rest[0] === '--' ? rest.slice(1) : rest;
    if (command.length === 0) throw new UsageError('A command is required');
    const byJob = ctx.flags.job === true;
    const group = (ctx.flags.group as string | undefined) || undefined;
    if (group && !byJob) throw new UsageError('-group is only valid with -job');

    const client = clientFor(ctx);
    const spinner = startSpinner(ctx.io, 'Connecting to the allocation');
    try {
      let stub;
      if (byJob) {
        const job = await resolveJob(ctx, client, target);
        stub = await randomRunningAlloc(client, job.ID, job.Namespace, group ? [group] : undefined);
      } else {
        stub = await resolveAlloc(client, target, ctx.flags.verbose === true);
      }
      const alloc = await getAlloc(client, stub.ID, stub.Namespace);
      // A -task is not checked here: the server knows the allocation's tasks and their states, and says
      // which is wrong (unknown, or not running).
      const task = (ctx.flags.task as string | undefined) || (await chooseTask(ctx, alloc.ID, groupTasks(alloc), spinner));
      const url = execUrl(client, { allocId: alloc.ID, task, tty: streams.tty, namespace: stub.Namespace }, command);
      return await runStreamingSession(ctx, client, url, streams, spinner);
    } finally {
      spinner.stop();
    }
  });
}
