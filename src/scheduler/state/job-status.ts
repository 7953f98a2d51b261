/**
 * A job's Status, recomputed in the transactions that can change it: system, periodic
 * and parameterized jobs run until stopped; others run while they have live allocations, are pending
 * while evaluations are open, and are dead once everything finished (or never started after a stop).
 */
import type { WriteTx } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { countChild, liveAllocCount } from './allocs.js';
import { jobHadEvals, jobHasOpenEvals } from './evals.js';
import { JOBS_TABLE, jobKey } from './tables.js';
import { putJobRecord } from './job-stubs.js';

export function computeJobStatus(tx: WriteTx, job: Job): string {
  // A dispatched child keeps its parent's parameterized block but runs to completion like any batch job.
  const parameterized = job.ParameterizedJob !== null && !job.Dispatched;
  if (job.Type === 'system' || job.Periodic !== null || parameterized) return job.Stop ? 'dead' : 'running';
  if (liveAllocCount(tx, job.Namespace, job.ID) > 0) return 'running';
  if (jobHasOpenEvals(tx, job.Namespace, job.ID)) return 'pending';
  if (job.Stop || jobHadEvals(tx, job.Namespace, job.ID)) return 'dead';
  return 'pending';
}

/** Writes the job's status when it changed; the job's ModifyIndex moves with it, as in Nomad. */
export function refreshJobStatus(tx: WriteTx, namespace: string, jobId: string): void {
  const key = jobKey(namespace, jobId);
  const job = tx.get<Job>(JOBS_TABLE, key);
  if (!job) return;
  const status = computeJobStatus(tx, job);
  if (status === job.Status) return;
  putJobRecord(tx, { ...job, Status: status, ModifyIndex: tx.index });
  if (job.ParentID !== '') countChild(tx, namespace, job.ParentID, job.Status, status);
}
