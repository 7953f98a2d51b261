/**
 * The periodic jobs, in a table of their own that changes only when one of them does, so the periodic
 * launcher neither decodes every stored job nor wakes for every write of the jobs table (each evaluation
 * writes its job's status there). putJobRecord and deleteJobRecord keep it in the same transaction as the
 * jobs table.
 *
 * Table:
 *   periodic-jobs   <ns>\0<job> → PeriodicEntry (what a change of the job's launches depends on)
 */
import type { Store, WriteTx } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { JOBS_TABLE, jobKey } from './tables.js';

export const PERIODIC_JOBS = 'periodic-jobs';

interface PeriodicEntry {
  JobModifyIndex: number;
  Stop: boolean;
}

/** Brings the job's entry in line with the record being written; rewritten only when it changes. */
export function indexPeriodicJob(tx: WriteTx, job: Job): void {
  const key = jobKey(job.Namespace, job.ID);
  if (job.Periodic === null) {
    tx.delete(PERIODIC_JOBS, key);
    return;
  }
  const prev = tx.get<PeriodicEntry>(PERIODIC_JOBS, key);
  if (prev && prev.JobModifyIndex === job.JobModifyIndex && prev.Stop === job.Stop) return;
  tx.put(PERIODIC_JOBS, key, { JobModifyIndex: job.JobModifyIndex, Stop: job.Stop } satisfies PeriodicEntry);
}

export function unindexPeriodicJob(tx: WriteTx, namespace: string, id: string): void {
  tx.delete(PERIODIC_JOBS, jobKey(namespace, id));
}

/** The stored jobs that have a periodic block, in key order. */
export function periodicJobs(store: Store): Job[] {
  const out: Job[] = [];
  for (const { key } of store.list(PERIODIC_JOBS)) {
    const job = store.get<Job>(JOBS_TABLE, key);
    if (job && job.Periodic !== null) out.push(job);
  }
  return out;
}

/** Builds the table afresh from the jobs (the migration that introduced it). */
export function rebuildPeriodicJobs(tx: WriteTx): void {
  for (const { key } of tx.list(PERIODIC_JOBS)) tx.delete(PERIODIC_JOBS, key);
  for (const { value } of tx.list<Job>(JOBS_TABLE)) indexPeriodicJob(tx, value);
}
