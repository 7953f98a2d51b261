/**
 * One job's screen in `svc job status JOB`: header, summary, evaluations, placement failures,
 * rescheduling, latest deployment, actions, allocations.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { formatTable } from '../../output/format.js';
import type { ApiClient } from '../../../api/http/client.js';
import {
  allocListTable,
  evalFailureStatus,
  formatAllocMetrics,
  formatKV,
  formatNomadTime,
  idLength,
  limit,
  newestFirst,
  parseWireTime,
  prettyTimeDiff,
  quote,
  sortedKeys,
} from '../../output/nomad.js';
import { ApiError } from '../../../shared/errors.js';
import { latestDeploymentSection } from '../../output/deployment.js';
import { jobAllocations, jobEvaluations, jobSummary } from '../../../api/jobs.js';
import { jobLatestDeployment, type Deployment } from '../../../api/deployments.js';
import { getEval, type Evaluation } from '../../../api/evals.js';
import type { AllocStub } from '../../../api/allocs.js';
import type { PeriodicConfig } from '../../../scheduler/structs/policies.js';
import { listJobs, statusString, type JobListStub } from '../../resolve/job.js';
import { nextLaunchText } from './periodic-launch.js';

export interface FullJob {
  ID: string;
  Name: string;
  Namespace: string;
  Type: string;
  Priority: number;
  Datacenters: string[] | null;
  NodePool: string;
  Status: string;
  Stop: boolean;
  SubmitTime: number;
  Periodic: unknown;
  ParameterizedJob: { Payload?: string; MetaRequired?: string[] | null; MetaOptional?: string[] | null } | null;
  Dispatched?: boolean;
  TaskGroups?: Array<{ Name: string; Tasks: Array<{ Name: string; Actions?: Array<{ Name: string }> | null }> }> | null;
}

type SummaryLike = Pick<JobListStub['JobSummary'], 'Summary' | 'Children'>;

function summarySection(summary: SummaryLike | null | undefined, job: FullJob): string {
  const periodic = job.Periodic !== null && job.Periodic !== undefined;
  const parameterized = job.ParameterizedJob !== null && job.ParameterizedJob !== undefined && job.Dispatched !== true;
  let out = '';
  if (!periodic && !parameterized) {
    const groups = sortedKeys(summary?.Summary);
    const rows = groups.map((g) => {
      const s = summary!.Summary[g];
      return [g, s.Queued, s.Starting, s.Running, s.Failed, s.Complete, s.Lost, s.Unknown].map(String);
    });
    out += '\nSummary\n' + formatTable(['Task Group', 'Queued', 'Starting', 'Running', 'Failed', 'Complete', 'Lost', 'Unknown'], rows);
  }
  const children = summary?.Children;
  // Nomad always shows the children of periodic and parameterized parents, and of others only when any exist.
  if (children && (periodic || parameterized || children.Pending + children.Running + children.Dead > 0)) {
    out += `\n${parameterized ? 'Parameterized Job Summary' : 'Children Job Summary'}\n`;
    out += formatTable(['Pending', 'Running', 'Dead'], [[String(children.Pending), String(children.Running), String(children.Dead)]]);
  }
  return out;
}

async function childrenSection(client: ApiClient, job: FullJob, suffix: string, none: string, title: string): Promise<string> {
  const children = (await listJobs(client, job.ID + suffix)).filter((c) => c.ParentID === job.ID);
  if (children.length === 0) return `\n${none}\n`;
  return `\n${title}\n` + formatTable(['ID', 'Status'], children.map((c) => [c.ID, c.Status]));
}

/** Nomad shows the placement failures of at most this many task groups. */
const MAX_FAILED_GROUPS = 5;

/** `Placement Failure`: the latest evaluation with failures, while a blocked evaluation waits. */
export function placementFailureSection(evals: Evaluation[]): string {
  const blocked = evals.some((e) => e.Status === 'blocked');
  let latest: Evaluation | undefined;
  for (const e of evals) {
    if (Object.keys(e.FailedTGAllocs ?? {}).length === 0) continue;
    if (!latest || latest.CreateIndex < e.CreateIndex) latest = e;
  }
  if (!blocked || !latest) return '';
  const failed = latest.FailedTGAllocs!;
  const groups = sortedKeys(failed);
  const parts = groups.slice(0, MAX_FAILED_GROUPS).map((g) => `Task Group ${quote(g)}:\n${formatAllocMetrics(failed[g], false, '  ')}`);
  let out = `\nPlacement Failure\n${parts.join('\n\n')}\n`;
  if (groups.length > MAX_FAILED_GROUPS) out += `\nPlacement failures truncated. To see remainder run:\nsvc eval status ${latest.ID}\n`;
  return out;
}

/** `Evaluations` (-evals or -verbose). */
export function evaluationsSection(evals: Evaluation[], length: number): string {
  const rows = evals.map((e) => [limit(e.ID, length), String(e.Priority), e.TriggeredBy, e.Status, evalFailureStatus(e).text]);
  return '\nEvaluations\n' + formatTable(['ID', 'Priority', 'Triggered By', 'Status', 'Placement Failures'], rows);
}

/** `Future Rescheduling Attempts`: the delayed follow-up evaluation of each group's latest allocation. */
async function reschedulingSection(client: ApiClient, allocs: AllocStub[], length: number, namespace: string, nowMs: number): Promise<string> {
  const latest = new Map<string, AllocStub>();
  for (const a of allocs) {
    const seen = latest.get(a.TaskGroup);
    if (!seen || a.ModifyTime > seen.ModifyTime) latest.set(a.TaskGroup, a);
  }
  const rows: string[][] = [];
  for (const group of [...latest.keys()].sort()) {
    const evalId = latest.get(group)!.FollowupEvalID;
    if (!evalId) continue;
    const e = await getEval(client, evalId, namespace).catch(() => undefined);
    const waitUntil = parseWireTime(e?.WaitUntil);
    if (waitUntil === undefined || waitUntil < nowMs) continue;
    rows.push([group, limit(evalId, length), prettyTimeDiff(waitUntil, nowMs)]);
  }
  if (rows.length === 0) return '';
  return '\nFuture Rescheduling Attempts\n' + formatTable(['Task Group', 'Eval ID', 'Eval Time'], rows);
}

/** `Actions`: what `svc job action` can run, by task; nothing when the job defines none. */
export function actionsSection(job: FullJob): string {
  const rows = (job.TaskGroups ?? []).flatMap((g) => g.Tasks.flatMap((t) => (t.Actions ?? []).map((a) => [a.Name, g.Name, t.Name])));
  return rows.length === 0 ? '' : '\nActions\n' + formatTable(['Action Name', 'Task Group', 'Task'], rows);
}

/** `Latest Deployment` with its `Deployed` table (src/cli/output/deployment.ts). */
export function deploymentSection(d: Deployment, length: number): string {
  return latestDeploymentSection(d, length);
}

/** `Next Periodic Launch` of a periodic job that is not parameterized, as Nomad prints it. */
function nextLaunchRow(job: FullJob, show: boolean): Array<[string, string]> {
  if (!show) return [];
  if (job.Stop) return [['Next Periodic Launch', 'none (job stopped)']];
  const next = nextLaunchText(job.Periodic as Partial<PeriodicConfig>, Date.now());
  return next ? [['Next Periodic Launch', next]] : [];
}

/** One job's screen; fetches what only the screen shows (summary, allocations, evaluations, deployment). */
export async function jobScreen(ctx: CommandContext, client: ApiClient, stub: JobListStub, job: FullJob): Promise<string> {
  const periodic = job.Periodic !== null && job.Periodic !== undefined;
  const parameterized = job.ParameterizedJob !== null && job.ParameterizedJob !== undefined && job.Dispatched !== true;
  let out = formatKV([
    ['ID', job.ID],
    ['Name', job.Name],
    ['Submit Date', formatNomadTime(job.SubmitTime)],
    ['Type', job.Type],
    ['Priority', String(job.Priority)],
    ['Datacenters', (job.Datacenters ?? []).join(',')],
    ['Namespace', job.Namespace],
    ['Node Pool', job.NodePool],
    ['Status', statusString(job.Status, job.Stop)],
    ['Periodic', String(periodic)],
    ['Parameterized', String(parameterized)],
    ...nextLaunchRow(job, periodic && !parameterized),
  ]);
  if (ctx.flags.short === true) {
    return out;
  }
  const namespace = stub.Namespace;
  const scoped = clientFor({ ...ctx, flags: { ...ctx.flags, namespace } });
  // The summary endpoint is the source; the list stub's copy is the fallback for older servers.
  const summary = await jobSummary(client, job.ID, namespace).catch((err: unknown) => {
    if (err instanceof ApiError && err.statusCode === 404) return stub.JobSummary;
    throw err;
  });
  if (periodic && !parameterized) {
    out += summarySection(summary, job);
    out += await childrenSection(scoped, job, '/periodic-', 'No instances of periodic job found', 'Previously Launched Jobs');
    return out;
  }
  if (parameterized) {
    const p = job.ParameterizedJob!;
    out += '\nParameterized Job\n';
    out += formatKV([
      ['Payload', p.Payload ?? ''],
      ['Required Metadata', (p.MetaRequired ?? []).join(', ')],
      ['Optional Metadata', (p.MetaOptional ?? []).join(', ')],
    ]);
    out += summarySection(summary, job);
    out += await childrenSection(scoped, job, '/dispatch-', 'No dispatched instances of parameterized job found', 'Dispatched Jobs');
    return out;
  }
  const verbose = ctx.flags.verbose === true;
  const length = idLength(verbose);
  const [allocs, evals, deployment] = await Promise.all([
    jobAllocations(client, job.ID, { all: ctx.flags['all-allocs'] === true, namespace }),
    jobEvaluations(client, job.ID, namespace),
    jobLatestDeployment(client, job.ID, namespace),
  ]);
  const nowMs = Date.now();
  out += summarySection(summary, job);
  const sortedEvals = newestFirst(evals);
  if (verbose || ctx.flags.evals === true) out += evaluationsSection(sortedEvals, length);
  out += placementFailureSection(sortedEvals);
  out += await reschedulingSection(client, allocs, length, namespace, nowMs);
  if (deployment) out += deploymentSection(deployment, length);
  out += actionsSection(job);
  out += '\nAllocations\n' + allocListTable(newestFirst(allocs), verbose, nowMs);
  return out;
}
