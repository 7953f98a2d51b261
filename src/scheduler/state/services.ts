/**
 * Service registrations in svc's own registry (Nomad's `provider = "nomad"`), derived from allocations
 * rather than stored: an allocation that is placed and not finished has its job's group and task
 * services registered. Deriving them means a registration disappears in the same write that stops the
 * allocation, marks it lost when its node goes down, or garbage-collects it: no node has to report a
 * deregistration it may never get to send. A plain `service` block (Consul by default upstream) registers
 * here too, since svc has no Consul to hand it to.
 */
import type { Store } from '../../storage/store.js';
import type { Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Service } from '../structs/service.js';
import { ALLOCS_TABLE, allocJob, allocsByCreate, allocsOfJob } from './allocs.js';
import { getNode } from './nodes.js';

export interface ServiceRegistration {
  ID: string;
  ServiceName: string;
  Namespace: string;
  NodeID: string;
  Datacenter: string;
  JobID: string;
  AllocID: string;
  Tags: string[];
  Address: string;
  Port: number;
  CreateIndex: number;
  ModifyIndex: number;
}

/** The index blocking queries on registrations wait past: they change exactly when allocations do. */
export function servicesIndex(store: Store): number {
  return Math.max(1, store.tableIndex(ALLOCS_TABLE));
}

function registered(alloc: Allocation): boolean {
  return alloc.DesiredStatus === 'run' && (alloc.ClientStatus === 'pending' || alloc.ClientStatus === 'running');
}

/** Nomad's registration ID: `_nomad-task-<allocID>-<task, or "group">-<service>-<port label>`. */
export function registrationId(allocId: string, owner: string, service: Service): string {
  return `_nomad-task-${allocId}-${owner}-${service.Name}-${service.PortLabel}`;
}

function addressOf(alloc: Allocation, service: Service): { Address: string; Port: number } {
  const shared = alloc.AllocatedResources?.Shared;
  const port = service.PortLabel ? shared?.Ports?.find((p) => p.Label === service.PortLabel) : undefined;
  const numeric = /^\d+$/.test(service.PortLabel) ? Number(service.PortLabel) : 0;
  const networkIp = (shared?.Networks as Array<{ IP?: string }> | null | undefined)?.find((n) => n.IP)?.IP ?? '';
  return { Address: service.Address || port?.HostIP || networkIp, Port: port?.Value ?? numeric };
}

/** The registrations of one allocation, group services first, then each task's in the job's order. */
export function allocRegistrations(store: Store, alloc: Allocation, job: Job | null = allocJob(store, alloc)): ServiceRegistration[] {
  if (!job || !registered(alloc)) return [];
  const group = job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!group) return [];
  const owned: Array<{ owner: string; service: Service }> = [
    ...(group.Services ?? []).map((service) => ({ owner: 'group', service })),
    ...group.Tasks.flatMap((t) => (t.Services ?? []).map((service) => ({ owner: t.Name, service }))),
  ];
  const datacenter = getNode(store, alloc.NodeID)?.Datacenter ?? '';
  return owned.map(({ owner, service }) => ({
    ID: registrationId(alloc.ID, owner, service),
    ServiceName: service.Name,
    Namespace: alloc.Namespace,
    NodeID: alloc.NodeID,
    Datacenter: datacenter,
    JobID: alloc.JobID,
    AllocID: alloc.ID,
    Tags: service.Tags ?? [],
    ...addressOf(alloc, service),
    CreateIndex: alloc.CreateIndex,
    ModifyIndex: alloc.ModifyIndex,
  }));
}

export function jobRegistrations(store: Store, namespace: string, jobId: string): ServiceRegistration[] {
  return allocsOfJob(store, namespace, jobId).flatMap((a) => allocRegistrations(store, a));
}

/** Every registration, oldest allocation first; `namespace` '*' means all. */
export function allRegistrations(store: Store, namespace: string): ServiceRegistration[] {
  const out: ServiceRegistration[] = [];
  for (const a of allocsByCreate(store, {})) if (namespace === '*' || a.Namespace === namespace) out.push(...allocRegistrations(store, a));
  return out;
}
