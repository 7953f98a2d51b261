/** The scheduler's dry run of a job (POST /v1/job/:id/plan). */
import type { ApiClient } from './http/client.js';
import type { Evaluation } from './evals.js';
import type { AllocMetric } from './allocs.js';
import type { JobDiff } from '../scheduler/structs/diff.js';
import { jobPath } from './jobs.js';

export type { DesiredUpdates } from '../scheduler/sched/types.js';
import type { DesiredUpdates } from '../scheduler/sched/types.js';

export interface PlanResponse {
  Annotations: { DesiredTGUpdates: Record<string, DesiredUpdates> | null; PreemptedAllocs: unknown[] | null } | null;
  FailedTGAllocs: Record<string, AllocMetric> | null;
  JobModifyIndex: number;
  CreatedEvals: Evaluation[] | null;
  Diff: JobDiff | null;
  /** RFC 3339; the zero time when the job is not periodic */
  NextPeriodicLaunch: string;
  Warnings: string;
  Index: number;
}

export async function planJob(client: ApiClient, job: { ID?: unknown }, opts: { diff: boolean; policyOverride: boolean; namespace?: string }): Promise<PlanResponse> {
  const body = { Job: job, Diff: opts.diff, ...(opts.policyOverride ? { PolicyOverride: true } : {}) };
  const query = opts.namespace ? { namespace: opts.namespace } : {};
  return (await client.scheduler<PlanResponse>('POST', jobPath(String(job.ID ?? ''), '/plan'), { query, body })).body;
}
