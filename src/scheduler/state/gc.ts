/**
 * Garbage collection of the scheduler's state, as Nomad's core scheduler does it: terminal evaluations
 * with their finished allocations, terminal deployments, and dead jobs with everything of theirs, once
 * each has been finished for longer than its threshold (Nomad's defaults below). `PUT /v1/system/gc`
 * collects with every threshold at zero.
 *
 * A batch job's evaluations and allocations are its history (`svc job status` shows what ran): they stay
 * while the job does, and go with it. A job's age is that of its last activity (its evaluations,
 * allocations and deployments), so a dead job is kept for the threshold after its last change.
 */
import type { Store, WriteTx } from '../../storage/store.js';
import { clientTerminal, type Allocation } from '../structs/allocation.js';
import { evalTerminal, type Evaluation } from '../structs/evaluation.js';
import type { Deployment } from '../structs/deployment.js';
import type { Job } from '../structs/job.js';
import { ALLOCS_BY_JOB, ALLOC_JOBS, allocsOfEval, allocsOfJob, countChild, deleteAlloc, deleteSummary } from './allocs.js';
import { DEPLOYMENTS_BY_JOB, DEPLOYMENTS_TABLE, deleteDeployment } from './deployments.js';
import { EVALS_BY_JOB_TABLE, EVALS_TABLE, evalsOfJob } from './evals.js';
import { nextTurn, SCAN_BATCH, scanTable } from './scan.js';
import { JOB_SUBMISSIONS_TABLE } from './jobs.js';
import { JOBS_TABLE, JOB_VERSIONS_TABLE, SCALING_EVENTS_TABLE, jobKey, SEP } from './tables.js';
import { deleteJobRecord, JOB_STUBS, type JobStubRecord } from './job-stubs.js';

const MINUTE_NS = 60 * 1e9;
const HOUR_NS = 60 * MINUTE_NS;

/** Nomad's server defaults: job_gc_threshold, eval_gc_threshold, deployment_gc_threshold. */
export const GC_THRESHOLDS_NS = { job: 4 * HOUR_NS, eval: HOUR_NS, deployment: HOUR_NS };

export interface GcOptions {
  /** Unix ns */
  now: number;
  /** collect whatever is finished, whatever its age (`PUT /v1/system/gc`) */
  force?: boolean;
}

export interface GcResult {
  jobs: number;
  evals: number;
  allocs: number;
  deployments: number;
}

/** Finished for good: the client is done with it, or it never ran and never will. */
function allocFinished(a: Allocation): boolean {
  return clientTerminal(a.ClientStatus) || (a.DesiredStatus !== 'run' && a.ClientStatus === 'pending');
}

const deploymentTerminal = (d: Deployment) => d.Status === 'successful' || d.Status === 'failed' || d.Status === 'cancelled';

const isBatch = (type: string) => type === 'batch' || type === 'sysbatch';

function deleteEval(tx: WriteTx, e: Evaluation): void {
  tx.delete(EVALS_TABLE, e.ID);
  tx.delete(EVALS_BY_JOB_TABLE, `${jobKey(e.Namespace, e.JobID)}${SEP}${e.ID}`);
}

function deleteJobRecords(tx: WriteTx, job: Job): void {
  const key = jobKey(job.Namespace, job.ID);
  if (job.ParentID !== '') countChild(tx, job.Namespace, job.ParentID, job.Status, undefined);
  deleteJobRecord(tx, job.Namespace, job.ID);
  for (const table of [JOB_VERSIONS_TABLE, JOB_SUBMISSIONS_TABLE, ALLOC_JOBS]) {
    for (const k of tx.keys(table, `${key}${SEP}`)) tx.delete(table, k);
  }
  tx.delete(SCALING_EVENTS_TABLE, key);
  deleteSummary(tx, job.Namespace, job.ID);
}

/** The newest change of anything belonging to the job, in Unix ns. */
function lastActivity(job: Job | undefined, evals: Evaluation[], allocs: Allocation[], deployments: Deployment[]): number {
  return Math.max(job?.SubmitTime ?? 0, ...evals.map((e) => e.ModifyTime), ...allocs.map((a) => a.ModifyTime), ...deployments.map((d) => d.ModifyTime));
}

/** `<namespace>\0<job>` of a by-job index key `<namespace>\0<job>\0<rest>`. */
function jobOfIndexKey(key: string): string {
  return key.slice(0, key.indexOf(SEP, key.indexOf(SEP) + 1));
}

/** What one job's collection removes; decided from reads alone. */
interface Collection {
  /** the job's record goes too (a dead job, or what a purge left behind) */
  job: Job | undefined;
  whole: boolean;
  allocs: Allocation[];
  evals: Evaluation[];
  deployments: Deployment[];
}

const isEmpty = (c: Collection) => !c.whole && c.allocs.length === 0 && c.evals.length === 0 && c.deployments.length === 0;

function decide(state: Store | WriteTx, key: string, opts: GcOptions): Collection {
  const olderThan = (ns: number, threshold: number) => opts.force || opts.now - ns >= threshold;
  const [namespace, jobId] = key.split(SEP);
  const job = state.get<Job>(JOBS_TABLE, key);
  const evals = evalsOfJob(state, namespace, jobId);
  const allocs = allocsOfJob(state, namespace, jobId);
  const deployments = state
    .list<string>(DEPLOYMENTS_BY_JOB, `${key}${SEP}`)
    .map((e) => state.get<Deployment>(DEPLOYMENTS_TABLE, e.value))
    .filter((d): d is Deployment => d !== undefined);
  const everythingDone = evals.every((e) => evalTerminal(e.Status)) && allocs.every(allocFinished) && deployments.every(deploymentTerminal);
  // A dead job, or what a purge left behind: it all goes together.
  const jobGone = job === undefined || job.Status === 'dead';
  if (jobGone && everythingDone && olderThan(lastActivity(job, evals, allocs, deployments), GC_THRESHOLDS_NS.job)) {
    return { job, whole: true, allocs, evals, deployments };
  }
  const out: Collection = { job, whole: false, allocs: [], evals: [], deployments: [] };
  if (!job) return out;
  // A live batch job keeps its history.
  if (!isBatch(job.Type)) {
    for (const e of evals) {
      if (!evalTerminal(e.Status) || !olderThan(e.ModifyTime, GC_THRESHOLDS_NS.eval)) continue;
      const own = allocsOfEval(state, e.ID);
      if (!own.every((a) => allocFinished(a) && olderThan(a.ModifyTime, GC_THRESHOLDS_NS.eval))) continue;
      out.allocs.push(...own);
      out.evals.push(e);
    }
  }
  const referenced = new Set(allocs.filter((a) => !allocFinished(a)).map((a) => a.DeploymentID));
  for (const d of deployments) {
    if (!deploymentTerminal(d) || referenced.has(d.ID) || !olderThan(d.ModifyTime, GC_THRESHOLDS_NS.deployment)) continue;
    out.deployments.push(d);
  }
  return out;
}

/**
 * Collects what is old enough, one job at a time. What a job's collection would remove is decided from
 * plain reads first, so a job with nothing to collect costs no write (a GC pass over thousands of live
 * jobs was thousands of durable transactions); a job with something to collect gets a transaction of its
 * own, which decides again on what it reads, so the store is never held for long and nothing changed
 * meanwhile is removed. Jobs are found through their evaluations too, so the leftovers of purged jobs go
 * as well.
 */
export async function collectGarbage(store: Store, opts: GcOptions): Promise<GcResult> {
  const result: GcResult = { jobs: 0, evals: 0, allocs: 0, deployments: 0 };
  // The jobs to look at come from the by-job indexes' keys and the job stubs, in batches with a turn of
  // the event loop between them: no evaluation, allocation or job is decoded to find them.
  const jobKeys = new Set<string>();
  let visited = 0;
  const breathe = async () => {
    if (++visited % SCAN_BATCH === 0) await nextTurn();
  };
  for (const table of [EVALS_BY_JOB_TABLE, ALLOCS_BY_JOB, DEPLOYMENTS_BY_JOB]) {
    for (const { key } of scanTable(store, table)) {
      jobKeys.add(jobOfIndexKey(key));
      await breathe();
    }
  }
  for (const { value } of scanTable<JobStubRecord>(store, JOB_STUBS)) {
    if (value.Status === 'dead') jobKeys.add(jobKey(value.Namespace, value.ID));
    await breathe();
  }

  for (const key of jobKeys) {
    await breathe();
    if (isEmpty(decide(store, key, opts))) continue;
    // Counted from what the write committed, not while its function runs: a write that fails counts nothing.
    const { result: c } = await store.write((tx) => {
      const c = decide(tx, key, opts);
      for (const a of c.allocs) deleteAlloc(tx, a);
      for (const e of c.evals) deleteEval(tx, e);
      for (const d of c.deployments) deleteDeployment(tx, d);
      if (c.whole && c.job) deleteJobRecords(tx, c.job);
      return c;
    });
    result.jobs += c.whole && c.job ? 1 : 0;
    result.allocs += c.allocs.length;
    result.evals += c.evals.length;
    result.deployments += c.deployments.length;
  }
  return result;
}
