/**
 * GET /v1/agent/self: Nomad's `config` and `member` (agent-self.ts), where Nomad's client finds the
 * agent's node name, datacenter and region, and its `stats` sections (agent-stats.ts), which hold what
 * the CLI's `-self` flags need, the ID of the node this server runs, under `stats.client.node_id`; `stats`
 * has no `client` when the server runs no node; it needs Nomad's `agent:read`. GET /v1/agent/members lists the
 * cluster's servers in Nomad's gossip-member shape (member-views.ts), with Nomad's `node:read`.
 * GET /v1/agent/monitor is in agent-monitor-endpoint.ts.
 */
import { defineRoute } from './route.js';
import { agentMonitorRoute } from './agent-monitor-endpoint.js';
import { agentStats } from './agent-stats.js';
import { agentSelf } from './agent-self.js';
import { listMembers } from '../../cluster/members.js';
import { agentMembers } from '../../cluster/member-views.js';

export const agentRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/agent/self',
    acl: { agent: 'read' },
    synopsis: 'Describe this server: its config (region, datacenter, node name, ports, version), its member record and its stats sections (client, nomad, runtime).',
    handler: async (req) => ({ body: { ...agentSelf(req.services), stats: agentStats(req.services) } }),
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/agent/members',
    acl: { node: 'read' },
    synopsis: 'List the servers of the cluster: name, address, status and tags.',
    handler: async (req) => ({ body: agentMembers(req.services.leadership.self, listMembers(req.services.store)) }),
  }),
  agentMonitorRoute,
];
