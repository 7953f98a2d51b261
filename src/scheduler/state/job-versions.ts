/**
 * A job's version records: every change of its spec is a new version, and the store keeps the newest
 * few, as Nomad does.
 */
import type { WriteTx } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { JOB_VERSIONS_TABLE, jobKey, versionKey, SEP } from './tables.js';
import { putJobRecord } from './job-stubs.js';


/** Nomad keeps the six most recent versions of a job (tagged ones besides). */
export const VERSIONS_KEPT = 6;

/** Deletes the oldest entries under `prefix` beyond `keep`, sparing those `spare` says to keep. */
export function pruneByPrefix(tx: WriteTx, table: string, prefix: string, keep: number, spare?: (value: unknown) => boolean): void {
  const entries = tx.list<unknown>(table, prefix);
  const removable = entries.filter((e) => !spare?.(e.value));
  for (const { key } of removable.slice(0, Math.max(0, removable.length - keep))) tx.delete(table, key);
}

/**
 * Stores `job` as the job's current version and as a version record, then prunes the oldest versions
 * beyond VERSIONS_KEPT; tagged versions are kept whatever their age.
 */
export function putJobVersion(tx: WriteTx, job: Job): void {
  const key = jobKey(job.Namespace, job.ID);
  putJobRecord(tx, job);
  tx.put(JOB_VERSIONS_TABLE, versionKey(job.Namespace, job.ID, job.Version), job);
  pruneByPrefix(tx, JOB_VERSIONS_TABLE, `${key}${SEP}`, VERSIONS_KEPT, (v) => (v as Job).VersionTag !== null);
}

