/**
 * Service registrations as records of their own, written in the same write as the allocation change
 * that registers or deregisters them: what the event stream's Service topic is made of (Nomad's
 * ServiceRegistration and ServiceDeregistration events). The registry's reads derive registrations from
 * allocations (services.ts); these rows exist so that a write carries each registration as it began or
 * ended, which an allocation's record alone cannot tell a follower of the store's log. A row stays, marked
 * no longer live, until its allocation is garbage-collected, which deletes it without an event, as
 * Nomad's garbage collection of registrations sends none.
 */
import type { WriteTx } from '../../storage/store.js';
import type { Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Service } from '../structs/service.js';
import { SEP } from './tables.js';

export const SERVICE_REGISTRATIONS = 'service-registrations';

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

/** A row of SERVICE_REGISTRATIONS, at `<allocation ID><SEP><registration ID>`. */
export interface RegistrationRow {
  live: boolean;
  service: ServiceRegistration;
}

/** Placed and not finished: the allocation's services are registered. */
export function registered(alloc: Allocation): boolean {
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

/** The services the allocation's group and tasks declare, group services first, then each task's in the job's order. */
function declared(alloc: Allocation, job: Job | null): Array<{ owner: string; service: Service }> {
  const group = job?.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!group) return [];
  return [...(group.Services ?? []).map((service) => ({ owner: 'group', service })), ...group.Tasks.flatMap((t) => (t.Services ?? []).map((service) => ({ owner: t.Name, service })))];
}

/** The registrations the allocation has while registered, whatever its status now. */
export function registrationsOf(alloc: Allocation, job: Job | null, datacenter: (nodeId: string) => string): ServiceRegistration[] {
  const owned = declared(alloc, job);
  if (owned.length === 0) return [];
  const dc = datacenter(alloc.NodeID);
  return owned.map(({ owner, service }) => ({
    ID: registrationId(alloc.ID, owner, service),
    ServiceName: service.Name,
    Namespace: alloc.Namespace,
    NodeID: alloc.NodeID,
    Datacenter: dc,
    JobID: alloc.JobID,
    AllocID: alloc.ID,
    Tags: service.Tags ?? [],
    ...addressOf(alloc, service),
    CreateIndex: alloc.CreateIndex,
    ModifyIndex: alloc.ModifyIndex,
  }));
}

export interface RegistrationLookups {
  job: (alloc: Allocation) => Job | null;
  datacenter: (nodeId: string) => string;
}

/**
 * Writes the rows an allocation's change registers or deregisters: all its registrations when it
 * becomes registered (or, registered, moves to another job version or node: Nomad's client registers
 * the services again then), none left live when it stops. A change that leaves it as it was writes nothing.
 */
export function writeRegistrationRows(tx: WriteTx, alloc: Allocation, prev: Allocation | undefined, lookups: RegistrationLookups): void {
  const was = prev !== undefined && registered(prev);
  const now = registered(alloc);
  if (!was && !now) return;
  if (was && now && prev.JobModifyIndex === alloc.JobModifyIndex && prev.NodeID === alloc.NodeID) return;
  const current = now ? registrationsOf(alloc, lookups.job(alloc), lookups.datacenter) : [];
  const kept = new Set(current.map((r) => r.ID));
  const put = (service: ServiceRegistration, live: boolean) => tx.put(SERVICE_REGISTRATIONS, `${alloc.ID}${SEP}${service.ID}`, { live, service: { ...service, ModifyIndex: tx.index } } satisfies RegistrationRow);
  for (const service of current) put(service, true);
  if (was) for (const service of registrationsOf(prev, lookups.job(prev), lookups.datacenter)) if (!kept.has(service.ID)) put(service, false);
}

/** Garbage collection of an allocation: its rows go, and no event says so. */
export function deleteRegistrationRows(tx: WriteTx, allocId: string): void {
  for (const key of tx.keys(SERVICE_REGISTRATIONS, `${allocId}${SEP}`)) tx.delete(SERVICE_REGISTRATIONS, key);
}
