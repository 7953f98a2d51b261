/**
 * Which allocation and task an exec-like command (`svc alloc exec`, `svc job action`) runs in: a random
 * running allocation of a job (Nomad's getRandomJobAlloc), and the task when the user named none (the
 * only candidate, a prompt on a terminal, else an error listing them, as Nomad's lookupAllocTask).
 */
import type { CommandContext } from '../define.js';
import type { ApiClient } from '../../api/http/client.js';
import type { AllocStub } from '../../api/allocs.js';
import { jobAllocations } from '../../api/jobs.js';
import { CommandFailure } from '../command-failure.js';
import { limit } from '../output/nomad.js';
import type { Spinner } from '../spinner.js';
import { choose } from '../prompt.js';

/** IDs in messages are shortened as Nomad's shortId. */
const SHORT_ID = 8;

/**
 * A random running allocation of the job, within `groups` when given (-group, or the groups that declare
 * an action): spreading sessions over the allocations as Nomad does.
 */
export async function randomRunningAlloc(client: ApiClient, jobId: string, namespace: string | undefined, groups?: string[]): Promise<AllocStub> {
  let allocs = await jobAllocations(client, jobId, { namespace });
  if (allocs.length === 0) throw new CommandFailure(`job "${jobId}" doesn't exist or it has no allocations`);
  if (groups) {
    allocs = allocs.filter((a) => groups.includes(a.TaskGroup));
    if (allocs.length === 0) throw new CommandFailure(`task group ${groups.map((g) => `"${g}"`).join(' or ')} doesn't exist or it has no allocations`);
  }
  const running = allocs.filter((a) => a.ClientStatus === 'running');
  if (running.length === 0) throw new CommandFailure(`job "${jobId}" doesn't have any running allocations`);
  return running[Math.floor(Math.random() * running.length)];
}

/**
 * The task to run in when the user named none: asked for where a question can be answered (src/cli/prompt.ts),
 * after the spinner stops so that it does not draw over the question.
 */
export async function chooseTask(ctx: CommandContext, allocId: string, candidates: string[], spinner: Spinner): Promise<string> {
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) throw new CommandFailure(`Allocation "${limit(allocId, SHORT_ID)}" has no task to run in`);
  spinner.stop();
  return choose(
    ctx.io,
    'Which task?',
    candidates,
    new CommandFailure(`Allocation "${limit(allocId, SHORT_ID)}" is running the following tasks:\n${candidates.map((t) => `  * ${t}`).join('\n')}\n\nPlease specify the task with -task.`),
  );
}
