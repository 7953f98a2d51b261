/**
 * Job version tags (Nomad's "golden versions"): a name, unique within the job, and a description on one
 * version. A tagged version is never pruned with the older ones (see putJobVersion), so it stays
 * available to diff against and to revert to.
 */
import { Conflict, NotFound } from '../../shared/errors.js';
import type { Store, WriteTx } from '../../storage/store.js';
import type { Job, JobVersionTag } from '../structs/job.js';
import { JOBS_TABLE, JOB_VERSIONS_TABLE, jobKey, versionKey } from './tables.js';
import { putJobRecord } from './job-stubs.js';

export interface TagResult {
  tag: JobVersionTag;
  index: number;
}

/** Sets the tag on the version record, and on the current job when that version is the current one. */
function setTag(tx: WriteTx, version: Job, tag: JobVersionTag | null): void {
  tx.put(JOB_VERSIONS_TABLE, versionKey(version.Namespace, version.ID, version.Version), { ...version, VersionTag: tag });
  const key = jobKey(version.Namespace, version.ID);
  const current = tx.get<Job>(JOBS_TABLE, key);
  if (current && current.Version === version.Version) putJobRecord(tx, { ...current, VersionTag: tag });
}

function versionsOf(tx: WriteTx, namespace: string, jobId: string): Job[] {
  return tx.list<Job>(JOB_VERSIONS_TABLE, `${jobKey(namespace, jobId)}\u0000`).map((e) => e.value);
}

/**
 * Tags a version (the current one when `version` is undefined). Tagging the version that already has
 * the name changes its description; a name another version holds is refused, and a version already
 * tagged under another name takes the new one.
 */
export async function tagVersion(store: Store, namespace: string, jobId: string, name: string, opts: { version?: number; description: string }): Promise<TagResult> {
  const { result, index } = await store.write((tx) => {
    const job = tx.get<Job>(JOBS_TABLE, jobKey(namespace, jobId));
    if (!job) throw new NotFound(`job "${jobId}" not found`);
    const number = opts.version ?? job.Version;
    const versions = versionsOf(tx, namespace, jobId);
    const target = versions.find((v) => v.Version === number);
    if (!target) throw new NotFound(`job "${jobId}" version ${number} not found`);
    const holder = versions.find((v) => v.VersionTag?.Name === name);
    if (holder && holder.Version !== number) throw new Conflict(`tag "${name}" already exists on a different version of job "${jobId}"`);
    const tag: JobVersionTag = { Name: name, Description: opts.description, TaggedTime: Date.now() * 1_000_000 };
    setTag(tx, target, tag);
    return tag;
  });
  return { tag: result, index };
}

/** Removes a tag from whichever version holds it. */
export async function unsetTag(store: Store, namespace: string, jobId: string, name: string): Promise<number> {
  const { index } = await store.write((tx) => {
    if (!tx.get<Job>(JOBS_TABLE, jobKey(namespace, jobId))) throw new NotFound(`job "${jobId}" not found`);
    const holder = versionsOf(tx, namespace, jobId).find((v) => v.VersionTag?.Name === name);
    if (!holder) throw new NotFound(`tag "${name}" not found on job "${jobId}"`);
    setTag(tx, holder, null);
  });
  return index;
}

/** The version a tag names, for revert's TaggedVersion. */
export function taggedVersion(store: Store, namespace: string, jobId: string, name: string): Job | undefined {
  return store
    .list<Job>(JOB_VERSIONS_TABLE, `${jobKey(namespace, jobId)}\u0000`)
    .map((e) => e.value)
    .find((v) => v.VersionTag?.Name === name);
}
