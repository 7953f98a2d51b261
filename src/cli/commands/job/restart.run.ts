/**
 * `svc job restart`: restart a job's running allocations in batches, in place through the allocation
 * restart API or, with -reschedule, by stopping each one and waiting for its replacement to run, as
 * `nomad job restart` does (same lines, same questions). The command's declaration is in
 * src/cli/commands/job/restart.ts.
 */
import type { CommandContext } from '../../define.js';
import type { ApiClient } from '../../../api/http/client.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { parseGoDuration, formatGoDuration } from '../../../shared/duration.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { formatAllocMetrics, formatTime, idLength, limit } from '../../output/nomad.js';
import { resolveJob } from '../../resolve/job.js';
import { PromptInterrupted, askLine } from '../../prompt.js';
import { jobAllocations, jobEvaluations } from '../../../api/jobs.js';
import { jobDeployments } from '../../../api/deployments.js';
import { restartAlloc, stopAlloc, type AllocStub } from '../../../api/allocs.js';
import { describeApiError } from '../../failures/api.js';

const TERMINAL_DEPLOYMENT = new Set(['failed', 'successful', 'cancelled']);
/** How long each look at a replacement allocation blocks on the server before placements are checked again. */
const REPLACEMENT_WAIT = '5s';

interface Options {
  client: ApiClient;
  ctx: CommandContext;
  jobId: string;
  namespace: string;
  length: number;
  allTasks: boolean;
  reschedule: boolean;
  verbose: boolean;
  groups: Set<string>;
  tasks: Set<string>;
}

/** An error that asking again will not cure: the restart stops under -yes, and the question says so. */
class UnrecoverableError extends Error {}

const now = () => formatTime(new Date());
const header = (o: Options, text: string) => o.ctx.io.out(`==> ${now()}: ${text}`);
const line = (o: Options, text: string) => o.ctx.io.out(`    ${now()}: ${text}`);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

function recoverable(err: unknown): boolean {
  return !(err instanceof UnrecoverableError) && !(err instanceof ApiError && err.statusCode === 403);
}

function parseBatchSize(text: string): { size: number; percent: boolean } {
  const m = /^(\d+)%?$/.exec(text);
  if (!m) throw new UsageError(`Invalid -batch-size value "${text}": batch size must be an integer or a percentage`);
  const size = Number(m[1]);
  if (size === 0) throw new UsageError(`Invalid -batch-size value "${text}": number value must be greater than zero`);
  return { size, percent: text.endsWith('%') };
}

function hasTask(stub: AllocStub, task: string): boolean {
  return Object.hasOwn(stub.TaskStates ?? {}, task);
}

/** Running allocations of the requested groups and tasks; the others are named under -verbose. */
function eligible(o: Options, stubs: AllocStub[]): AllocStub[] {
  return stubs.filter((s) => {
    const id = limit(s.ID, o.length);
    let skip = '';
    if (s.ClientStatus !== 'running' && s.DesiredStatus !== 'run') skip = `because desired status is "${s.DesiredStatus}" and client status is "${s.ClientStatus}"`;
    else if (o.groups.size > 0 && !o.groups.has(s.TaskGroup)) skip = "because it doesn't have any of requested groups";
    else if (o.tasks.size > 0 && ![...o.tasks].some((t) => hasTask(s, t))) skip = "because it doesn't have any of requested tasks";
    if (skip && o.verbose) line(o, `Skipping allocation "${id}" ${skip}`);
    return skip === '';
  });
}

async function ensureNoActiveDeployment(o: Options): Promise<void> {
  let deployments;
  try {
    deployments = (await jobDeployments(o.client, o.jobId, { all: true, namespace: o.namespace })).deployments;
  } catch (err) {
    throw new Error(`Error retrieving deployments for job "${o.jobId}": ${describeApiError(err)}`);
  }
  const active = deployments.find((d) => !TERMINAL_DEPLOYMENT.has(d.Status));
  if (active) throw new Error(`Deployment "${limit(active.ID, o.length)}" is "${active.Status}"`);
}

async function restartInPlace(o: Options, stub: AllocStub): Promise<void> {
  const id = limit(stub.ID, o.length);
  if (o.allTasks || o.tasks.size === 0) {
    line(o, `Restarting ${o.allTasks ? 'all' : 'running'} tasks in allocation "${id}" for group "${stub.TaskGroup}"`);
    await restartAlloc(o.client, stub.ID, { allTasks: o.allTasks, namespace: o.namespace }).catch((err: unknown) => {
      throw new Error(describeApiError(err));
    });
    return;
  }
  const failures: string[] = [];
  await Promise.all(
    [...o.tasks].filter((t) => hasTask(stub, t)).map(async (task) => {
      line(o, `Restarting task "${task}" in allocation "${id}" for group "${stub.TaskGroup}"`);
      await restartAlloc(o.client, stub.ID, { task, namespace: o.namespace }).catch((err: unknown) => failures.push(`Failed to restart task "${task}": ${describeApiError(err)}`));
    }),
  );
  if (failures.length > 0) throw new Error(failures.join('\n'));
}

/** A blocked evaluation of the job, created since `since`, that could not place the group. */
async function placementFailure(o: Options, group: string, since: number): Promise<UnrecoverableError | undefined> {
  const evals = await jobEvaluations(o.client, o.jobId, o.namespace);
  const failed = evals.find((e) => e.CreateIndex >= since && e.Status === 'blocked' && e.FailedTGAllocs?.[group]);
  if (!failed) return undefined;
  const metrics = failed.FailedTGAllocs![group];
  return new UnrecoverableError(`Evaluation "${limit(failed.ID, o.length)}" has placement failures for group "${group}":\n${formatAllocMetrics(metrics, false, '    ')}`);
}

/** The allocation that replaced `current`: the server links a stopped allocation to its replacement in NextAllocation. */
function replacementOf(current: AllocStub, allocs: AllocStub[]): AllocStub | undefined {
  return current.NextAllocation ? allocs.find((a) => a.ID === current.NextAllocation) : undefined;
}

/** Stops the allocation, then follows its replacements until one runs (or its group cannot be placed). */
async function reschedule(o: Options, stub: AllocStub): Promise<void> {
  line(o, `Rescheduling allocation "${limit(stub.ID, o.length)}" for group "${stub.TaskGroup}"`);
  let stopIndex: number;
  try {
    stopIndex = (await stopAlloc(o.client, stub.ID, { namespace: o.namespace })).Index;
  } catch (err) {
    throw new Error(`Failed to stop allocation: ${describeApiError(err)}`);
  }
  let current = stub;
  let index = 1;
  for (;;) {
    const failure = await placementFailure(o, stub.TaskGroup, stopIndex);
    if (failure) throw failure;
    let answer;
    try {
      answer = await o.client.scheduler<AllocStub[]>('GET', `/v1/job/${encodeURIComponent(o.jobId)}/allocations`, { query: { namespace: o.namespace, all: true, index, wait: REPLACEMENT_WAIT } });
    } catch (err) {
      throw new Error(`Failed to retrieve allocation "${limit(current.ID, o.length)}": ${describeApiError(err)}`);
    }
    const allocs = answer.body ?? [];
    current = allocs.find((a) => a.ID === current.ID) ?? current;
    const next = current.ClientStatus === 'running' && current.ID !== stub.ID ? undefined : replacementOf(current, allocs);
    if (next) {
      const nextId = limit(next.ID, o.length);
      line(o, `Allocation "${limit(current.ID, o.length)}" replaced by "${nextId}", waiting for "${nextId}" to start running`);
      current = next;
      index = 1;
      continue;
    }
    if (current.ClientStatus === 'running' && current.ID !== stub.ID) {
      line(o, `Allocation "${limit(current.ID, o.length)}" is "running"`);
      return;
    }
    if (o.verbose) line(o, `Allocation "${limit(current.ID, o.length)}" is "${current.ClientStatus}"`);
    index = answer.index;
  }
}

async function handleAlloc(o: Options, stub: AllocStub): Promise<void> {
  try {
    await (o.reschedule ? reschedule(o, stub) : restartInPlace(o, stub));
  } catch (err) {
    const wrapped = `Error restarting allocation "${limit(stub.ID, o.length)}": ${(err as Error).message}`;
    throw recoverable(err) ? new Error(wrapped) : new UnrecoverableError(wrapped);
  }
}

function errorList(errors: Error[]): string {
  return `${plural(errors.length, 'error', 'errors')} occurred while restarting job:\n${errors.map((e) => `* ${e.message.trim()}`).join('\n')}`;
}

export function jobRestart(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const batch = parseBatchSize(String(ctx.flags['batch-size'] ?? '1'));
    const autoYes = ctx.flags.yes === true;
    const interactive = ctx.io.canPrompt;
    const waitText = String(ctx.flags['batch-wait'] ?? '0s');
    let waitAsk = waitText.toLowerCase() === 'ask';
    let waitNs = 0;
    if (waitAsk) {
      if (!interactive && !autoYes) throw new UsageError('Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive: pass a duration such as 30s, or -yes');
    } else {
      const parsed = parseGoDuration(waitText);
      if (parsed === undefined || parsed < 0) throw new UsageError(`Invalid -batch-wait value "${waitText}": a duration such as 10s or 1m30s, or "ask"`);
      waitNs = parsed;
    }
    const onError = String(ctx.flags['on-error'] ?? 'ask');
    if (onError === 'ask' && !interactive && !autoYes) throw new UsageError('Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive: pass -on-error=fail, or -yes');
    const tasks = new Set((ctx.flags.task as string[] | undefined) ?? []);
    if (ctx.flags['all-tasks'] === true && tasks.size > 0) throw new UsageError('The -all-tasks option cannot be used with -task');
    if (ctx.flags.reschedule === true && tasks.size > 0) throw new UsageError('The -reschedule option cannot be used with -task');

    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0].trim());
    const o: Options = {
      client,
      ctx,
      jobId: job.ID,
      namespace: job.Namespace,
      length: idLength(ctx.flags.verbose),
      allTasks: ctx.flags['all-tasks'] === true,
      reschedule: ctx.flags.reschedule === true,
      verbose: ctx.flags.verbose === true,
      groups: new Set((ctx.flags.group as string[] | undefined) ?? []),
      tasks,
    };
    let stubs: AllocStub[];
    try {
      stubs = await jobAllocations(client, job.ID, { all: true, namespace: job.Namespace });
    } catch (err) {
      throw new CommandFailure(`Error retrieving allocations for job "${job.ID}": ${describeApiError(err)}`);
    }
    const allocs = eligible(o, [...stubs].sort((a, b) => a.CreateIndex - b.CreateIndex));
    if (allocs.length === 0) {
      ctx.io.out('No allocations to restart');
      return 0;
    }
    const size = batch.percent ? Math.ceil((allocs.length * batch.size) / 100) : batch.size;
    header(o, `Restarting ${plural(allocs.length, 'allocation', 'allocations')}`);

    const errors: Error[] = [];
    let canceled = false;
    for (let start = 0; start < allocs.length; start += size) {
      const members = allocs.slice(start, start + size);
      try {
        await ensureNoActiveDeployment(o);
      } catch (err) {
        errors.push(err as Error);
        break;
      }
      if (size > 1) header(o, `Restarting ${ordinal(start / size + 1)} batch of ${members.length} allocations`);
      const settled = await Promise.allSettled(members.map((s) => handleAlloc(o, s)));
      const batchErrors = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
      errors.push(...batchErrors);
      if (start + size >= allocs.length) break;

      const failed = batchErrors.length > 0;
      if (failed && onError === 'fail') {
        header(o, 'Stopping job restart due to error');
        break;
      }
      if (failed && autoYes && !batchErrors.every(recoverable)) {
        header(o, 'Stopping job restart due to unrecoverable error');
        break;
      }
      if (!autoYes && (waitAsk || (onError === 'ask' && failed))) {
        if (failed) ctx.io.err(`==> ${now()}: ${errorList(batchErrors)}`);
        const decision = await shouldProceed(o, failed, batchErrors.every(recoverable), waitAsk);
        if (decision === false) {
          header(o, 'Job restart canceled');
          canceled = true;
          break;
        }
        if (typeof decision === 'number') {
          waitAsk = false;
          waitNs = decision;
          header(o, `Proceeding restarts with new wait time of ${formatGoDuration(waitNs)}`);
        }
      }
      if (waitNs > 0) {
        header(o, `Waiting ${formatGoDuration(waitNs)} before restarting the next batch`);
        await new Promise((resolve) => setTimeout(resolve, waitNs / 1e6));
      }
    }

    if (errors.length > 0) {
      if (!canceled) header(o, 'Job restart finished with errors');
      ctx.io.err(`\n${errorList(errors)}`);
      return 1;
    }
    if (!canceled) {
      header(o, 'Job restart finished');
      ctx.io.out('\nJob restarted successfully!');
    }
    return 0;
  });
}

/**
 * Asks whether to go on with the next batch: true or false, or (when -batch-wait is "ask") a new wait
 * in nanoseconds, which also means yes. Asked again until the answer is one of those; Ctrl-C is no.
 */
async function shouldProceed(o: Options, failed: boolean, recoverableErrors: boolean, waitAsk: boolean): Promise<boolean | number> {
  let question = failed
    ? recoverableErrors
      ? 'Ignore the errors above and proceed with the next batch?'
      : 'The errors above are likely to happen again.\nIgnore them anyway and proceed with the next batch?'
    : 'Proceed with the next batch?';
  question += ` [${failed ? 'y/N' : 'Y/n'}${waitAsk ? '/<wait duration>' : ''}]`;
  const meaning = (typed: string): boolean | number | undefined => {
    const answer = typed.trim().toLowerCase();
    if (answer === '') return !failed;
    if (answer === 'y' || answer === 'yes') return true;
    if (answer === 'n' || answer === 'no') return false;
    const wait = waitAsk ? parseGoDuration(answer) : undefined;
    return wait !== undefined && wait >= 0 ? wait : undefined;
  };
  try {
    const answer = await askLine(o.ctx.io, question, {
      validate: (typed) => meaning(typed) !== undefined || `Invalid answer "${typed.trim()}"`,
      // Not reached: the flags were checked for a terminal before the first batch.
      unanswerable: new UsageError('the restart needs an answer: pass -yes'),
    });
    return meaning(answer)!;
  } catch (err) {
    if (err instanceof PromptInterrupted) return false;
    throw err;
  }
}
