/**
 * Writes what a scheduler decided. Small plans are one transaction with the evaluation's update, so a
 * crash leaves all or nothing. Very large plans are written in chunks: each chunk is atomic, and the
 * evaluation is completed only with the last one, so after a crash the evaluation is still pending and
 * its re-run places only what is missing.
 *
 * The plan is applied once committed, not once flushed: the broker schedules the next evaluation while
 * this one's flush runs (every read after the commit sees the plan), and acknowledges this one only when
 * `durable` resolves, which also covers the earlier chunks (flushes follow commit order).
 */
import type { Store, WriteTx } from '../storage/store.js';
import type { SchedulerResult } from './sched/types.js';
import type { Allocation } from './structs/allocation.js';
import type { Evaluation } from './structs/evaluation.js';
import { getAlloc, putAlloc, putAllocJob, putAllocs, touchSummary } from './state/allocs.js';
import { blockEval, putEval, unblockAll, updateEval } from './state/evals.js';
import { refreshJobStatus } from './state/job-status.js';
import { cancelActiveDeployment, putDeployment } from './state/deployments.js';
import { DEPLOYMENT_DESCRIPTIONS, type Deployment } from './structs/deployment.js';
import { WriteKind } from './events/kinds.js';

/** Allocations written per transaction: big enough to amortise the flush, small enough to keep the server responsive. */
const CHUNK = 4000;

/** Whether the plan is written in several transactions (its first ones are visible before the last). */
export const writtenInChunks = (result: SchedulerResult): boolean => result.plan.Place.length > CHUNK;

export interface ApplyOutcome {
  index: number;
  placed: number;
  updated: number;
  /** resolves once the whole plan is on disk */
  durable: Promise<void>;
}

/**
 * `onIndex` hears the index of the transaction that completes the evaluation once its write function has
 * run, before it commits (a write that throws reports nothing).
 */
export async function applyPlan(store: Store, evaluation: Evaluation, result: SchedulerResult, onIndex?: (index: number) => void): Promise<ApplyOutcome> {
  const { plan } = result;
  const now = Date.now() * 1_000_000;
  const place = plan.Place;
  let written = 0;
  // The deployment goes in with the first chunk: the allocations in it already name it.
  let deployment = plan.Deployment;
  // All chunks but the last carry only placements (and the deployment, the first time).
  while (place.length - written > CHUNK) {
    const slice = place.slice(written, written + CHUNK);
    const { result } = await store.commit((tx) => {
      tx.describe(WriteKind.ApplyPlanResults);
      if (plan.Job) putAllocJob(tx, plan.Job);
      placeAllocs(tx, slice, now);
      return deployment ? writeDeployment(tx, deployment, now) : null;
    });
    deployment = result;
    written += CHUNK;
  }
  const rest = place.slice(written);
  const { index, durable } = await store.commit((tx) => {
    tx.describe(WriteKind.ApplyPlanResults);
    if (onIndex) tx.beforeCommit(() => onIndex(tx.index));
    if (plan.Job) putAllocJob(tx, plan.Job);
    if (deployment) writeDeployment(tx, deployment, now);
    placeAllocs(tx, rest, now);
    let capacityFreed = false;
    for (const alloc of plan.InPlace) {
      const prev = getAlloc(tx, alloc.ID);
      if (!prev) continue;
      putAlloc(tx, { ...alloc, ModifyIndex: tx.index, AllocModifyIndex: tx.index, ModifyTime: now }, prev);
    }
    for (const update of plan.Updates) {
      const prev = getAlloc(tx, update.ID);
      if (!prev) continue;
      const next: Allocation = { ...prev, ...update, ModifyIndex: tx.index, ModifyTime: now };
      // The node must notice a change of what it should run; a bookkeeping change is not one.
      if (update.DesiredStatus && update.DesiredStatus !== prev.DesiredStatus) {
        next.AllocModifyIndex = tx.index;
        capacityFreed = true;
      }
      if (update.ClientStatus === 'lost') capacityFreed = true;
      putAlloc(tx, next, prev);
    }
    for (const created of result.createEvals) {
      const withIndex = { ...created, CreateIndex: tx.index, ModifyIndex: tx.index };
      if (created.Status === 'blocked') blockEval(tx, withIndex);
      else putEval(tx, withIndex);
    }
    updateEval(tx, evaluation.ID, {
      ...result.eval,
      FailedTGAllocs: result.eval.FailedTGAllocs ?? undefined,
      SnapshotIndex: tx.index,
    });
    if (plan.Job) touchSummary(tx, plan.Job, result.eval.QueuedAllocations);
    // Stopped allocations give their resources back: whoever waits for capacity may now fit.
    if (capacityFreed) unblockAll(tx);
    refreshJobStatus(tx, evaluation.Namespace, evaluation.JobID);
  });
  return { index, placed: place.length, updated: plan.InPlace.length + plan.Updates.length, durable };
}

/** A new deployment replaces the job's older active one; an existing one gets its new counts. Answers what was stored. */
function writeDeployment(tx: WriteTx, deployment: Deployment, now: number): Deployment {
  const stored: Deployment =
    deployment.CreateIndex === 0
      ? { ...deployment, CreateIndex: tx.index, ModifyIndex: tx.index, CreateTime: now, ModifyTime: now }
      : { ...deployment, ModifyIndex: tx.index, ModifyTime: now };
  if (deployment.CreateIndex === 0) cancelActiveDeployment(tx, deployment.Namespace, deployment.JobID, DEPLOYMENT_DESCRIPTIONS.newerJob, deployment.ID);
  putDeployment(tx, stored);
  return stored;
}

/** New allocations, and the NextAllocation of each one they replace. */
function placeAllocs(tx: WriteTx, allocs: readonly Allocation[], now: number): void {
  const changes: Array<{ alloc: Allocation; prev: Allocation | undefined }> = [];
  for (const alloc of allocs) {
    changes.push({ alloc: { ...alloc, CreateIndex: tx.index, ModifyIndex: tx.index, AllocModifyIndex: tx.index, CreateTime: now, ModifyTime: now }, prev: undefined });
    if (!alloc.PreviousAllocation) continue;
    const prev = getAlloc(tx, alloc.PreviousAllocation);
    if (prev) changes.push({ alloc: { ...prev, NextAllocation: alloc.ID, ModifyIndex: tx.index, ModifyTime: now }, prev });
  }
  putAllocs(tx, changes);
}

/** An evaluation that could not be processed: it is marked failed with the reason, and the job's status follows. */
export async function failEval(store: Store, evaluation: Evaluation, reason: string): Promise<void> {
  await store.write((tx) => {
    tx.describe(WriteKind.EvalUpdate);
    updateEval(tx, evaluation.ID, { Status: 'failed', StatusDescription: reason });
    refreshJobStatus(tx, evaluation.Namespace, evaluation.JobID);
  });
}
