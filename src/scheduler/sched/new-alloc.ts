/** The allocation record a placement adds to the plan; the applier fills in its indexes and times. */
import { randomUUID } from 'node:crypto';
import { zeroAllocation, type AllocatedPortMapping, type AllocatedResources, type Allocation, type AllocMetric } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';
import type { NetworkResource, Port } from '../structs/resources.js';

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
    ...zeroAllocation(),
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
    PreviousAllocation: p.previous?.ID ?? '',
    RescheduleTracker: p.tracker,
    Metrics: p.metric,
  };
}

/**
 * The group network as placed, as Nomad records it: the node's address, static ports as asked, dynamic
 * ports with the values they got. Clients tell static from dynamic ports by it.
 */
function sharedNetworks(group: TaskGroup, ports: AllocatedPortMapping[] | null): NetworkResource[] | null {
  const network = group.Networks?.[0];
  if (!network) return null;
  const byLabel = new Map((ports ?? []).map((p) => [p.Label, p.Value]));
  const assigned = (list: Port[] | null) => list?.map((p) => ({ ...p, Value: byLabel.get(p.Label) ?? p.Value })) ?? null;
  return [{ ...network, IP: ports?.[0]?.HostIP ?? network.IP, ReservedPorts: assigned(network.ReservedPorts), DynamicPorts: assigned(network.DynamicPorts) }];
}

function allocatedResources(group: TaskGroup, ports: AllocatedPortMapping[] | null): AllocatedResources {
  const out: AllocatedResources = {
    Tasks: {},
    TaskLifecycles: {},
    Shared: { DiskMB: group.EphemeralDisk?.SizeMB ?? 0, Networks: sharedNetworks(group, ports), Ports: ports },
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
