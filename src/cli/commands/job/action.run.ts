/**
 * `svc job action`: run an action a job declares for one of its tasks (Nomad's `job action`), in a running
 * allocation, over the exec WebSocket. The command's declaration is in src/cli/commands/job/action.ts.
 *
 * Where Nomad requires -group and -task when no -alloc is given, the job's action list (GET
 * /v1/job/<id>/actions) answers them: the allocation is picked among the groups that declare the action,
 * and the task among the tasks of its group that do. An unknown action is refused before connecting,
 * with the list of the job's actions.
 */
import type { CommandContext } from '../../define.js';
import type { ApiClient } from '../../../api/http/client.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { getAlloc, type AllocStub } from '../../../api/allocs.js';
import { actionUrl, listJobActions, type JobAction } from '../../../api/exec.js';
import { formatTable } from '../../output/format.js';
import { resolveAlloc } from '../../resolve/alloc.js';
import { resolveJob } from '../../resolve/job.js';
import { chooseTask, randomRunningAlloc } from '../../exec/target.js';
import { streamOptions } from '../../exec/options.js';
import { startSpinner } from '../../spinner.js';
import { runStreamingSession } from '../../exec/command-session.js';

export function jobAction(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const action = ctx.args[0];
    const streams = streamOptions(ctx);
    const jobFlag = (ctx.flags.job as string | undefined) || undefined;
    const allocFlag = (ctx.flags.alloc as string | undefined) || undefined;
    const group = (ctx.flags.group as string | undefined) || undefined;
    const taskFlag = (ctx.flags.task as string | undefined) || undefined;
    if (!jobFlag && !allocFlag) throw new UsageError('A job ID is required: give -job, or -alloc');

    const client = clientFor(ctx);
    const spinner = startSpinner(ctx.io, `Starting action "${action}"`);
    try {
      const { jobId, namespace, stub: given } = await jobOf(ctx, client, jobFlag, allocFlag);
      const actions = await listJobActions(client, jobId, namespace);
      const declared = actions.filter((a) => a.Name === action);
      if (declared.length === 0) throw new CommandFailure(unknownAction(jobId, action, actions));
      const wanted = declared.filter((a) => (!group || a.TaskGroupName === group) && (!taskFlag || a.TaskName === taskFlag));
      if (wanted.length === 0) throw new CommandFailure(notDeclaredThere(action, jobId, group, taskFlag, declared));

      const stub = given ?? (await randomRunningAlloc(client, jobId, namespace, [...new Set(wanted.map((a) => a.TaskGroupName))]));
      const alloc = await getAlloc(client, stub.ID, stub.Namespace);
      const tasks = wanted.filter((a) => a.TaskGroupName === stub.TaskGroup).map((a) => a.TaskName);
      if (tasks.length === 0) throw new CommandFailure(`Action "${action}" is not declared in task group "${stub.TaskGroup}" of allocation "${stub.ID.slice(0, 8)}"`);
      const task = await chooseTask(ctx, alloc.ID, tasks, spinner);
      const url = actionUrl(client, jobId, action, { allocId: alloc.ID, group: stub.TaskGroup, task, tty: streams.tty, namespace: stub.Namespace });
      return await runStreamingSession(ctx, client, url, streams, spinner);
    } finally {
      spinner.stop();
    }
  });
}

/** The job: -job's, or -alloc's (which must then belong to -job when both are given). */
async function jobOf(ctx: CommandContext, client: ApiClient, jobFlag?: string, allocFlag?: string): Promise<{ jobId: string; namespace?: string; stub?: AllocStub }> {
  if (!allocFlag) {
    const job = await resolveJob(ctx, client, jobFlag!);
    return { jobId: job.ID, namespace: job.Namespace };
  }
  const stub = await resolveAlloc(client, allocFlag, ctx.flags.verbose === true);
  if (jobFlag && jobFlag !== stub.JobID) {
    const job = await resolveJob(ctx, client, jobFlag);
    if (job.ID !== stub.JobID) throw new CommandFailure(`Allocation "${stub.ID.slice(0, 8)}" belongs to job "${stub.JobID}", not "${job.ID}"`);
  }
  return { jobId: stub.JobID, namespace: stub.Namespace, stub };
}

function actionTable(actions: JobAction[]): string {
  return formatTable(['Action', 'Task Group', 'Task', 'Command'], actions.map((a) => [a.Name, a.TaskGroupName, a.TaskName, [a.Command, ...(a.Args ?? [])].join(' ')])).trimEnd();
}

function unknownAction(jobId: string, action: string, actions: JobAction[]): string {
  if (actions.length === 0) return `Job "${jobId}" declares no actions`;
  return `Job "${jobId}" has no action named "${action}"; its actions:\n\n${actionTable(actions)}`;
}

function notDeclaredThere(action: string, jobId: string, group: string | undefined, task: string | undefined, declared: JobAction[]): string {
  const where = [group && `task group "${group}"`, task && `task "${task}"`].filter(Boolean).join(', ');
  return `Action "${action}" of job "${jobId}" is not declared for ${where}; it is declared for:\n\n${actionTable(declared)}`;
}
