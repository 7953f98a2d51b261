import { definePath } from '../framework/path.js';

export const healthPaths = [
  definePath({
    pattern: 'health',
    fields: {},
    unauthenticated: true,
    synopsis: 'Health of the server.',
    description: 'Answers 200 once the server is ready to serve requests. No token is needed.',
    operations: {
      read: {
        summary: 'Returns the health status.',
        handler: async (req) => ({
          raw: {
            initialized: true,
            sealed: false,
            standby: false,
            performance_standby: false,
            version: req.services.version,
            server_time_utc: Math.floor(Date.now() / 1000),
            cluster_name: 'svc',
          },
        }),
      },
    },
  }),
];
