/** The allocation record a placement adds to the plan; the applier fills in its indexes and times. */
import { randomUUID } from 'node:crypto';
import { emptyDesiredTransition, type AllocatedPortMapping, type AllocatedResources, type Allocation, type AllocMetric } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';

export interface NewAlloc {
  job: Job;
  group: TaskGroup;
  evalId: string;
  name: string;
  node: Node;
  ports: AllocatedPortMapping[] | null;
  metric: AllocMetric;
  previous: Allocation | null;
  tracker: Allocation['RescheduleTracker'];
}

export function newAllocation(p: NewAlloc): Allocation {
  return {
    ID: randomUUID(),
    Namespace: p.job.Namespace,
    EvalID: p.evalId,
    Name: p.name,
    NodeID: p.node.ID,
    NodeName: p.node.Name,
    JobID: p.job.ID,
    JobVersion: p.job.Version,
    JobModifyIndex: p.job.JobModifyIndex,
    TaskGroup: p.group.Name,
    AllocatedResources: allocatedResources(p.group, p.ports),
    DesiredStatus: 'run',
    DesiredDescription: '',
    DesiredTransition: emptyDesiredTransition(),
    ClientStatus: 'pending',
    ClientDescription: '',
    TaskStates: null,
    DeploymentID: '',
    PreviousAllocation: p.previous?.ID ?? '',
    NextAllocation: '',
    FollowupEvalID: '',
    RescheduleTracker: p.tracker,
    Metrics: p.metric,
    NetworkStatus: null,
    CreateIndex: 0,
    ModifyIndex: 0,
    AllocModifyIndex: 0,
    CreateTime: 0,
    ModifyTime: 0,
  };
}

function allocatedResources(group: TaskGroup, ports: AllocatedPortMapping[] | null): AllocatedResources {
  const out: AllocatedResources = {
    Tasks: {},
    TaskLifecycles: {},
    Shared: { DiskMB: group.EphemeralDisk?.SizeMB ?? 0, Networks: null, Ports: ports },
  };
  for (const t of group.Tasks) {
    out.Tasks[t.Name] = {
      Cpu: { CpuShares: t.Resources.CPU, ReservedCores: null },
      Memory: { MemoryMB: t.Resources.MemoryMB, MemoryMaxMB: t.Resources.MemoryMaxMB },
      Networks: null,
      Devices: null,
    };
    out.TaskLifecycles[t.Name] = t.Lifecycle;
  }
  return out;
}
