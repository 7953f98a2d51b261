/**
 * Reverting a job to an earlier version (POST /v1/job/:id/revert): the old version's spec, and its
 * source when one was kept, registered again as a new version. The registration is a check-and-set on
 * the job modify index read here, so a change in between makes the revert fail rather than undo it.
 */
import { Conflict, NotFound, UserError } from '../../shared/errors.js';
import type { Store } from '../../storage/store.js';
import { copyJob } from '../structs/index.js';
import { getJob, jobSubmission, jobVersions, registerJob, type RegisterResult } from './jobs.js';

export interface RevertOptions {
  version: number;
  /** the version the job must be at now (check-and-set) */
  enforcePriorVersion?: number;
  tokenAccessor: string;
}

export async function revertJob(store: Store, namespace: string, jobId: string, opts: RevertOptions): Promise<RegisterResult> {
  const current = getJob(store, namespace, jobId);
  if (!current) throw new NotFound(`job "${jobId}" not found`);
  if (opts.enforcePriorVersion !== undefined && current.Version !== opts.enforcePriorVersion) {
    throw new Conflict(`Current job has version ${current.Version}; enforcing version ${opts.enforcePriorVersion}`);
  }
  if (opts.version === current.Version) throw new UserError("can't revert to current version");
  const old = jobVersions(store, namespace, jobId).find((v) => v.Version === opts.version);
  if (!old) throw new NotFound(`job "${jobId}" at version ${opts.version} not found`);
  const job = copyJob(old);
  // A tag names the version it was put on, not the new one.
  job.VersionTag = null;
  const source = jobSubmission(store, namespace, jobId, opts.version);
  return registerJob(store, job, {
    enforceIndex: true,
    jobModifyIndex: current.JobModifyIndex,
    submission: source && { Source: source.Source, Format: source.Format, VariableFlags: source.VariableFlags, Variables: source.Variables },
    tokenAccessor: opts.tokenAccessor,
  });
}
