/**
 * Child jobs: the periodic launches and dispatched instances of a parent. A child is an ordinary job of
 * its own (its ID is `<parent>/periodic-<t>` or `<parent>/dispatch-…`), written at version 0 in the
 * transaction that creates it, with the evaluation that runs it.
 */
import type { WriteTx } from '../../storage/store.js';
import { copyJob, type Job } from '../structs/index.js';
import type { Evaluation } from '../structs/evaluation.js';
import { evaluateJob, jobHasOpenEvals } from './evals.js';
import { countChild, liveAllocCount, touchSummary } from './allocs.js';
import { refreshJobStatus } from './job-status.js';
import { JOBS_TABLE, JOB_VERSIONS_TABLE, jobKey, versionKey } from './tables.js';
import { putJobRecord } from './job-stubs.js';

/** A copy of the parent under the child's ID, named after it, with the parent recorded. */
export function deriveChild(parent: Job, id: string): Job {
  const child = copyJob(parent);
  child.ID = id;
  child.Name = id;
  child.ParentID = parent.ID;
  child.VersionTag = null;
  child.Stable = false;
  child.StatusDescription = '';
  return child;
}

/**
 * Writes a new child job and, unless it is itself periodic (a dispatched instance of a periodic
 * parameterized job, which the launcher then launches), its evaluation with `triggeredBy`.
 */
export function insertChildJob(tx: WriteTx, child: Job, triggeredBy: string, nowMs: number): Evaluation | undefined {
  child.Version = 0;
  child.CreateIndex = tx.index;
  child.ModifyIndex = tx.index;
  child.JobModifyIndex = tx.index;
  child.SubmitTime = nowMs * 1_000_000;
  child.Status = 'pending';
  child.Stop = false;
  putJobRecord(tx, child);
  tx.put(JOB_VERSIONS_TABLE, versionKey(child.Namespace, child.ID, 0), child);
  touchSummary(tx, child);
  countChild(tx, child.Namespace, child.ParentID, undefined, child.Status);
  const evaluation = child.Periodic === null ? evaluateJob(tx, child, triggeredBy) : undefined;
  refreshJobStatus(tx, child.Namespace, child.ID);
  return evaluation;
}

/** The children of `parent` whose IDs continue with `suffix` (`/periodic-`, `/dispatch-`). */
export function childrenOf(tx: WriteTx, parent: Pick<Job, 'Namespace' | 'ID'>, suffix: string): Job[] {
  return tx
    .list<Job>(JOBS_TABLE, jobKey(parent.Namespace, parent.ID + suffix))
    .map((e) => e.value)
    .filter((j) => j.ParentID === parent.ID);
}

/** Whether a launched child still has an open evaluation or a live allocation (Nomad's RunningChildren). */
export function hasRunningChildren(tx: WriteTx, parent: Job): boolean {
  return childrenOf(tx, parent, '/periodic-').some((c) => jobHasOpenEvals(tx, c.Namespace, c.ID) || liveAllocCount(tx, c.Namespace, c.ID) > 0);
}
