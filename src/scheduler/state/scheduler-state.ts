/**
 * The SchedulerState a scheduler reads, backed by the store. Node usage is one read of the node's
 * aggregate; the nodes come from the shared node view, taken once per evaluation so that every node read
 * of one evaluation sees the same nodes table.
 */
import type { Store } from '../../storage/store.js';
import type { SchedulerState } from '../sched/types.js';
import { allocJob, allocsOfJob } from './allocs.js';
import { getJob } from './jobs.js';
import { latestDeployment } from './deployments.js';
import { readNodeUsage } from './node-usage.js';
import { nodeView, viewCandidates, type NodeView } from './node-view.js';
import type { InFlightPlans } from '../in-flight-plans.js';

/** `inFlight`: plans handed to the store but not yet visible, whose placements node usage must include. */
export function storeState(store: Store, inFlight?: InFlightPlans): SchedulerState {
  let view: NodeView | undefined;
  const nodes = () => (view ??= nodeView(store));
  return {
    job: (namespace, id) => getJob(store, namespace, id),
    allocsOfJob: (namespace, id) => allocsOfJob(store, namespace, id),
    nodes: () => nodes().nodes,
    node: (id) => nodes().byId.get(id),
    candidateNodes: (job) => viewCandidates(nodes(), job),
    allocJob: (alloc) => allocJob(store, alloc),
    latestDeployment: (namespace, id) => latestDeployment(store, namespace, id),
    nodeUsage: (nodeId) => (inFlight ? inFlight.usage(nodeId, readNodeUsage(store, nodeId)) : readNodeUsage(store, nodeId)),
  };
}
