/** Allocations (scheduler API): typed calls for the CLI and the tests. */
import type { ApiClient } from './http/client.js';
import type {
  AllocatedPortMapping as AllocatedPort,
  AllocMetric as AllocMetricRecord,
  TaskEvent as TaskEventRecord,
  TaskState as TaskStateRecord,
} from '../scheduler/structs/allocation.js';

export type { AllocatedPort };

/**
 * The scheduler's task event with only Type and Time required: readers look the legacy fields up by name
 * when DisplayMessage is empty, and take any of them as possibly missing.
 */
export type TaskEvent = Pick<TaskEventRecord, 'Type' | 'Time'> & Partial<TaskEventRecord> & { [legacy: string]: unknown };

/** The scheduler's task state, read with the same leniency: any state name, no events, no pause. */
export type TaskState = Omit<TaskStateRecord, 'State' | 'Events' | 'Paused'> & {
  State: TaskStateRecord['State'] | string;
  Events: TaskEvent[] | null;
  Paused?: string;
};

/** Why a placement failed, or how it was found: the scheduler's AllocMetric, any field of it possibly absent. */
export type AllocMetric = Partial<AllocMetricRecord>;

/** The list stub (GET /v1/allocations, /v1/job/:id/allocations, /v1/evaluation/:id/allocations). */
export interface AllocStub {
  ID: string;
  EvalID: string;
  Name: string;
  Namespace: string;
  NodeID: string;
  NodeName: string;
  JobID: string;
  JobType: string;
  JobVersion: number;
  TaskGroup: string;
  DesiredStatus: string;
  DesiredDescription: string;
  ClientStatus: string;
  ClientDescription: string;
  DesiredTransition?: { Migrate?: boolean | null } | null;
  TaskStates: Record<string, TaskState> | null;
  FollowupEvalID: string;
  NextAllocation: string;
  CreateIndex: number;
  ModifyIndex: number;
  /** Unix nanoseconds */
  CreateTime: number;
  ModifyTime: number;
}

/** GET /v1/allocation/:id: the stub's fields (zero ones omitted) plus the job, resources and metrics. */
export interface Allocation extends Partial<AllocStub> {
  ID: string;
  Job?: { Version?: number; TaskGroups?: Array<{ Name: string; Tasks: Array<{ Name: string; Lifecycle?: { Hook: string; Sidecar?: boolean } | null }> }> } & Record<string, unknown>;
  AllocatedResources?: {
    Tasks?: Record<string, { Cpu?: { CpuShares?: number }; Memory?: { MemoryMB?: number; MemoryMaxMB?: number } }>;
    TaskLifecycles?: Record<string, { Hook: string; Sidecar?: boolean } | null> | null;
    Shared?: { DiskMB?: number; Ports?: AllocatedPort[] | null; Networks?: Array<Record<string, unknown>> | null };
  };
  TaskResources?: Record<string, { CPU?: number; MemoryMB?: number; MemoryMaxMB?: number }>;
  Resources?: { CPU?: number; MemoryMB?: number; DiskMB?: number };
  Metrics?: AllocMetric;
  DeploymentID?: string;
  DeploymentStatus?: { Healthy?: boolean | null; Canary?: boolean } | null;
  PreviousAllocation?: string;
  RescheduleTracker?: { Events?: unknown[] | null } | null;
}

const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});

/** Allocations whose ID starts with `prefix` (an even number of hex characters; dashes allowed). */
export async function listAllocs(client: ApiClient, opts: { prefix?: string; namespace?: string; filter?: string } = {}): Promise<AllocStub[]> {
  const query: Record<string, string> = { ...ns(opts.namespace) };
  if (opts.prefix) query.prefix = opts.prefix;
  if (opts.filter) query.filter = opts.filter;
  return (await client.scheduler<AllocStub[]>('GET', '/v1/allocations', { query })).body ?? [];
}

const allocPath = (id: string, suffix = '') => `/v1/allocation/${encodeURIComponent(id)}${suffix}`;

export async function getAlloc(client: ApiClient, id: string, namespace?: string): Promise<Allocation> {
  return (await client.scheduler<Allocation>('GET', allocPath(id), { query: ns(namespace) })).body;
}

export async function stopAlloc(client: ApiClient, id: string, opts: { noShutdownDelay?: boolean; namespace?: string } = {}): Promise<{ EvalID: string; Index: number }> {
  const query: Record<string, string | boolean> = { ...ns(opts.namespace) };
  if (opts.noShutdownDelay) query.no_shutdown_delay = true;
  return (await client.scheduler<{ EvalID: string; Index: number }>('POST', allocPath(id, '/stop'), { query })).body;
}

export async function signalAlloc(client: ApiClient, id: string, signal: string, task?: string, namespace?: string): Promise<void> {
  await client.scheduler('POST', `/v1/client/allocation/${encodeURIComponent(id)}/signal`, { query: ns(namespace), body: { Signal: signal, Task: task ?? '' } });
}

export async function restartAlloc(client: ApiClient, id: string, opts: { task?: string; allTasks?: boolean; namespace?: string } = {}): Promise<void> {
  await client.scheduler('POST', `/v1/client/allocation/${encodeURIComponent(id)}/restart`, {
    query: ns(opts.namespace),
    body: { TaskName: opts.task ?? '', AllTasks: opts.allTasks === true },
  });
}
