/** What an allocation takes on its node, and what a task group asks for before it is placed. */
import type { Allocation } from '../structs/allocation.js';
import type { Port } from '../structs/resources.js';
import type { TaskGroup } from '../structs/task-group.js';

export interface AllocUsage {
  cpu: number;
  memoryMB: number;
  diskMB: number;
  ports: number[];
}

/** Read from the allocation's own AllocatedResources, so a later job version cannot change the sum. */
export function allocUsage(a: Pick<Allocation, 'AllocatedResources'>): AllocUsage {
  const r = a.AllocatedResources;
  let cpu = 0;
  let memoryMB = 0;
  for (const t of Object.values(r?.Tasks ?? {})) {
    cpu += t.Cpu?.CpuShares ?? 0;
    memoryMB += t.Memory?.MemoryMB ?? 0;
  }
  return { cpu, memoryMB, diskMB: r?.Shared?.DiskMB ?? 0, ports: (r?.Shared?.Ports ?? []).map((p) => p.Value) };
}

export interface GroupAsk {
  cpu: number;
  memoryMB: number;
  diskMB: number;
  /** static ports: must be free on the node */
  reserved: Port[];
  /** dynamic ports: any free port of the node's dynamic range */
  dynamic: Port[];
}

/** Group networks and the legacy task-level ones alike: both give the allocation host ports. */
export function groupAsk(group: TaskGroup): GroupAsk {
  const networks = [...(group.Networks ?? []), ...group.Tasks.flatMap((t) => t.Resources.Networks ?? [])];
  const ask: GroupAsk = { cpu: 0, memoryMB: 0, diskMB: group.EphemeralDisk?.SizeMB ?? 0, reserved: [], dynamic: [] };
  for (const t of group.Tasks) {
    ask.cpu += t.Resources.CPU;
    ask.memoryMB += t.Resources.MemoryMB;
  }
  for (const n of networks) {
    ask.reserved.push(...(n.ReservedPorts ?? []));
    ask.dynamic.push(...(n.DynamicPorts ?? []));
  }
  return ask;
}
