/**
 * Service registrations in svc's own registry (Nomad's `provider = "nomad"`), derived from allocations
 * rather than stored: an allocation that is placed and not finished has its job's group and task
 * services registered. Deriving them means a registration disappears in the same write that stops the
 * allocation, marks it lost when its node goes down, or garbage-collects it: no node has to report a
 * deregistration it may never get to send. A plain `service` block (Consul by default upstream) registers
 * here too, since svc has no Consul to hand it to. The same write records each registration's start and
 * end as a row of its own (service-registrations.ts), for the event stream.
 */
import type { Store } from '../../storage/store.js';
import type { Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import { registered, registrationsOf, type ServiceRegistration } from './service-registrations.js';
import { ALLOCS_TABLE, allocJob, allocsByCreate, allocsOfJob } from './allocs.js';
import { getNode } from './nodes.js';

export type { ServiceRegistration } from './service-registrations.js';

/** The index blocking queries on registrations wait past: they change exactly when allocations do. */
export function servicesIndex(store: Store): number {
  return Math.max(1, store.tableIndex(ALLOCS_TABLE));
}

/** The registrations of one allocation, group services first, then each task's in the job's order. */
export function allocRegistrations(store: Store, alloc: Allocation, job: Job | null = allocJob(store, alloc)): ServiceRegistration[] {
  if (!registered(alloc)) return [];
  return registrationsOf(alloc, job, (nodeId) => getNode(store, nodeId)?.Datacenter ?? '');
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
