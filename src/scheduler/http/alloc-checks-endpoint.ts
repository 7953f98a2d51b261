/**
 * An allocation's service check results, read from the node that runs it: a map keyed by check ID (see
 * src/client/checks/). The same route as Nomad has it, without the /v1 prefix, under /v1, and as a client
 * route under /v1/client. An allocation whose node no longer runs it, or that runs on a node no server
 * reaches, has no results: `{}`.
 */
import type { AllocCheckResults } from '../wire/check-result.js';
import { allocForRequest } from './alloc-endpoint.js';
import { defineRoute, type RouteDef, type SchedulerRequest } from './route.js';

async function allocChecks(req: SchedulerRequest) {
  const alloc = allocForRequest(req, 'read-job');
  const results: AllocCheckResults = (await req.services.scheduler.nodeControl(alloc.NodeID)?.checks(alloc.ID)) ?? {};
  return { body: results };
}

export const allocChecksRoutes: RouteDef[] = ['/allocation/:alloc_id/checks', '/v1/allocation/:alloc_id/checks', '/v1/client/allocation/:alloc_id/checks'].map((path) =>
  defineRoute({
    methods: ['GET'],
    path,
    acl: { authenticated: true },
    allocNode: true,
    synopsis: "Read the latest results of an allocation's service checks.",
    handler: allocChecks,
  }),
);
