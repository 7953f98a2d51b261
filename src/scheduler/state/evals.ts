/** Evaluations in the state store, with a per-job index kept in the same transaction. */
import type { Store, WriteTx } from '../../storage/store.js';
import type { Evaluation } from '../structs/evaluation.js';
import { jobKey } from './tables.js';

export const EVALS_TABLE = 'evals';
export const EVALS_BY_JOB_TABLE = 'evals-by-job';

export function putEval(tx: WriteTx, evaluation: Evaluation): void {
  tx.put(EVALS_TABLE, evaluation.ID, evaluation);
  tx.put(EVALS_BY_JOB_TABLE, `${jobKey(evaluation.Namespace, evaluation.JobID)}\u0000${evaluation.ID}`, evaluation.ID);
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

export function evalsOfJob(store: Store, namespace: string, jobId: string): Evaluation[] {
  return store
    .list<string>(EVALS_BY_JOB_TABLE, `${jobKey(namespace, jobId)}\u0000`)
    .map((e) => store.get<Evaluation>(EVALS_TABLE, e.value))
    .filter((e): e is Evaluation => e !== undefined)
    .sort((a, b) => b.CreateIndex - a.CreateIndex);
}
