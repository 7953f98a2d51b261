/** Evaluations (scheduler API): typed calls for the CLI and the tests. */
import type { ApiClient } from './http/client.js';
import type { AllocMetric, AllocStub } from './allocs.js';

/** An evaluation as GET /v1/evaluation/:id answers (zero fields are omitted on the wire). */
export interface Evaluation {
  ID: string;
  Namespace: string;
  Priority: number;
  Type: string;
  TriggeredBy: string;
  JobID: string;
  JobModifyIndex?: number;
  NodeID?: string;
  DeploymentID?: string;
  Status: 'pending' | 'blocked' | 'complete' | 'failed' | 'canceled' | string;
  StatusDescription?: string;
  NextEval?: string;
  PreviousEval?: string;
  BlockedEval?: string;
  FailedTGAllocs?: Record<string, AllocMetric> | null;
  QueuedAllocations?: Record<string, number> | null;
  QuotaLimitReached?: string;
  /** RFC3339 */
  WaitUntil?: string;
  /** nanoseconds */
  Wait?: number;
  CreateIndex: number;
  ModifyIndex: number;
  /** Unix nanoseconds */
  CreateTime?: number;
  ModifyTime?: number;
}

export interface EvalListOptions {
  prefix?: string;
  job?: string;
  status?: string;
  filter?: string;
  perPage?: number;
  nextToken?: string;
  namespace?: string;
}

const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});

export async function listEvals(client: ApiClient, opts: EvalListOptions = {}): Promise<{ evals: Evaluation[]; nextToken?: string }> {
  const query: Record<string, string | number> = { ...ns(opts.namespace) };
  if (opts.prefix) query.prefix = opts.prefix;
  if (opts.job) query.job = opts.job;
  if (opts.status) query.status = opts.status;
  if (opts.filter) query.filter = opts.filter;
  if (opts.perPage) query.per_page = opts.perPage;
  if (opts.nextToken) query.next_token = opts.nextToken;
  const { body, nextToken } = await client.scheduler<Evaluation[]>('GET', '/v1/evaluations', { query });
  return { evals: body ?? [], nextToken: nextToken || undefined };
}

export async function getEval(client: ApiClient, id: string, namespace?: string): Promise<Evaluation> {
  return (await client.scheduler<Evaluation>('GET', `/v1/evaluation/${encodeURIComponent(id)}`, { query: ns(namespace) })).body;
}

export async function evalAllocations(client: ApiClient, id: string, namespace?: string): Promise<AllocStub[]> {
  return (await client.scheduler<AllocStub[]>('GET', `/v1/evaluation/${encodeURIComponent(id)}/allocations`, { query: ns(namespace) })).body ?? [];
}
