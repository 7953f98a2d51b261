/** Every scheduler route, in one ordered table, and the WebSocket ones. */
import type { RouteDef } from './route.js';
import { namespaceRoutes } from './namespace-endpoint.js';
import { jobsRoutes } from './jobs-endpoint.js';
import { jobRoutes } from './job-endpoint.js';
import { jobAllocationsRoutes } from './job-allocations-endpoint.js';
import { jobDispatchRoutes } from './job-dispatch-endpoint.js';
import { jobPeriodicRoutes } from './job-periodic-endpoint.js';
import { jobPlanRoutes } from './job-plan-endpoint.js';
import { jobScaleRoutes } from './job-scale-endpoint.js';
import { jobRevertRoutes } from './job-revert-endpoint.js';
import { jobStableRoutes } from './job-stable-endpoint.js';
import { jobEvaluateRoutes } from './job-evaluate-endpoint.js';
import { jobVersionTagRoutes } from './job-version-tag-endpoint.js';
import { validateRoutes } from './validate-endpoint.js';
import { evalRoutes } from './eval-endpoint.js';
import { allocRoutes } from './alloc-endpoint.js';
import { allocPauseRoutes } from './alloc-pause-endpoint.js';
import { nodeRoutes } from './node-endpoint.js';
import { nodeApiRoutes } from './node-api-endpoint.js';
import { nodeTokenRoutes } from './node-token-endpoint.js';
import { identityRoutes } from './identity-endpoint.js';
import { nodeDrainRoutes } from './node-drain-endpoint.js';
import { agentRoutes } from './agent-endpoint.js';
import { deploymentRoutes } from './deployment-endpoint.js';
import { clientFsRoutes } from './client-fs-endpoint.js';
import { allocExecRoutes, allocExecWsRoute } from './alloc-exec-endpoint.js';
import { jobActionRoutes, jobActionWsRoute } from './job-action-endpoint.js';
import type { WsRouteDef } from './ws-route.js';
import { systemRoutes } from './system-endpoint.js';
import { serviceRoutes } from './service-endpoint.js';
import { allocChecksRoutes } from './alloc-checks-endpoint.js';
import { clientStatsRoutes } from './client-stats-endpoint.js';
import { statusRoutes } from './status-endpoint.js';
import { agentHealthRoutes } from './agent-health-endpoint.js';
import { aclTokenSelfRoutes } from './acl-token-self-endpoint.js';
import { aclTokenOneTimeRoutes } from './acl-token-onetime-endpoint.js';
import { aclPolicyRoutes } from './acl-policy-endpoint.js';
import { regionsRoutes } from './regions-endpoint.js';
import { searchRoutes } from './search-endpoint.js';
import { metricsRoutes } from './metrics-endpoint.js';
import { eventStreamRoutes } from './event-stream-endpoint.js';

export const schedulerRoutes: RouteDef[] = [
  ...namespaceRoutes,
  ...jobsRoutes,
  ...jobRoutes,
  ...jobAllocationsRoutes,
  ...jobDispatchRoutes,
  ...jobPeriodicRoutes,
  ...jobPlanRoutes,
  ...jobScaleRoutes,
  ...jobRevertRoutes,
  ...jobStableRoutes,
  ...jobEvaluateRoutes,
  ...jobVersionTagRoutes,
  ...validateRoutes,
  ...evalRoutes,
  ...allocRoutes,
  ...allocPauseRoutes,
  ...nodeRoutes,
  ...nodeApiRoutes,
  ...nodeTokenRoutes,
  ...identityRoutes,
  ...nodeDrainRoutes,
  ...agentRoutes,
  ...deploymentRoutes,
  ...clientFsRoutes,
  ...allocExecRoutes,
  ...jobActionRoutes,
  ...systemRoutes,
  ...serviceRoutes,
  ...allocChecksRoutes,
  ...clientStatsRoutes,
  ...statusRoutes,
  ...agentHealthRoutes,
  ...aclTokenSelfRoutes,
  ...aclTokenOneTimeRoutes,
  ...aclPolicyRoutes,
  ...regionsRoutes,
  ...searchRoutes,
  ...metricsRoutes,
  ...eventStreamRoutes,
];

/** The endpoints spoken over a WebSocket (upgrade.ts). */
export const schedulerWsRoutes: WsRouteDef[] = [allocExecWsRoute, jobActionWsRoute];
