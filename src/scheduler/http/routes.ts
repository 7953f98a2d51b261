/** Every scheduler route, in one ordered table. */
import type { RouteDef } from './route.js';
import { namespaceRoutes } from './namespace-endpoint.js';

export const schedulerRoutes: RouteDef[] = [...namespaceRoutes];
