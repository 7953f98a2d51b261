/** Allocations (scheduler API): typed calls for the CLI and the tests. */
import type { ApiClient } from './http/client.js';
import type {
  AllocatedPortMapping as AllocatedPort,
  AllocatedResources,
  AllocatedTaskResources,
  AllocMetric as AllocMetricRecord,
  Allocation as AllocationRecord,
  DesiredTransition,
  TaskEvent as TaskEventRecord,
  TaskState as TaskStateRecord,
} from '../scheduler/structs/allocation.js';
import type { Job } from '../scheduler/structs/job.js';
import type { Resources } from '../scheduler/structs/resources.js';
import type { Task } from '../scheduler/structs/task.js';
import type { TaskGroup } from '../scheduler/structs/task-group.js';
import type { AllocStubRecord } from '../scheduler/state/alloc-stubs.js';

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

/**
 * The list stub (GET /v1/allocations, /v1/job/:id/allocations, /v1/evaluation/:id/allocations): the stored
 * stub with the type of the job it runs instead of the job copy's index; its health in a deployment, its
 * reschedules and the transitions asked of it are read only where present.
 */
export type AllocStub = Omit<AllocStubRecord, 'JobModifyIndex' | 'TaskStates' | 'DesiredTransition' | 'DeploymentStatus' | 'RescheduleTracker'> & {
  JobType: string;
  TaskStates: Record<string, TaskState> | null;
  DesiredTransition?: Partial<DesiredTransition> | null;
} & Partial<Pick<AllocStubRecord, 'DeploymentStatus' | 'RescheduleTracker'>>;

/** A struct of the job read by its name, its other fields possibly absent. */
type Named<T extends { Name: string }> = Pick<T, 'Name'> & Partial<T>;

/**
 * GET /v1/allocation/:id: the scheduler's allocation with its zero fields omitted (so any may be absent),
 * the job version it runs, and the legacy per-task and total resources that existing CLIs read; what a
 * task was given is read figure by figure.
 */
export type Allocation = Partial<Omit<AllocationRecord, 'JobModifyIndex' | 'TaskStates' | 'DesiredTransition' | 'AllocatedResources' | 'Metrics'>> &
  Partial<AllocStub> & {
    ID: string;
    Job?: Partial<Omit<Job, 'TaskGroups'>> & { TaskGroups?: Array<Named<Omit<TaskGroup, 'Tasks'>> & { Tasks: Named<Task>[] }> };
    AllocatedResources?: Partial<
      Omit<AllocatedResources, 'Tasks' | 'Shared'> & {
        Tasks: Record<string, { [R in keyof AllocatedTaskResources]?: Partial<AllocatedTaskResources[R]> }>;
        Shared: Partial<AllocatedResources['Shared']>;
      }
    >;
    TaskResources?: Record<string, Partial<Resources>>;
    Resources?: Partial<Pick<Resources, 'CPU' | 'MemoryMB' | 'DiskMB' | 'Networks'>>;
    Metrics?: AllocMetric;
  };

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
