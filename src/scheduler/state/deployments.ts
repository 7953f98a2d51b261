/**
 * Deployments in the state store, and the rules that move them: allocation health reported by nodes,
 * progress deadlines, success (the job version becomes stable, once any canaries are promoted), failure
 * (with auto-revert to the last stable version), cancellation by a newer version or a stop.
 *
 * Tables:
 *   deployments            ID → Deployment
 *   deployments-by-job     <ns>\0<job>\0<CreateIndex, padded> → ID (newest last)
 *   deployment-deadlines   <next progress deadline, padded ms>\0<ID> → 1, for each running deployment
 *                          with a group still to make progress: the watcher reads only what is overdue
 */
import type { Store, WriteTx } from '../../storage/store.js';
import { goTime, type Allocation } from '../structs/allocation.js';
import { DEPLOYMENT_DESCRIPTIONS, deploymentActive, type Deployment, type DeploymentStatusName } from '../structs/deployment.js';
import type { Job } from '../structs/job.js';
import { copyJob } from '../structs/copy.js';
import { evaluateJob } from './evals.js';
import { refreshJobStatus } from './job-status.js';
import { putJobVersion } from './job-versions.js';
import { JOBS_TABLE, JOB_VERSIONS_TABLE, jobKey, versionKey, SEP } from './tables.js';
import { padIndex } from './allocs.js';
import { autoPromote } from './deployment-promote.js';
import { putJobRecord } from './job-stubs.js';
import { scanKeys } from './scan.js';
import { WriteKind } from '../events/kinds.js';

export const DEPLOYMENTS_TABLE = 'deployments';
export const DEPLOYMENTS_BY_JOB = 'deployments-by-job';
export const DEPLOYMENT_DEADLINES = 'deployment-deadlines';

/** Added to a deadline's milliseconds so that times before 1970 (Go's zero time) still sort as numbers. */
const DEADLINE_OFFSET_MS = 1e14;

/**
 * When the deployment fails for want of progress unless a group makes some: the earliest deadline of a
 * group that still has allocations to make healthy or canaries to promote (Nomad's doneGroups). None for
 * a deployment that is not running.
 */
function progressDeadline(d: Deployment): number | undefined {
  if (d.Status !== 'running') return undefined;
  let earliest: number | undefined;
  for (const g of Object.values(d.TaskGroups)) {
    if (!(g.ProgressDeadline > 0 && (g.HealthyAllocs < g.DesiredTotal || (g.DesiredCanaries > 0 && !g.Promoted)))) continue;
    const at = Date.parse(g.RequireProgressBy);
    if (!Number.isNaN(at) && (earliest === undefined || at < earliest)) earliest = at;
  }
  return earliest;
}

const deadlineKey = (at: number, id: string) => `${String(at + DEADLINE_OFFSET_MS).padStart(16, '0')}${SEP}${id}`;

/** Moves the deployment's deadline entry from what `prev` had to what `next` has. */
function indexDeadline(tx: WriteTx, prev: Deployment | undefined, next: Deployment | undefined): void {
  const before = prev && progressDeadline(prev);
  const after = next && progressDeadline(next);
  if (before === after) return;
  if (before !== undefined) tx.delete(DEPLOYMENT_DEADLINES, deadlineKey(before, prev!.ID));
  if (after !== undefined) tx.put(DEPLOYMENT_DEADLINES, deadlineKey(after, next!.ID), 1);
}

/** The deadline entries of every stored deployment, afresh (the migration that introduced them). */
export function rebuildDeploymentDeadlines(tx: WriteTx): void {
  for (const { key } of tx.list(DEPLOYMENT_DEADLINES)) tx.delete(DEPLOYMENT_DEADLINES, key);
  for (const { value } of tx.list<Deployment>(DEPLOYMENTS_TABLE)) indexDeadline(tx, undefined, value);
}

export function getDeployment(store: Store | WriteTx, id: string): Deployment | undefined {
  return store.get<Deployment>(DEPLOYMENTS_TABLE, id);
}

export function putDeployment(tx: WriteTx, d: Deployment): void {
  const prev = tx.get<Deployment>(DEPLOYMENTS_TABLE, d.ID);
  tx.put(DEPLOYMENTS_TABLE, d.ID, d);
  if (!prev) tx.put(DEPLOYMENTS_BY_JOB, `${jobKey(d.Namespace, d.JobID)}${SEP}${padIndex(d.CreateIndex)}`, d.ID);
  indexDeadline(tx, prev, d);
}

/** Removes a deployment and its index entries (garbage collection). */
export function deleteDeployment(tx: WriteTx, d: Deployment): void {
  const stored = tx.get<Deployment>(DEPLOYMENTS_TABLE, d.ID);
  tx.delete(DEPLOYMENTS_TABLE, d.ID);
  for (const { key, value } of tx.list<string>(DEPLOYMENTS_BY_JOB, `${jobKey(d.Namespace, d.JobID)}${SEP}`)) if (value === d.ID) tx.delete(DEPLOYMENTS_BY_JOB, key);
  indexDeadline(tx, stored, undefined);
}

/** A job's deployments, newest first. */
export function deploymentsOfJob(store: Store | WriteTx, namespace: string, jobId: string): Deployment[] {
  return store
    .list<string>(DEPLOYMENTS_BY_JOB, `${jobKey(namespace, jobId)}${SEP}`, { reverse: true })
    .map((e) => store.get<Deployment>(DEPLOYMENTS_TABLE, e.value))
    .filter((d): d is Deployment => d !== undefined);
}

export function latestDeployment(store: Store | WriteTx, namespace: string, jobId: string): Deployment | undefined {
  return deploymentsOfJob(store, namespace, jobId)[0];
}

export function listDeployments(store: Store): Deployment[] {
  return store
    .list<Deployment>(DEPLOYMENTS_TABLE)
    .map((e) => e.value)
    .sort((a, b) => a.CreateIndex - b.CreateIndex || (a.ID < b.ID ? -1 : 1));
}

export function setDeploymentStatus(tx: WriteTx, d: Deployment, status: DeploymentStatusName, description: string): Deployment {
  const next = { ...d, Status: status, StatusDescription: description, ModifyIndex: tx.index, ModifyTime: Date.now() * 1_000_000 };
  putDeployment(tx, next);
  return next;
}

/** Cancels the job's active deployment, if any (a newer version replaces it, or the job stopped). */
export function cancelActiveDeployment(tx: WriteTx, namespace: string, jobId: string, description: string, exceptId?: string): void {
  for (const d of deploymentsOfJob(tx, namespace, jobId)) {
    if (d.ID !== exceptId && deploymentActive(d)) setDeploymentStatus(tx, d, 'cancelled', description);
  }
}

/**
 * Fails a deployment. With auto-revert on any of its groups, the newest stable version older than the
 * deployed one is registered again as a new version, and the description says so. Answers the version
 * reverted to, if any.
 */
export function failDeployment(tx: WriteTx, d: Deployment, description: string): number | undefined {
  const autoRevert = Object.values(d.TaskGroups).some((g) => g.AutoRevert);
  const job = tx.get<Job>(JOBS_TABLE, jobKey(d.Namespace, d.JobID));
  const stable = autoRevert && job ? latestStableVersion(tx, job, d.JobVersion) : undefined;
  setDeploymentStatus(tx, d, 'failed', stable ? `${description} - rolling back to job version ${stable.Version}` : description);
  if (job) {
    if (stable) revertTo(tx, job, stable);
    else evaluateJob(tx, job, 'deployment-watcher', { extra: { DeploymentID: d.ID } });
    refreshJobStatus(tx, d.Namespace, d.JobID);
  }
  return stable?.Version;
}

function latestStableVersion(tx: WriteTx, job: Job, below: number): Job | undefined {
  return tx
    .list<Job>(JOB_VERSIONS_TABLE, `${jobKey(job.Namespace, job.ID)}${SEP}`)
    .map((e) => e.value)
    .filter((v) => v.Stable && v.Version < below)
    .sort((a, b) => b.Version - a.Version)[0];
}

/** Registers an earlier version's spec as the next version, as `job revert` does, and evaluates it. */
function revertTo(tx: WriteTx, current: Job, target: Job): void {
  const job = copyJob(target);
  job.Version = current.Version + 1;
  job.CreateIndex = current.CreateIndex;
  job.ModifyIndex = tx.index;
  job.JobModifyIndex = tx.index;
  job.SubmitTime = Date.now() * 1_000_000;
  job.Stable = false;
  job.Stop = false;
  job.VersionTag = null;
  job.Status = current.Status;
  putJobVersion(tx, job);
  evaluateJob(tx, job, 'deployment-watcher');
}

/** Marks a job version stable (a successful deployment, or POST /v1/job/:id/stable). */
export function setVersionStable(tx: WriteTx, namespace: string, jobId: string, version: number, stable: boolean): boolean {
  const key = versionKey(namespace, jobId, version);
  const stored = tx.get<Job>(JOB_VERSIONS_TABLE, key);
  if (!stored) return false;
  tx.put(JOB_VERSIONS_TABLE, key, { ...stored, Stable: stable });
  const job = tx.get<Job>(JOBS_TABLE, jobKey(namespace, jobId));
  if (job && job.Version === version) putJobRecord(tx, { ...job, Stable: stable, ModifyIndex: tx.index });
  return true;
}

/**
 * A node reported an allocation's health for the first time: count it in its deployment, and move the
 * deployment on — fail it on an unhealthy allocation, finish it when every group is healthy, or let the
 * scheduler replace the next batch.
 */
export function recordAllocHealth(tx: WriteTx, alloc: Allocation, healthy: boolean): void {
  const d = getDeployment(tx, alloc.DeploymentID);
  if (!d || !deploymentActive(d)) return;
  const group = d.TaskGroups[alloc.TaskGroup];
  if (!group) return;
  const now = Date.now();
  const groups = { ...d.TaskGroups, [alloc.TaskGroup]: { ...group } };
  const g = groups[alloc.TaskGroup];
  if (healthy) {
    g.HealthyAllocs++;
    if (g.ProgressDeadline > 0) g.RequireProgressBy = goTime(now + g.ProgressDeadline / 1e6);
  } else {
    g.UnhealthyAllocs++;
  }
  const updated: Deployment = { ...d, TaskGroups: groups, ModifyIndex: tx.index, ModifyTime: now * 1_000_000 };
  putDeployment(tx, updated);
  if (!healthy) {
    failDeployment(tx, updated, DEPLOYMENT_DESCRIPTIONS.unhealthy);
    return;
  }
  if (completeIfDone(tx, updated) || autoPromote(tx, updated)) return;
  // Room for the next batch of a rolling update: the scheduler decides what that is.
  const job = tx.get<Job>(JOBS_TABLE, jobKey(d.Namespace, d.JobID));
  if (job && d.Status === 'running') evaluateJob(tx, job, 'deployment-watcher', { extra: { DeploymentID: d.ID } });
}

/**
 * A running deployment whose groups are all promoted (if they have canaries) and healthy succeeds, and
 * its job version becomes stable. Answers whether it did.
 */
export function completeIfDone(tx: WriteTx, d: Deployment): boolean {
  const groups = Object.values(d.TaskGroups);
  if (d.Status !== 'running' || !groups.every((g) => g.HealthyAllocs >= g.DesiredTotal && (g.DesiredCanaries === 0 || g.Promoted))) return false;
  setDeploymentStatus(tx, d, 'successful', DEPLOYMENT_DESCRIPTIONS.successful);
  setVersionStable(tx, d.Namespace, d.JobID, d.JobVersion, true);
  refreshJobStatus(tx, d.Namespace, d.JobID);
  return true;
}

/** Fails running deployments whose groups made no progress in time; answers how many. */
export async function enforceProgressDeadlines(store: Store): Promise<number> {
  const now = Date.now();
  // Deadlines in order: what is overdue is at the front, and the walk stops at the first that is not.
  const overdue: string[] = [];
  for (const key of scanKeys(store, DEPLOYMENT_DEADLINES)) {
    if (Number(key.slice(0, key.indexOf(SEP))) - DEADLINE_OFFSET_MS >= now) break;
    overdue.push(key.slice(key.indexOf(SEP) + 1));
  }
  if (overdue.length === 0) return 0;
  const { result: failed } = await store.write((tx) => {
    tx.describe(WriteKind.DeploymentStatusUpdate);
    let failed = 0;
    for (const id of overdue) {
      const current = getDeployment(tx, id);
      // Progress may have moved the deadline since the walk.
      const at = current && progressDeadline(current);
      if (current && at !== undefined && at < now) {
        failDeployment(tx, current, DEPLOYMENT_DESCRIPTIONS.progressDeadline);
        failed++;
      }
    }
    return failed;
  });
  return failed;
}
