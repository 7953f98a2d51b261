/** Every scheduler route, in one ordered table. */
import type { RouteDef } from './route.js';
import { namespaceRoutes } from './namespace-endpoint.js';
import { jobsRoutes } from './jobs-endpoint.js';
import { jobRoutes } from './job-endpoint.js';
import { jobAllocationsRoutes } from './job-allocations-endpoint.js';
import { validateRoutes } from './validate-endpoint.js';
import { evalRoutes } from './eval-endpoint.js';
import { allocRoutes } from './alloc-endpoint.js';
import { nodeRoutes } from './node-endpoint.js';
import { nodeApiRoutes } from './node-api-endpoint.js';
import { deploymentRoutes } from './deployment-endpoint.js';

export const schedulerRoutes: RouteDef[] = [
  ...namespaceRoutes,
  ...jobsRoutes,
  ...jobRoutes,
  ...jobAllocationsRoutes,
  ...validateRoutes,
  ...evalRoutes,
  ...allocRoutes,
  ...nodeRoutes,
  ...nodeApiRoutes,
  ...deploymentRoutes,
];
