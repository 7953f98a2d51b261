/**
 * GET /v1/agent/self: what the CLI's `-self` flags need of Nomad's answer, the ID of the node this server
 * runs, under `stats.client.node_id`; `stats` has no `client` when the server runs no node. Nomad asks
 * for `agent:read`; the node's ID is node information, so here it takes `node:read`.
 */
import { defineRoute } from './route.js';

export const agentRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/agent/self',
    acl: { node: 'read' },
    synopsis: 'Describe this server: the ID of the node it runs.',
    handler: async (req) => {
      const [nodeId] = req.services.scheduler.localNodes.keys();
      return { body: { stats: nodeId ? { client: { node_id: nodeId } } : {} } };
    },
  }),
];
