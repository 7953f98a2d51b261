/**
 * Scaling a job's task group (POST /v1/job/:id/scale) and the scaling events it leaves, as Nomad keeps
 * them: newest first, at most SCALING_EVENTS_KEPT per group, written only by scale requests. A count that
 * changes makes a new job version and an evaluation (`job-scaling`) in the same transaction as the event.
 */
import { Conflict, NotFound, UserError } from '../../shared/errors.js';
import type { Store, WriteTx } from '../../storage/store.js';
import { allocTerminal } from '../structs/allocation.js';
import { deploymentActive } from '../structs/deployment.js';
import type { Evaluation } from '../structs/evaluation.js';
import { copyJob, type Job } from '../structs/index.js';
import { allocsOfJob, touchSummary } from './allocs.js';
import { latestDeployment } from './deployments.js';
import { evaluateJob } from './evals.js';
import { refreshJobStatus } from './job-status.js';
import { putJobVersion } from './job-versions.js';
import { JOBS_TABLE, SCALING_EVENTS_TABLE, jobKey } from './tables.js';

/** Nomad keeps the 20 most recent scaling events of each task group. */
export const SCALING_EVENTS_KEPT = 20;

/** The message of the event recorded, and of the 400 answered, when a deployment is running. */
export const SCALING_BLOCKED = 'job scaling blocked due to active deployment';

export interface ScalingEvent {
  /** Unix nanoseconds */
  Time: number;
  /** the count asked for; null when the request only recorded an event */
  Count: number | null;
  PreviousCount: number;
  Message: string;
  Error: boolean;
  Meta: Record<string, unknown> | null;
  /** the evaluation the scaling created; null when the count did not change */
  EvalID: string | null;
  CreateIndex: number;
}

export interface ScaleRequest {
  group: string;
  count: number | null;
  message: string;
  error: boolean;
  meta: Record<string, unknown> | null;
  enforceIndex: boolean;
  jobModifyIndex: number;
  tokenAccessor: string;
}

export interface ScaleResult {
  job: Job;
  evaluation?: Evaluation;
  index: number;
}

export interface GroupScaleStatus {
  Desired: number;
  Placed: number;
  Running: number;
  Healthy: number;
  Unhealthy: number;
  Events: ScalingEvent[] | null;
}

export function scalingEvents(store: Store | WriteTx, namespace: string, jobId: string): Record<string, ScalingEvent[]> {
  return store.get<Record<string, ScalingEvent[]>>(SCALING_EVENTS_TABLE, jobKey(namespace, jobId)) ?? {};
}

function recordEvent(tx: WriteTx, job: Job, group: string, event: ScalingEvent): void {
  const all = scalingEvents(tx, job.Namespace, job.ID);
  all[group] = [event, ...(all[group] ?? [])].slice(0, SCALING_EVENTS_KEPT);
  tx.put(SCALING_EVENTS_TABLE, jobKey(job.Namespace, job.ID), all);
}

/** Checks a new count against the job's type and the group's scaling policy, with Nomad's messages. */
function checkCount(job: Job, group: Job['TaskGroups'][number], count: number): void {
  if (job.Type === 'system' && count > 1) throw new UserError('task group count for system jobs must be 0 or 1');
  const policy = group.Scaling;
  if (!policy) return;
  if (count > policy.Max) throw new UserError(`group count was greater than scaling policy maximum: ${count} > ${policy.Max}`);
  if (count < policy.Min) throw new UserError(`group count was less than scaling policy minimum: ${count} < ${policy.Min}`);
}

export async function scaleJob(store: Store, namespace: string, jobId: string, req: ScaleRequest): Promise<ScaleResult> {
  const { result, index } = await store.write((tx) => {
    const prev = tx.get<Job>(JOBS_TABLE, jobKey(namespace, jobId));
    if (!prev) throw new NotFound(`job "${jobId}" not found`);
    if (req.enforceIndex && req.jobModifyIndex !== prev.JobModifyIndex) {
      throw new Conflict(`Enforcing job modify index ${req.jobModifyIndex}: job exists with conflicting job modify index: ${prev.JobModifyIndex}`);
    }
    const group = prev.TaskGroups.find((g) => g.Name === req.group);
    if (!group) throw new UserError(`task group "${req.group}" specified for scaling does not exist in job`);
    const now = Date.now() * 1_000_000;
    const event: ScalingEvent = { Time: now, Count: req.count, PreviousCount: group.Count, Message: req.message, Error: req.error, Meta: req.meta, EvalID: null, CreateIndex: tx.index };
    if (req.count === null) {
      recordEvent(tx, prev, group.Name, event);
      return { job: prev, blocked: false };
    }
    checkCount(prev, group, req.count);
    const deployment = latestDeployment(tx, namespace, jobId);
    if (deployment && deploymentActive(deployment) && deployment.JobCreateIndex === prev.CreateIndex) {
      // Nomad records the refused request as an error event, so the autoscaler's history shows why.
      recordEvent(tx, prev, group.Name, {
        ...event,
        Count: null,
        Message: SCALING_BLOCKED,
        Error: true,
        Meta: { OriginalMessage: req.message, OriginalCount: req.count, OriginalMeta: req.meta },
      });
      return { job: prev, blocked: true };
    }
    if (req.count === group.Count) {
      recordEvent(tx, prev, group.Name, event);
      return { job: prev, blocked: false };
    }
    const job = copyJob(prev);
    job.TaskGroups.find((g) => g.Name === group.Name)!.Count = req.count;
    job.Version = prev.Version + 1;
    job.ModifyIndex = tx.index;
    job.JobModifyIndex = tx.index;
    job.SubmitTime = now;
    job.Stable = false;
    job.VersionTag = null;
    job.NomadTokenID = req.tokenAccessor;
    putJobVersion(tx, job);
    touchSummary(tx, job);
    // Periodic and parameterized parents are never evaluated themselves (dispatched children are).
    const parent = job.Periodic !== null || (job.ParameterizedJob !== null && !job.Dispatched);
    const evaluation = job.Stop || parent ? undefined : evaluateJob(tx, job, 'job-scaling');
    recordEvent(tx, job, group.Name, { ...event, EvalID: evaluation?.ID ?? null });
    refreshJobStatus(tx, namespace, jobId);
    return { job, evaluation, blocked: false };
  });
  // The refusal is answered after the commit: the error event it recorded is kept.
  if (result.blocked) throw new UserError(SCALING_BLOCKED);
  return { job: result.job, evaluation: result.evaluation, index };
}

/**
 * The job's scale status (GET /v1/job/:id/scale): each group's desired count, its live allocations
 * (canaries aside, as Nomad counts them) and its events.
 */
export function scaleStatus(store: Store, job: Job): Record<string, GroupScaleStatus> {
  const events = scalingEvents(store, job.Namespace, job.ID);
  const groups: Record<string, GroupScaleStatus> = {};
  for (const g of job.TaskGroups) groups[g.Name] = { Desired: g.Count, Placed: 0, Running: 0, Healthy: 0, Unhealthy: 0, Events: events[g.Name] ?? null };
  for (const a of allocsOfJob(store, job.Namespace, job.ID)) {
    if (a.CreateIndex < job.CreateIndex || a.DeploymentStatus?.Canary || allocTerminal(a) || a.ClientStatus === 'unknown') continue;
    const g = groups[a.TaskGroup];
    if (!g) continue;
    g.Placed++;
    if (a.ClientStatus === 'running') g.Running++;
    if (a.DeploymentStatus?.Healthy === true) g.Healthy++;
    else if (a.DeploymentStatus?.Healthy === false) g.Unhealthy++;
  }
  return groups;
}
