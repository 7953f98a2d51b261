/** A job's scale status and scaling requests (/v1/job/:id/scale). */
import type { ApiClient } from './http/client.js';
import type { RegisterResponse } from './jobs.js';
import { jobPath } from './jobs.js';

export type { ScalingEvent } from '../scheduler/state/scaling.js';
import type { ScalingEvent } from '../scheduler/state/scaling.js';

export interface ScaleStatus {
  JobID: string;
  Namespace: string;
  JobCreateIndex: number;
  JobModifyIndex: number;
  JobStopped: boolean;
  TaskGroups: Record<string, { Desired: number; Placed: number; Running: number; Healthy: number; Unhealthy: number; Events: ScalingEvent[] | null }>;
}

export interface ScaleRequest {
  Count?: number;
  Target: { Group: string };
  Message?: string;
  Error?: boolean;
  Meta?: Record<string, unknown>;
  EnforceIndex?: boolean;
  JobModifyIndex?: number;
}

const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});

export async function jobScaleStatus(client: ApiClient, id: string, namespace?: string): Promise<ScaleStatus> {
  return (await client.scheduler<ScaleStatus>('GET', jobPath(id, '/scale'), { query: ns(namespace) })).body;
}

/** EvalID and EvalCreateIndex are absent when the count did not change. */
export async function scaleJob(client: ApiClient, id: string, req: ScaleRequest, namespace?: string): Promise<Partial<RegisterResponse> & { JobModifyIndex: number; Warnings: string }> {
  return (await client.scheduler<Partial<RegisterResponse> & { JobModifyIndex: number; Warnings: string }>('POST', jobPath(id, '/scale'), { query: ns(namespace), body: req })).body;
}
