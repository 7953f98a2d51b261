/** Jobs (scheduler API): register, stop, and what a job has (allocations, evaluations, summary). */
import type { ApiClient } from './http/client.js';
import type { AllocStub } from './allocs.js';
import type { Evaluation } from './evals.js';

export interface RegisterRequest {
  Job: unknown;
  Submission?: unknown;
  EnforceIndex?: boolean;
  JobModifyIndex?: number;
  EvalPriority?: number;
  PolicyOverride?: boolean;
  PreserveCounts?: boolean;
}

export interface RegisterResponse {
  EvalID: string;
  EvalCreateIndex: number;
  JobModifyIndex: number;
  Warnings: string;
  Index: number;
}

/** POST /v1/job/:id/dispatch */
export interface DispatchResponse {
  DispatchedJobID: string;
  /** empty when an idempotency token named an existing child */
  EvalID: string;
  EvalCreateIndex: number;
  JobCreateIndex: number;
  Index: number;
}

export interface DeregisterResponse {
  EvalID: string;
  EvalCreateIndex: number;
  JobModifyIndex: number;
  Index: number;
}

export interface JobSummary {
  JobID: string;
  Namespace: string;
  Summary: Record<string, { Queued: number; Complete: number; Failed: number; Running: number; Starting: number; Lost: number; Unknown: number }>;
  Children: { Pending: number; Running: number; Dead: number } | null;
}


const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});
export const jobPath = (id: string, suffix = '') => `/v1/job/${encodeURIComponent(id)}${suffix}`;

export async function registerJob(client: ApiClient, req: RegisterRequest, namespace?: string): Promise<RegisterResponse> {
  return (await client.scheduler<RegisterResponse>('POST', '/v1/jobs', { query: ns(namespace), body: req })).body;
}

export interface DeregisterOptions {
  purge?: boolean;
  global?: boolean;
  evalPriority?: number;
  noShutdownDelay?: boolean;
  namespace?: string;
}

export async function deregisterJob(client: ApiClient, id: string, opts: DeregisterOptions = {}): Promise<DeregisterResponse> {
  const query: Record<string, string | number | boolean> = { ...ns(opts.namespace) };
  if (opts.purge) query.purge = true;
  if (opts.global) query.global = true;
  if (opts.evalPriority) query.eval_priority = opts.evalPriority;
  if (opts.noShutdownDelay) query.no_shutdown_delay = true;
  return (await client.scheduler<DeregisterResponse>('DELETE', jobPath(id), { query })).body;
}

export async function jobAllocations(client: ApiClient, id: string, opts: { all?: boolean; namespace?: string } = {}): Promise<AllocStub[]> {
  const query: Record<string, string | boolean> = { ...ns(opts.namespace) };
  if (opts.all) query.all = true;
  return (await client.scheduler<AllocStub[]>('GET', jobPath(id, '/allocations'), { query })).body ?? [];
}

export async function jobEvaluations(client: ApiClient, id: string, namespace?: string): Promise<Evaluation[]> {
  return (await client.scheduler<Evaluation[]>('GET', jobPath(id, '/evaluations'), { query: ns(namespace) })).body ?? [];
}

export async function jobSummary(client: ApiClient, id: string, namespace?: string): Promise<JobSummary> {
  return (await client.scheduler<JobSummary>('GET', jobPath(id, '/summary'), { query: ns(namespace) })).body;
}

/** Creates a new evaluation of the job (`svc job eval`); -force-reschedule reschedules failed allocations now. */
export async function evaluateJob(client: ApiClient, id: string, opts: { forceReschedule?: boolean; namespace?: string } = {}): Promise<RegisterResponse> {
  return (
    await client.scheduler<RegisterResponse>('POST', jobPath(id, '/evaluate'), {
      query: ns(opts.namespace),
      body: { JobID: id, EvalOptions: { ForceReschedule: opts.forceReschedule === true } },
    })
  ).body;
}
