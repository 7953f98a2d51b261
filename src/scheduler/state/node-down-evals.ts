/**
 * What nodes going down ask of the scheduler: every job with live allocations on them is evaluated again,
 * so the allocations are marked lost and replaced. Nodes going down together give each job one
 * evaluation, not one per node; and a job that already has an evaluation waiting to run gets none, since
 * that one will read the nodes down (Nomad's broker coalesces a job's queued evaluations the same way).
 */
import type { WriteTx } from '../../storage/store.js';
import { allocTerminal } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import { allocsOfNode } from './allocs.js';
import { evaluateJob, pendingEvalsOfJob } from './evals.js';
import { JOBS_TABLE, jobKey } from './tables.js';

export interface NodeDownEvalOptions {
  /**
   * Pending evaluations that cannot stand in for a new one, because their scheduler may already have read
   * the state (EvalBroker.unsettledEvals). Without it every job gets an evaluation, which is always safe.
   */
  unsettled?: ReadonlySet<string>;
  /** Unix ms; a pending evaluation with a later WaitUntil would replace the allocations too late */
  now?: number;
}

/** Creates the evaluations; answers how many. */
export function evaluateJobsOnDownNodes(tx: WriteTx, nodeIds: readonly string[], opts: NodeDownEvalOptions = {}): number {
  const jobs = new Map<string, { job: Job; nodeId: string }>();
  for (const nodeId of nodeIds) {
    for (const alloc of allocsOfNode(tx, nodeId)) {
      if (allocTerminal(alloc)) continue;
      const key = jobKey(alloc.Namespace, alloc.JobID);
      if (jobs.has(key)) continue;
      const job = tx.get<Job>(JOBS_TABLE, key);
      if (job) jobs.set(key, { job, nodeId });
    }
  }
  const now = opts.now ?? Date.now();
  let created = 0;
  for (const { job, nodeId } of jobs.values()) {
    if (opts.unsettled && pendingEvalsOfJob(tx, job.Namespace, job.ID).some((e) => e.waitUntil <= now && !opts.unsettled!.has(e.id))) continue;
    // Nomad's evaluation names one node; the first of the job's nodes stands for them all.
    evaluateJob(tx, job, 'node-update', { extra: { NodeID: nodeId, NodeModifyIndex: tx.index } });
    created++;
  }
  return created;
}
