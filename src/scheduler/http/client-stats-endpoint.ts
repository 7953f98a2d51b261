/**
 * Resource usage, read on the node that has it, as Nomad's client endpoints answer it:
 * `GET /v1/client/allocation/:alloc_id/stats` (AllocResourceUsage; read-job in the allocation's
 * namespace) and `GET /v1/client/stats` (HostStats of the node `node_id`, by default this server's own;
 * node:read). A node this server does not reach is asked through the server that holds it.
 */
import { holderElsewhere } from '../../cluster/node-holders.js';
import { FORWARDED_HEADER } from '../../cluster/node-forwarder.js';
import { NotFound, UserError } from '../../shared/errors.js';
import { getNode } from '../state/nodes.js';
import { NodeAnswer } from '../wire/tunnel-protocol.js';
import { allocForRequest, nodeControl } from './alloc-endpoint.js';
import { defineRoute, type RouteDef, type RouteResult, type SchedulerRequest } from './route.js';

async function allocStats(req: SchedulerRequest): Promise<RouteResult> {
  const alloc = allocForRequest(req, 'read-job');
  return { body: await nodeControl(req, alloc).allocStats(alloc.ID) };
}

async function hostStats(req: SchedulerRequest): Promise<RouteResult> {
  const { scheduler } = req.services;
  const wanted = req.query.get<string>('node_id');
  const nodeId = wanted || [...scheduler.localNodes.keys()][0];
  if (!nodeId) throw new UserError('this server runs no node of its own: name one with node_id');
  if (!getNode(req.services.store, nodeId)) throw new NotFound(`node ${nodeId} not found`);
  const control = scheduler.nodeControl(nodeId);
  if (control) return { body: await control.hostStats() };
  const holder = req.raw.headers[FORWARDED_HEADER] === undefined ? holderElsewhere(req.services.store, nodeId, req.services.leadership.self.ID) : undefined;
  if (holder) {
    const answer = await req.services.forwardToNode.request(req.raw, holder.Address);
    if (answer.status !== 200) throw new NodeAnswer(answer.status, String(answer.body));
    return { body: JSON.parse(String(answer.body)) as unknown };
  }
  throw new UserError(`node ${nodeId} is not connected to any server`);
}

export const clientStatsRoutes: RouteDef[] = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/allocation/:alloc_id/stats',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: "Read the resource usage of an allocation's running tasks.",
    handler: allocStats,
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/stats',
    acl: { node: 'read' },
    query: { node_id: { type: 'string', description: "The node whose host figures to read; by default this server's own." } },
    synopsis: "Read a node's host figures: memory, CPUs, disks and uptime.",
    handler: hostStats,
  }),
];
