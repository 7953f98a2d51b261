/** The SchedulerState a scheduler reads, backed by the store. Node usage comes from the by-node index alone. */
import type { Store } from '../../storage/store.js';
import type { NodeUsage, SchedulerState } from '../sched/types.js';
import { allocJob, allocsOfJob, nodeUsageEntries } from './allocs.js';
import { getJob } from './jobs.js';
import { getNode, listNodes } from './nodes.js';
import { latestDeployment } from './deployments.js';

export function storeState(store: Store): SchedulerState {
  return {
    job: (namespace, id) => getJob(store, namespace, id),
    allocsOfJob: (namespace, id) => allocsOfJob(store, namespace, id),
    nodes: () => listNodes(store),
    node: (id) => getNode(store, id),
    allocJob: (alloc) => allocJob(store, alloc),
    latestDeployment: (namespace, id) => latestDeployment(store, namespace, id),
    nodeUsage(nodeId): NodeUsage {
      const usage: NodeUsage = { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set() };
      for (const entry of nodeUsageEntries(store, nodeId)) {
        if (!entry.live) continue;
        usage.cpu += entry.cpu;
        usage.memoryMB += entry.mem;
        usage.diskMB += entry.disk;
        for (const p of entry.ports) usage.ports.add(p);
      }
      return usage;
    },
  };
}
