/**
 * Jobs in the state store: the current job, its versions, and the original sources it was submitted
 * with. Registration is one write transaction, so check-and-set (EnforceIndex), the version bump and the
 * submission retention are atomic, whichever server process does it.
 */
import { Conflict, NotFound, UserError } from '../../shared/errors.js';
import type { Store, WriteTx } from '../../storage/store.js';
import { copyJob, jobSpecChanged, type Job, type TaskGroup } from '../structs/index.js';
import type { Evaluation } from '../structs/evaluation.js';
import { cancelJobEvals, evaluateJob } from './evals.js';
import { allocsOfJob, countChild, deleteSummary, putAlloc, touchSummary } from './allocs.js';
import { allocTerminal } from '../structs/allocation.js';
import { DEPLOYMENT_DESCRIPTIONS } from '../structs/deployment.js';
import { cancelActiveDeployment } from './deployments.js';
import { refreshJobStatus } from './job-status.js';
import { pruneByPrefix, putJobVersion } from './job-versions.js';
import { deleteJobRecord } from './job-stubs.js';
import { JOBS_TABLE, JOB_VERSIONS_TABLE, NAMESPACES_TABLE, SCALING_EVENTS_TABLE, jobKey, versionKey, SEP } from './tables.js';
import { WriteKind } from '../events/kinds.js';

export { JOBS_TABLE, JOB_VERSIONS_TABLE };
export { putJobVersion };
export const JOB_SUBMISSIONS_TABLE = 'job-submissions';

/** Nomad keeps the six most recent job sources. */
export const SUBMISSIONS_KEPT = 6;

export interface JobSubmission {
  Source: string;
  Format: string;
  VariableFlags: Record<string, string> | null;
  Variables: string;
  Namespace: string;
  JobID: string;
  Version: number;
  JobModifyIndex: number;
}

export { jobKey };

export interface RegisterOptions {
  enforceIndex?: boolean;
  jobModifyIndex?: number;
  preserveCounts?: boolean;
  submission?: { Source: string; Format?: string; VariableFlags?: Record<string, string> | null; Variables?: string };
  /** accessor of the token that registered it (Job.NomadTokenID) */
  tokenAccessor?: string;
  /** priority of the evaluation; 0 = the job's */
  evalPriority?: number;
}

export interface RegisterResult {
  job: Job;
  /** the evaluation created with it; none for periodic and parameterized jobs */
  evaluation?: Evaluation;
  /** false when the spec was unchanged and no new version was made */
  changed: boolean;
  index: number;
}

function enforce(prev: Job | undefined, opts: RegisterOptions): void {
  if (!opts.enforceIndex) return;
  const want = opts.jobModifyIndex ?? 0;
  const prefix = `Enforcing job modify index ${want}`;
  if (want === 0 && prev) throw new Conflict(`${prefix}: job already exists`);
  if (want !== 0 && !prev) throw new Conflict(`${prefix}: job does not exist`);
  if (want !== 0 && prev && prev.JobModifyIndex !== want) {
    throw new Conflict(`${prefix}: job exists with conflicting job modify index: ${prev.JobModifyIndex}`);
  }
}

function preserveCounts(job: Job, prev: Job): void {
  const before = new Map(prev.TaskGroups.map((g: TaskGroup) => [g.Name, g.Count]));
  for (const group of job.TaskGroups) {
    const count = before.get(group.Name);
    if (count !== undefined) group.Count = count;
  }
}

export async function registerJob(store: Store, input: Job, opts: RegisterOptions = {}): Promise<RegisterResult> {
  const { result, index } = await store.write((tx) => {
    tx.describe(WriteKind.JobRegister);
    // Inside the transaction, so a namespace deleted concurrently cannot end up holding this job.
    if (input.Namespace !== 'default' && !tx.get(NAMESPACES_TABLE, input.Namespace)) {
      throw new UserError(`job "${input.ID}" is in nonexistent namespace "${input.Namespace}"`);
    }
    const key = jobKey(input.Namespace, input.ID);
    const prev = tx.get<Job>(JOBS_TABLE, key);
    enforce(prev, opts);
    if (prev && !prev.Stop && prev.Type !== input.Type) {
      throw new UserError(`cannot update job from type "${prev.Type}" to "${input.Type}"; stop and purge it first`);
    }
    const job = copyJob(input);
    if (opts.preserveCounts && prev) preserveCounts(job, prev);
    if (prev && !prev.Stop && !jobSpecChanged(prev, job)) {
      // Nomad still evaluates an unchanged job again (it may have lost allocations); it keeps its version.
      const evaluation = evaluate(tx, prev, 'job-register', opts.evalPriority);
      refreshJobStatus(tx, prev.Namespace, prev.ID);
      return { job: prev, changed: false, evaluation };
    }

    job.Version = prev ? prev.Version + 1 : 0;
    job.CreateIndex = prev?.CreateIndex ?? tx.index;
    job.ModifyIndex = tx.index;
    job.JobModifyIndex = tx.index;
    job.SubmitTime = Date.now() * 1_000_000;
    job.Status = 'pending';
    job.Stop = false;
    job.Stable = false;
    job.NomadTokenID = opts.tokenAccessor ?? '';
    putJobVersion(tx, job);
    if (opts.submission) {
      const submission: JobSubmission = {
        Source: opts.submission.Source,
        Format: opts.submission.Format || 'hcl2',
        VariableFlags: opts.submission.VariableFlags ?? null,
        Variables: opts.submission.Variables ?? '',
        Namespace: job.Namespace,
        JobID: job.ID,
        Version: job.Version,
        JobModifyIndex: job.JobModifyIndex,
      };
      tx.put(JOB_SUBMISSIONS_TABLE, versionKey(job.Namespace, job.ID, job.Version), submission);
      pruneByPrefix(tx, JOB_SUBMISSIONS_TABLE, `${key}${SEP}`, SUBMISSIONS_KEPT);
    }
    touchSummary(tx, job);
    const evaluation = evaluate(tx, job, 'job-register', opts.evalPriority);
    refreshJobStatus(tx, job.Namespace, job.ID);
    return { job, changed: true, evaluation };
  });
  return { ...result, index };
}

/** Periodic and parameterized parents are never evaluated themselves; their children (dispatched ones keep the block) are. */
function evaluate(tx: WriteTx, job: Job, triggeredBy: string, priority = 0): Evaluation | undefined {
  if (job.Periodic !== null || (job.ParameterizedJob !== null && !job.Dispatched)) return undefined;
  return evaluateJob(tx, job, triggeredBy, { priority });
}

export function getJob(store: Store, namespace: string, id: string): Job | undefined {
  return store.get<Job>(JOBS_TABLE, jobKey(namespace, id));
}

/** Jobs of one namespace, or of all with `*`, ordered by namespace then ID (Nomad's table order). */
export function listJobs(store: Store, namespace: string, prefix = ''): Job[] {
  if (namespace === '*') return store.list<Job>(JOBS_TABLE).map((e) => e.value).filter((j) => j.ID.startsWith(prefix));
  return store.list<Job>(JOBS_TABLE, jobKey(namespace, prefix)).map((e) => e.value);
}

/** Newest first, as Nomad answers. */
export function jobVersions(store: Store, namespace: string, id: string): Job[] {
  return store.list<Job>(JOB_VERSIONS_TABLE, `${jobKey(namespace, id)}${SEP}`, { reverse: true }).map((e) => e.value);
}

export function jobSubmission(store: Store, namespace: string, id: string, version: number): JobSubmission | undefined {
  return store.get<JobSubmission>(JOB_SUBMISSIONS_TABLE, versionKey(namespace, id, version));
}

/**
 * Stops a job: without purge it stays, as a new version with Stop set, until garbage collection; with
 * purge it, its versions and its sources are removed at once.
 */
export interface StopOptions {
  purge?: boolean;
  evalPriority?: number;
  /** the job's tasks skip their shutdown_delay: their allocations are marked so the node knows */
  noShutdownDelay?: boolean;
}

export async function stopJob(store: Store, namespace: string, id: string, opts: StopOptions = {}): Promise<{ job: Job; index: number; evaluation?: Evaluation }> {
  const { purge = false, evalPriority = 0 } = opts;
  const { result, index } = await store.write((tx) => {
    tx.describe(WriteKind.JobDeregister);
    const key = jobKey(namespace, id);
    const prev = tx.get<Job>(JOBS_TABLE, key);
    if (!prev) throw new NotFound('job not found');
    if (opts.noShutdownDelay) {
      for (const alloc of allocsOfJob(tx, namespace, id)) {
        if (allocTerminal(alloc) || alloc.DesiredTransition.NoShutdownDelay) continue;
        putAlloc(tx, { ...alloc, DesiredTransition: { ...alloc.DesiredTransition, NoShutdownDelay: true }, ModifyIndex: tx.index }, alloc);
      }
    }
    if (purge) {
      deleteJobRecord(tx, namespace, id);
      for (const table of [JOB_VERSIONS_TABLE, JOB_SUBMISSIONS_TABLE]) {
        for (const k of tx.keys(table, `${key}${SEP}`)) tx.delete(table, k);
      }
      deleteSummary(tx, namespace, id);
      if (prev.ParentID !== '') countChild(tx, namespace, prev.ParentID, prev.Status, undefined);
      tx.delete(SCALING_EVENTS_TABLE, key);
      cancelActiveDeployment(tx, namespace, id, DEPLOYMENT_DESCRIPTIONS.stoppedJob);
      const evaluation = evaluate(tx, prev, 'job-deregister', evalPriority);
      cancelJobEvals(tx, namespace, id, { purged: true, exceptId: evaluation?.ID });
      return { job: prev, evaluation };
    }
    cancelActiveDeployment(tx, namespace, id, DEPLOYMENT_DESCRIPTIONS.stoppedJob);
    const job = copyJob(prev);
    job.Stop = true;
    job.Version = prev.Version + 1;
    job.ModifyIndex = tx.index;
    job.JobModifyIndex = tx.index;
    putJobVersion(tx, job);
    const evaluation = evaluate(tx, job, 'job-deregister', evalPriority);
    cancelJobEvals(tx, namespace, id, { purged: false });
    refreshJobStatus(tx, namespace, id);
    return { job: tx.get<Job>(JOBS_TABLE, key)!, evaluation };
  });
  return { ...result, index };
}
