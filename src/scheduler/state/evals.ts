/**
 * Evaluations in the state store. Besides the records and a per-job index, small tables hold the work:
 * `evals-pending` (what the broker must run, by job), `evals-queued` (the same entries by the index at
 * which each was queued) and `evals-blocked` (waiting for capacity). The store is the queue's truth, so
 * any server process may add to it: the broker rebuilds its in-memory queue from `evals-pending` when it
 * starts, then reads from `evals-queued` only what was queued since it last looked.
 */
import type { Store, WriteTx } from '../../storage/store.js';
import { newEvaluation, type Evaluation } from '../structs/evaluation.js';
import type { Job } from '../structs/job.js';
import { jobKey, SEP } from './tables.js';

export const EVALS_TABLE = 'evals';
export const EVALS_BY_JOB_TABLE = 'evals-by-job';
export const EVALS_PENDING = 'evals-pending';
export const EVALS_BLOCKED = 'evals-blocked';
export const EVALS_QUEUED = 'evals-queued';


/** What the broker needs to order and hold back pending evaluations without reading each record. */
export interface PendingEntry {
  id: string;
  namespace: string;
  jobId: string;
  priority: number;
  createIndex: number;
  /** Unix ms before which the evaluation must not run; 0 = now */
  waitUntil: number;
  /** The index of the write that last queued it (absent on entries queued before `evals-queued` existed) */
  queuedIndex?: number;
}

const queueKey = (e: Pick<Evaluation, 'Namespace' | 'JobID' | 'ID'>) => `${jobKey(e.Namespace, e.JobID)}${SEP}${e.ID}`;
/** Zero-padded so that key order is index order. */
const padIndex = (index: number) => String(index).padStart(16, '0');
const queuedKey = (index: number, id: string) => `${padIndex(index)}${SEP}${id}`;

/** Writes an evaluation and files it in the queue its status calls for. */
export function putEval(tx: WriteTx, evaluation: Evaluation): void {
  tx.put(EVALS_TABLE, evaluation.ID, evaluation);
  tx.put(EVALS_BY_JOB_TABLE, queueKey(evaluation), evaluation.ID);
  const key = queueKey(evaluation);
  const queued = tx.get<PendingEntry>(EVALS_PENDING, key)?.queuedIndex;
  if (queued !== undefined) tx.delete(EVALS_QUEUED, queuedKey(queued, evaluation.ID));
  if (evaluation.Status === 'pending') {
    // Queued again at this index even if it was pending already, so the broker sees what changed.
    const entry: PendingEntry = {
      id: evaluation.ID,
      namespace: evaluation.Namespace,
      jobId: evaluation.JobID,
      priority: evaluation.Priority,
      createIndex: evaluation.CreateIndex,
      waitUntil: evaluation.WaitUntil ? Date.parse(evaluation.WaitUntil) : 0,
      queuedIndex: tx.index,
    };
    tx.put(EVALS_PENDING, key, entry);
    tx.put(EVALS_QUEUED, queuedKey(tx.index, evaluation.ID), entry);
  } else {
    tx.delete(EVALS_PENDING, key);
  }
  if (evaluation.Status === 'blocked') tx.put(EVALS_BLOCKED, key, evaluation.ID);
  else tx.delete(EVALS_BLOCKED, key);
}

/**
 * Creates and queues an evaluation of the job at the transaction's index: the one way register, stop,
 * node events, allocation failures and `job eval` ask the scheduler to look at a job again.
 */
export function evaluateJob(tx: WriteTx, job: Job, triggeredBy: string, opts: { priority?: number; extra?: Partial<Evaluation> } = {}): Evaluation {
  const evaluation = newEvaluation({
    namespace: job.Namespace,
    jobId: job.ID,
    jobType: job.Type,
    priority: opts.priority || job.Priority,
    triggeredBy,
    jobModifyIndex: job.JobModifyIndex,
    index: tx.index,
    extra: opts.extra,
  });
  putEval(tx, evaluation);
  return evaluation;
}

/** Changes fields of a stored evaluation (status moves it between queues). */
export function updateEval(tx: WriteTx, id: string, fields: Partial<Evaluation>): Evaluation | undefined {
  const prev = tx.get<Evaluation>(EVALS_TABLE, id);
  if (!prev) return undefined;
  const next: Evaluation = { ...prev, ...fields, ModifyIndex: tx.index, ModifyTime: Date.now() * 1_000_000 };
  putEval(tx, next);
  return next;
}

/**
 * A job keeps at most one blocked evaluation: a newer one supersedes the older (Nomad cancels the
 * duplicate), so capacity changes wake each job once.
 */
export function blockEval(tx: WriteTx, evaluation: Evaluation): void {
  for (const { value: id } of tx.list<string>(EVALS_BLOCKED, `${jobKey(evaluation.Namespace, evaluation.JobID)}${SEP}`)) {
    if (id !== evaluation.ID) updateEval(tx, id, { Status: 'canceled', StatusDescription: 'evaluation superseded by a newer blocked evaluation' });
  }
  putEval(tx, { ...evaluation, Status: 'blocked' });
}

/** Capacity changed (a node joined, allocations finished): every blocked evaluation runs again. */
export function unblockAll(tx: WriteTx): number {
  const blocked = tx.list<string>(EVALS_BLOCKED);
  for (const { value: id } of blocked) updateEval(tx, id, { Status: 'pending', StatusDescription: '' });
  return blocked.length;
}

/**
 * Cancels a job's blocked evaluations, and its queued ones too when the job was purged (a stopped job's
 * queued evaluations still run, and find it stopped). Nothing is left waiting for capacity for a job
 * that no longer wants any, so its status can become dead.
 */
export function cancelJobEvals(tx: WriteTx, namespace: string, jobId: string, opts: { purged: boolean; exceptId?: string }): void {
  const prefix = `${jobKey(namespace, jobId)}${SEP}`;
  for (const table of opts.purged ? [EVALS_PENDING, EVALS_BLOCKED] : [EVALS_BLOCKED]) {
    for (const key of tx.keys(table, prefix)) {
      const id = key.slice(prefix.length);
      if (id !== opts.exceptId) updateEval(tx, id, { Status: 'canceled', StatusDescription: opts.purged ? 'job was purged' : 'job was stopped' });
    }
  }
}

export function pendingEvals(store: Store): PendingEntry[] {
  return store.list<PendingEntry>(EVALS_PENDING).map((e) => e.value);
}

/**
 * Entries queued at an index above `after`, in index order. What was queued and has left the queue since
 * is not among them; whoever reads must still check an evaluation's status before running it.
 */
export function queuedSince(store: Store, after: number): PendingEntry[] {
  return store.list<PendingEntry>(EVALS_QUEUED, '', { start: padIndex(after + 1) }).map((e) => e.value);
}

/** The job's evaluations waiting to run. */
export function pendingEvalsOfJob(store: Store | WriteTx, namespace: string, jobId: string): PendingEntry[] {
  return store.list<PendingEntry>(EVALS_PENDING, `${jobKey(namespace, jobId)}${SEP}`).map((e) => e.value);
}

/** True while the job has evaluations waiting to run or waiting for capacity. */
export function jobHasOpenEvals(store: Store | WriteTx, namespace: string, jobId: string): boolean {
  const prefix = `${jobKey(namespace, jobId)}${SEP}`;
  return store.keys(EVALS_PENDING, prefix, { limit: 1 }).length > 0 || store.keys(EVALS_BLOCKED, prefix, { limit: 1 }).length > 0;
}

export function jobHadEvals(store: Store | WriteTx, namespace: string, jobId: string): boolean {
  return store.keys(EVALS_BY_JOB_TABLE, `${jobKey(namespace, jobId)}${SEP}`, { limit: 1 }).length > 0;
}

export function getEval(store: Store, id: string): Evaluation | undefined {
  return store.get<Evaluation>(EVALS_TABLE, id);
}

/** Evaluations of one namespace (or `*`), oldest first (by CreateIndex, then ID), as Nomad lists them. */
export function listEvals(store: Store, namespace: string): Evaluation[] {
  return store
    .list<Evaluation>(EVALS_TABLE)
    .map((e) => e.value)
    .filter((e) => namespace === '*' || e.Namespace === namespace)
    .sort((a, b) => a.CreateIndex - b.CreateIndex || (a.ID < b.ID ? -1 : 1));
}

/** A job's evaluations, newest first. */
export function evalsOfJob(store: Store | WriteTx, namespace: string, jobId: string): Evaluation[] {
  return store
    .list<string>(EVALS_BY_JOB_TABLE, `${jobKey(namespace, jobId)}${SEP}`)
    .map((e) => store.get<Evaluation>(EVALS_TABLE, e.value))
    .filter((e): e is Evaluation => e !== undefined)
    .sort((a, b) => b.CreateIndex - a.CreateIndex);
}

