/**
 * GET /v1/agent/health, as Nomad answers it and its client and load balancers read it: a `server` part
 * (healthy while the cluster has a leader) and a `client` part (healthy while the server's own node
 * runs: it always reaches this server), each `{ok, message}`; 500 with the same body when a part asked for
 * is not healthy. `type=client` and `type=server` (repeatable) ask for those parts only, and a part asked
 * for that this server lacks (no node: `-client=false`) is unhealthy. Nomad asks no token for it.
 */
import { NO_LEADER } from '../../cluster/forward-to-leader.js';
import type { SchedulerContext } from '../context.js';
import { defineRoute } from './route.js';

interface AgentHealth {
  ok: boolean;
  message: string;
}

const OK: AgentHealth = { ok: true, message: 'ok' };

export function agentHealth(services: SchedulerContext, types: string[]): { client?: AgentHealth; server?: AgentHealth } {
  const wantClient = types.length === 0 || types.includes('client');
  const wantServer = types.length === 0 || types.includes('server');
  const health: { client?: AgentHealth; server?: AgentHealth } = {};
  if (wantClient) {
    if (services.scheduler.localNodes.size > 0) health.client = OK;
    // Without a node, only a caller that asked for the client part hears that it is missing.
    else if (types.includes('client')) health.client = { ok: false, message: 'client not enabled' };
  }
  if (wantServer) health.server = services.leadership.leader() ? OK : { ok: false, message: NO_LEADER };
  return health;
}

export const agentHealthRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/agent/health',
    acl: { open: true },
    query: { type: { type: 'string', description: 'Check only this part, `client` or `server`; may be repeated.' } },
    synopsis: "This server's health: its server part (a leader is known) and its client part (its node runs); 500 when unhealthy.",
    handler: async (req) => {
      const health = agentHealth(req.services, req.raw.query.getAll('type'));
      const healthy = Object.values(health).every((part) => part.ok);
      // Nomad sends an unhealthy answer as an error: the same JSON, as a plain-text error body.
      return healthy ? { body: health } : { body: health, status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } };
    },
  }),
];
