/**
 * Service registrations: an allocation's, a job's (both also without the /v1 prefix, as Nomad's own
 * routes have them), the namespace's services with their tags, and one service's registrations.
 */
import { NotFound } from '../../shared/errors.js';
import { getAlloc } from '../state/allocs.js';
import { getJob } from '../state/jobs.js';
import { allRegistrations, allocRegistrations, jobRegistrations, servicesIndex, type ServiceRegistration } from '../state/services.js';
import { defineRoute, type RouteDef, type SchedulerRequest, type TokenRouteDef } from './route.js';

function allocServices(req: SchedulerRequest) {
  const { store } = req.services;
  const alloc = getAlloc(store, req.params.alloc_id);
  if (!alloc || alloc.Namespace !== req.namespace) throw new NotFound('allocation not found');
  return { body: allocRegistrations(store, alloc), index: servicesIndex(store) };
}

function jobServices(req: SchedulerRequest) {
  const { store } = req.services;
  if (!getJob(store, req.namespace, req.params.job_id)) throw new NotFound('job not found');
  return { body: jobRegistrations(store, req.namespace, req.params.job_id), index: servicesIndex(store) };
}

/** The same route under `/v1<path>` and `<path>`. */
function bothPrefixes(def: TokenRouteDef): TokenRouteDef[] {
  return [defineRoute({ ...def, path: `/v1${def.path}` }), defineRoute(def)];
}

/** Namespaces in order, each with its services by name and every tag any of their registrations carries. */
function summarize(regs: ServiceRegistration[]) {
  const byNs = new Map<string, Map<string, Set<string>>>();
  for (const r of regs) {
    const names = byNs.get(r.Namespace) ?? byNs.set(r.Namespace, new Map()).get(r.Namespace)!;
    const tags = names.get(r.ServiceName) ?? names.set(r.ServiceName, new Set()).get(r.ServiceName)!;
    for (const t of r.Tags) tags.add(t);
  }
  return [...byNs.keys()].sort().map((ns) => ({
    Namespace: ns,
    Services: [...byNs.get(ns)!.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, tags]) => ({ ServiceName: name, Tags: [...tags].sort() })),
  }));
}

export const serviceRoutes: RouteDef[] = [
  ...bothPrefixes({
    methods: ['GET'],
    path: '/allocation/:alloc_id/services',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "List an allocation's service registrations.",
    handler: async (req) => allocServices(req),
  }),
  ...bothPrefixes({
    methods: ['GET'],
    path: '/job/*job_id/services',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "List a job's service registrations.",
    handler: async (req) => jobServices(req),
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/services',
    acl: { namespace: ['read-job'] },
    blocking: true,
    allNamespaces: true,
    synopsis: 'List the registered services with their tags, per namespace.',
    handler: async (req) => {
      const { store } = req.services;
      const { acl } = req.caller;
      const regs = allRegistrations(store, req.namespace).filter((r) => req.namespace !== '*' || acl.allowsNamespace(r.Namespace, 'read-job'));
      return { body: summarize(regs), index: servicesIndex(store) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/service/:service_name',
    acl: { namespace: ['read-job'] },
    blocking: true,
    synopsis: "List a service's registrations.",
    handler: async (req) => {
      const { store } = req.services;
      const regs = allRegistrations(store, req.namespace).filter((r) => r.ServiceName === req.params.service_name);
      return { body: regs, index: servicesIndex(store) };
    },
  }),
];
