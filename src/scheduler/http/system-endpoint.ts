/** /v1/system/gc: garbage collection on demand, every threshold at zero (Nomad's `system gc`). */
import { defineRoute } from './route.js';
import { revokeFinishedTaskTokens } from './node-token-endpoint.js';

export const systemRoutes = [
  defineRoute({
    methods: ['PUT'],
    path: '/v1/system/gc',
    acl: { management: true },
    synopsis: 'Collect every finished evaluation, allocation, deployment and dead job now.',
    handler: async (req) => {
      await req.services.scheduler.collectGarbage(true);
      await revokeFinishedTaskTokens(req.services);
      return { body: null, index: req.services.store.index() };
    },
  }),
];
