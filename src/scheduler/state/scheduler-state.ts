/**
 * The SchedulerState a scheduler reads, backed by the store. Node usage is one read of the node's
 * aggregate, through node-usage.ts's cache (checked once per evaluation); the nodes come from the shared
 * node view, taken once per evaluation so that every node read of one evaluation sees the same nodes
 * table.
 */
import type { Store } from '../../storage/store.js';
import type { SchedulerState } from '../sched/types.js';
import { allocJob, allocsOfJob } from './allocs.js';
import { getJob } from './jobs.js';
import { latestDeployment } from './deployments.js';
import { nodeUsageReader, type UsageAsOf } from './node-usage.js';
import { nodeView, viewCandidates, type NodeView } from './node-view.js';
import type { InFlightPlans } from '../in-flight-plans.js';

/** `inFlight`: plans handed to the store, whose placements node usage must include until they are counted in it. */
export function storeState(store: Store, inFlight?: InFlightPlans): SchedulerState {
  let view: NodeView | undefined;
  const nodes = () => (view ??= nodeView(store));
  let reader: ((nodeId: string) => UsageAsOf) | undefined;
  const committed = (nodeId: string) => (reader ??= nodeUsageReader(store))(nodeId);
  return {
    job: (namespace, id) => getJob(store, namespace, id),
    allocsOfJob: (namespace, id) => allocsOfJob(store, namespace, id),
    nodes: () => nodes().nodes,
    node: (id) => nodes().byId.get(id),
    candidateNodes: (job) => viewCandidates(nodes(), job),
    allocJob: (alloc) => allocJob(store, alloc),
    latestDeployment: (namespace, id) => latestDeployment(store, namespace, id),
    nodeUsage: (nodeId) => {
      const { usage, asOf } = committed(nodeId);
      return inFlight ? inFlight.usage(nodeId, usage, asOf) : usage;
    },
  };
}
