/** GET /v1/regions: the regions the cluster knows, which for svc is its one region; Nomad asks no token for it. */
import { REGION } from '../../cluster/member-views.js';
import { defineRoute } from './route.js';

export const regionsRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/regions',
    acl: { open: true },
    synopsis: 'List the known regions: the one region this cluster serves.',
    handler: async () => ({ body: [REGION] }),
  }),
];
