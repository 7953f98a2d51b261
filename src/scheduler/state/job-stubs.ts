/**
 * The list view of every job, in its own table (`job-stubs`, `<ns>\0<id>` → JobStubRecord, the same key
 * as `jobs`): /v1/jobs reads these small records instead of decoding each full job, which was most of a
 * listing's time. Every write of the jobs table goes through putJobRecord / deleteJobRecord, so the two
 * tables change in the same transaction and cannot disagree.
 */
import type { Store, WriteTx } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { scanTable } from './scan.js';
import { JOBS_TABLE, jobKey } from './tables.js';
import { indexSystemJob, unindexSystemJob } from './system-jobs.js';
import { indexPeriodicJob, unindexPeriodicJob } from './periodic-jobs.js';

export const JOB_STUBS = 'job-stubs';

export interface JobStubRecord {
  ID: string;
  ParentID: string;
  Name: string;
  Namespace: string;
  Datacenters: Job['Datacenters'];
  NodePool: string;
  Multiregion: Job['Multiregion'];
  Type: string;
  Priority: number;
  Periodic: boolean;
  ParameterizedJob: boolean;
  Stop: boolean;
  Status: string;
  StatusDescription: string;
  /** for the empty summary of a job that has none stored */
  TaskGroupNames: string[];
  CreateIndex: number;
  ModifyIndex: number;
  JobModifyIndex: number;
  SubmitTime: number;
  Meta: Job['Meta'];
}

/** The projection of a full job a stub holds; the table always equals this of the stored job. */
export function jobStubRecord(job: Job): JobStubRecord {
  return {
    ID: job.ID,
    ParentID: job.ParentID,
    Name: job.Name,
    Namespace: job.Namespace,
    Datacenters: job.Datacenters,
    NodePool: job.NodePool,
    Multiregion: job.Multiregion,
    Type: job.Type,
    Priority: job.Priority,
    Periodic: job.Periodic !== null,
    // Nomad's IsParameterized: a dispatched instance keeps the block but is not itself parameterized.
    ParameterizedJob: job.ParameterizedJob !== null && !job.Dispatched,
    Stop: job.Stop,
    Status: job.Status,
    StatusDescription: job.StatusDescription,
    TaskGroupNames: job.TaskGroups.map((g) => g.Name),
    CreateIndex: job.CreateIndex,
    ModifyIndex: job.ModifyIndex,
    JobModifyIndex: job.JobModifyIndex,
    SubmitTime: job.SubmitTime,
    Meta: job.Meta,
  };
}

/** Writes the job's current record and its stub; the one way the jobs table is written. */
export function putJobRecord(tx: WriteTx, job: Job): void {
  const key = jobKey(job.Namespace, job.ID);
  tx.put(JOBS_TABLE, key, job);
  tx.put(JOB_STUBS, key, jobStubRecord(job));
  indexSystemJob(tx, job);
  indexPeriodicJob(tx, job);
}

export function deleteJobRecord(tx: WriteTx, namespace: string, id: string): void {
  const key = jobKey(namespace, id);
  tx.delete(JOBS_TABLE, key);
  tx.delete(JOB_STUBS, key);
  unindexSystemJob(tx, namespace, id);
  unindexPeriodicJob(tx, namespace, id);
}

/** Stubs of one namespace whose ID starts with `prefix`, or of every namespace with `*`, lazily in table order. */
export function* jobStubs(store: Store, namespace: string, prefix: string, start?: string): Generator<JobStubRecord> {
  const scan = namespace === '*' ? scanTable<JobStubRecord>(store, JOB_STUBS, '', { start }) : scanTable<JobStubRecord>(store, JOB_STUBS, jobKey(namespace, prefix), { start });
  for (const { value } of scan) if (namespace !== '*' || value.ID.startsWith(prefix)) yield value;
}

/** Full jobs, lazily, in the same order as jobStubs (filters see the full job). */
export function* fullJobs(store: Store, namespace: string, prefix: string, start?: string): Generator<Job> {
  const scan = namespace === '*' ? scanTable<Job>(store, JOBS_TABLE, '', { start }) : scanTable<Job>(store, JOBS_TABLE, jobKey(namespace, prefix), { start });
  for (const { value } of scan) if (namespace !== '*' || value.ID.startsWith(prefix)) yield value;
}
