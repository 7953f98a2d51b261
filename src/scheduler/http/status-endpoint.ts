/**
 * GET /v1/status/leader and /v1/status/peers: the leader's address and the alive servers', as Nomad
 * writes server addresses (`host:port`). Nomad asks no token for them.
 */
import { listMembers } from '../../cluster/members.js';
import { statusLeader, statusPeers } from '../../cluster/member-views.js';
import { defineRoute } from './route.js';

export const statusRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/status/leader',
    acl: { open: true },
    synopsis: 'The address of the cluster leader; 500 "No cluster leader" while there is none.',
    handler: async (req) => ({ body: statusLeader(req.services.leadership.leader()) }),
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/status/peers',
    acl: { open: true },
    synopsis: 'The addresses of the alive servers of the cluster.',
    handler: async (req) => ({ body: statusPeers(listMembers(req.services.store)) }),
  }),
];
