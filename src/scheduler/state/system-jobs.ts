/**
 * The running system and sysbatch jobs, in a table of their own, so a node that becomes ready finds the
 * jobs it must run without reading every stored job. putJobRecord and deleteJobRecord keep it in the same
 * transaction as the jobs table: an entry exists exactly while the job is a system or sysbatch job that is
 * not stopped.
 *
 * Table:
 *   system-jobs   <ns>\0<job> → 1
 */
import type { WriteTx } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { JOBS_TABLE, jobKey } from './tables.js';

export const SYSTEM_JOBS = 'system-jobs';

const runsOnEveryNode = (job: Pick<Job, 'Type' | 'Stop'>) => (job.Type === 'system' || job.Type === 'sysbatch') && !job.Stop;

/** Brings the job's entry in line with the record being written. */
export function indexSystemJob(tx: WriteTx, job: Job): void {
  const key = jobKey(job.Namespace, job.ID);
  if (!runsOnEveryNode(job)) tx.delete(SYSTEM_JOBS, key);
  else if (tx.get(SYSTEM_JOBS, key) === undefined) tx.put(SYSTEM_JOBS, key, 1);
}

export function unindexSystemJob(tx: WriteTx, namespace: string, id: string): void {
  tx.delete(SYSTEM_JOBS, jobKey(namespace, id));
}

/** The system and sysbatch jobs that are not stopped, in key order. */
export function activeSystemJobs(tx: WriteTx): Job[] {
  const out: Job[] = [];
  for (const key of tx.keys(SYSTEM_JOBS)) {
    const job = tx.get<Job>(JOBS_TABLE, key);
    if (job && runsOnEveryNode(job)) out.push(job);
  }
  return out;
}

/** Builds the table afresh from the jobs (the migration that introduced it). */
export function rebuildSystemJobs(tx: WriteTx): void {
  for (const { key } of tx.list(SYSTEM_JOBS)) tx.delete(SYSTEM_JOBS, key);
  for (const { value } of tx.list<Job>(JOBS_TABLE)) indexSystemJob(tx, value);
}
