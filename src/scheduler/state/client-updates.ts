/**
 * What nodes report about their allocations, and what users ask of one allocation (stop). Both change
 * allocation records and set off what Nomad sets off: a failed allocation of a service or batch job is
 * re-evaluated (so its reschedule policy applies), and resources given back wake blocked evaluations.
 */
import { UserError } from '../../shared/errors.js';
import type { Store } from '../../storage/store.js';
import {
  ALLOC_CLIENT_STATUSES,
  clientTerminal,
  type Allocation,
  type AllocClientStatus,
  type TaskState,
} from '../structs/allocation.js';
import type { Evaluation } from '../structs/evaluation.js';
import type { Job } from '../structs/job.js';
import { allocJob, allocsOfJob, getAlloc, putAlloc } from './allocs.js';
import { evaluateJob, unblockAll } from './evals.js';
import { refreshJobStatus } from './job-status.js';
import { recordAllocHealth } from './deployments.js';
import { JOBS_TABLE, jobKey } from './tables.js';
import { WriteKind } from '../events/kinds.js';

export interface ClientAllocUpdate {
  ID: string;
  ClientStatus: AllocClientStatus;
  ClientDescription: string;
  TaskStates: Record<string, TaskState>;
  /** the allocation's health in its deployment, once the node has decided it */
  DeploymentStatus?: { Healthy: boolean; Timestamp: string } | null;
}

function checkUpdate(u: unknown, i: number): ClientAllocUpdate {
  const where = `Allocs[${i}]`;
  if (typeof u !== 'object' || u === null) throw new UserError(`${where} must be an object`);
  const o = u as Record<string, unknown>;
  if (typeof o.ID !== 'string' || o.ID === '') throw new UserError(`${where}.ID must be an allocation ID`);
  if (!(ALLOC_CLIENT_STATUSES as readonly unknown[]).includes(o.ClientStatus)) {
    throw new UserError(`${where}.ClientStatus must be one of ${ALLOC_CLIENT_STATUSES.join(', ')}`);
  }
  if (typeof o.ClientDescription !== 'string') throw new UserError(`${where}.ClientDescription must be a string`);
  if (typeof o.TaskStates !== 'object' || o.TaskStates === null || Array.isArray(o.TaskStates)) throw new UserError(`${where}.TaskStates must be an object`);
  const health = o.DeploymentStatus as { Healthy?: unknown; Timestamp?: unknown } | null | undefined;
  if (health !== undefined && health !== null && (typeof health.Healthy !== 'boolean' || typeof health.Timestamp !== 'string')) {
    throw new UserError(`${where}.DeploymentStatus must be {Healthy: bool, Timestamp: string}`);
  }
  return o as unknown as ClientAllocUpdate;
}

/** Validates a node's batch of updates: every entry whole, or none of them applied. */
export function parseClientUpdates(body: unknown): ClientAllocUpdate[] {
  const list = (body as { Allocs?: unknown } | undefined)?.Allocs;
  if (!Array.isArray(list)) throw new UserError('field "Allocs" must be a list of allocation updates');
  return list.map(checkUpdate);
}

/** Applies a node's reports. Allocations that are not on that node are ignored: a node speaks only for itself. */
export async function updateAllocsFromClient(store: Store, nodeId: string, updates: ClientAllocUpdate[]): Promise<number> {
  const { index } = await store.write((tx) => {
    tx.describe(WriteKind.AllocClientUpdate);
    const touchedJobs = new Map<string, { namespace: string; id: string }>();
    const failedJobs = new Set<string>();
    let freed = false;
    const now = Date.now() * 1_000_000;
    for (const u of updates) {
      const prev = getAlloc(tx, u.ID);
      if (!prev || prev.NodeID !== nodeId) continue;
      const next: Allocation = {
        ...prev,
        ClientStatus: u.ClientStatus,
        ClientDescription: u.ClientDescription,
        TaskStates: u.TaskStates,
        ModifyIndex: tx.index,
        ModifyTime: now,
      };
      // Health counts once per allocation and deployment: the first verdict the node reports. Outside a
      // deployment it is a migration's replacement proving healthy, which the node drainer waits for.
      const health = u.DeploymentStatus;
      const judged = health && (prev.DeploymentStatus?.Healthy ?? null) === null;
      if (judged) next.DeploymentStatus = { Healthy: health.Healthy, Timestamp: health.Timestamp, Canary: prev.DeploymentStatus?.Canary ?? false, ModifyIndex: tx.index };
      putAlloc(tx, next, prev);
      if (judged && prev.DeploymentID) recordAllocHealth(tx, next, health.Healthy);
      const key = jobKey(prev.Namespace, prev.JobID);
      touchedJobs.set(key, { namespace: prev.Namespace, id: prev.JobID });
      if (clientTerminal(next.ClientStatus) && !clientTerminal(prev.ClientStatus) && prev.DesiredStatus === 'run') freed = true;
      if (next.ClientStatus === 'failed' && prev.ClientStatus !== 'failed' && next.DesiredStatus === 'run') failedJobs.add(key);
    }
    for (const key of failedJobs) {
      const job = tx.get<Job>(JOBS_TABLE, key);
      if (job && !job.Stop && (job.Type === 'service' || job.Type === 'batch')) evaluateJob(tx, job, 'alloc-failure');
    }
    if (freed) unblockAll(tx);
    for (const { namespace, id } of touchedJobs.values()) refreshJobStatus(tx, namespace, id);
  });
  return index;
}

/**
 * Stops one allocation (`alloc stop`) as Nomad does: it is marked for migration (no_shutdown_delay
 * recorded with it) and an evaluation is created in the same write; that evaluation's scheduler stops
 * the allocation ("alloc is being migrated") and places a replacement that names it in
 * PreviousAllocation where the job still wants one. A system job's allocation is stopped, not replaced.
 */
export async function stopAlloc(store: Store, id: string, noShutdownDelay: boolean): Promise<{ evaluation?: Evaluation; index: number }> {
  const { result, index } = await store.write((tx) => {
    tx.describe(WriteKind.AllocUpdateDesiredTransition);
    const prev = getAlloc(tx, id);
    if (!prev) return undefined;
    const next: Allocation = {
      ...prev,
      DesiredTransition: { ...prev.DesiredTransition, Migrate: true, NoShutdownDelay: noShutdownDelay },
      ModifyIndex: tx.index,
      ModifyTime: Date.now() * 1_000_000,
    };
    putAlloc(tx, next, prev);
    // A purged job's evaluation still runs, from the version the allocation runs: it stops what is left.
    const job = tx.get<Job>(JOBS_TABLE, jobKey(prev.Namespace, prev.JobID)) ?? allocJob(tx, prev);
    return job ? evaluateJob(tx, job, 'alloc-stop') : undefined;
  });
  return { evaluation: result, index };
}

/**
 * Forces a job's evaluation (`job eval`); with forceReschedule, its failed allocations are replaced now,
 * past their reschedule limits and delays.
 */
export async function evaluateJobNow(store: Store, job: Job, forceReschedule: boolean): Promise<{ evaluation: Evaluation; index: number }> {
  const { result, index } = await store.write((tx) => {
    tx.describe(WriteKind.EvalUpdate);
    if (forceReschedule) {
      for (const prev of allocsOfJob(tx, job.Namespace, job.ID)) {
        if (prev.ClientStatus !== 'failed' || prev.DesiredStatus !== 'run' || prev.NextAllocation) continue;
        putAlloc(tx, { ...prev, DesiredTransition: { ...prev.DesiredTransition, ForceReschedule: true }, ModifyIndex: tx.index }, prev);
      }
    }
    const evaluation = evaluateJob(tx, job, 'job-register');
    refreshJobStatus(tx, job.Namespace, job.ID);
    return evaluation;
  });
  return { evaluation: result, index };
}
