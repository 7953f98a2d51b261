/**
 * Allocations as the API shows them: the list stub, which always carries every
 * field, and the full record, which like Nomad's omits zero-valued fields and carries the job version
 * it runs plus the legacy per-task Resources that existing CLIs read.
 */
import type { Store } from '../../storage/store.js';
import { allocJob } from '../state/allocs.js';
import type { AllocStubRecord } from '../state/alloc-stubs.js';
import type { Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';

/** Looks up job copies once per request: a page of 1,000 allocations of one job reads one job. */
export function jobCache(store: Store): (alloc: Allocation) => Job | null {
  const cache = new Map<string, Job | null>();
  return (alloc) => {
    const key = `${alloc.Namespace}\u0000${alloc.JobID}\u0000${alloc.JobModifyIndex}`;
    let job = cache.get(key);
    if (job === undefined) {
      job = allocJob(store, alloc);
      cache.set(key, job);
    }
    return job;
  };
}

/**
 * The type of the job version each allocation runs, looked up once per version and request; only the
 * type string is kept, so a listing of many jobs' allocations holds no jobs.
 */
export function jobTypeCache(store: Store): (alloc: Pick<Allocation, 'Namespace' | 'JobID' | 'JobModifyIndex'>) => string {
  const cache = new Map<string, string>();
  return (alloc) => {
    const key = `${alloc.Namespace}\u0000${alloc.JobID}\u0000${alloc.JobModifyIndex}`;
    let type = cache.get(key);
    if (type === undefined) {
      type = allocJob(store, alloc)?.Type ?? '';
      cache.set(key, type);
    }
    return type;
  };
}

/** Nomad's AllocListStub, from the stored stub (or the full record, which has every stub field). */
export function allocStub(alloc: AllocStubRecord & Partial<Pick<Allocation, 'AllocatedResources'>>, jobType: string, opts: { resources: boolean; taskStates: boolean }) {
  return {
    ID: alloc.ID,
    EvalID: alloc.EvalID,
    Name: alloc.Name,
    Namespace: alloc.Namespace,
    NodeID: alloc.NodeID,
    NodeName: alloc.NodeName,
    JobID: alloc.JobID,
    JobType: jobType,
    JobVersion: alloc.JobVersion,
    TaskGroup: alloc.TaskGroup,
    ...(opts.resources ? { AllocatedResources: alloc.AllocatedResources } : {}),
    DesiredStatus: alloc.DesiredStatus,
    DesiredDescription: alloc.DesiredDescription,
    ClientStatus: alloc.ClientStatus,
    ClientDescription: alloc.ClientDescription,
    DesiredTransition: alloc.DesiredTransition,
    TaskStates: opts.taskStates ? alloc.TaskStates : null,
    DeploymentStatus: alloc.DeploymentStatus ?? null,
    FollowupEvalID: alloc.FollowupEvalID,
    NextAllocation: alloc.NextAllocation,
    RescheduleTracker: alloc.RescheduleTracker,
    PreemptedAllocations: null,
    PreemptedByAllocation: '',
    CreateIndex: alloc.CreateIndex,
    ModifyIndex: alloc.ModifyIndex,
    CreateTime: alloc.CreateTime,
    ModifyTime: alloc.ModifyTime,
  };
}

/** Nomad's legacy Resources / TaskResources, derived from the job's tasks. */
function legacyResources(alloc: Allocation, job: Job | null) {
  const group = job?.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!group) return {};
  const TaskResources: Record<string, unknown> = {};
  let cpu = 0;
  let mem = 0;
  for (const t of group.Tasks) {
    TaskResources[t.Name] = { ...t.Resources, DiskMB: 0 };
    cpu += t.Resources.CPU;
    mem += t.Resources.MemoryMB;
  }
  return { Resources: { CPU: cpu, MemoryMB: mem, DiskMB: group.EphemeralDisk.SizeMB, Networks: group.Networks }, TaskResources };
}

const isZero = (v: unknown) => v === '' || v === 0 || v === false || v === null || v === undefined;

/** The full allocation: zero-valued fields dropped, as Nomad's `omitempty` encoding does. */
export function allocFull(alloc: Allocation, job: Job | null) {
  const { JobModifyIndex: _internal, ...rest } = alloc;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...rest, Job: job, ...legacyResources(alloc, job) })) if (!isZero(v)) out[k] = v;
  return out;
}
