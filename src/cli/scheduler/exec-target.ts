/**
 * Which allocation and task an exec-like command (`svc alloc exec`, `svc job action`) runs in: a random
 * running allocation of a job (Nomad's getRandomJobAlloc), and the task when the user named none (the
 * only candidate, a prompt on a terminal, else an error listing them, as Nomad's lookupAllocTask).
 */
import type { CommandContext } from '../define.js';
import type { ApiClient } from '../../api/client.js';
import type { AllocStub } from '../../api/allocs.js';
import { jobAllocations } from '../../api/jobs.js';
import { CommandFailure } from '../command-failure.js';
import { limit } from '../output/nomad.js';
import type { Spinner } from '../exec/spinner.js';

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
 * The task to run in when the user named none. A prompt only where one can be answered (stdin and
 * stdout are terminals); the spinner stops first so it does not draw over the question.
 */
export async function chooseTask(ctx: CommandContext, allocId: string, candidates: string[], spinner: Spinner): Promise<string> {
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) throw new CommandFailure(`Allocation "${limit(allocId, SHORT_ID)}" has no task to run in`);
  if (ctx.io.canPrompt) {
    spinner.stop();
    // Loaded here only: the prompt library is large, and only this interactive case needs it.
    const { select } = await import('@inquirer/prompts');
    try {
      return await select({ message: 'Which task?', choices: candidates.map((name) => ({ name, value: name })) }, { input: ctx.io.stdin, output: ctx.io.stderr });
    } catch (err) {
      // Ctrl-C or Ctrl-D at the prompt: nothing was chosen, which is not a crash.
      if ((err as Error)?.name === 'ExitPromptError') throw new CommandFailure('No task chosen');
      throw err;
    }
  }
  throw new CommandFailure(
    `Allocation "${limit(allocId, SHORT_ID)}" is running the following tasks:\n${candidates.map((t) => `  * ${t}`).join('\n')}\n\nPlease specify the task with -task.`,
  );
}
