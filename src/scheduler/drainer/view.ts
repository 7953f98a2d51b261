/** The DrainView of the store, or of a write transaction (the same reads, seeing its own writes). */
import type { Store, WriteTx } from '../../storage/store.js';
import { allocJob, allocsOfJob, allocsOfNode, getAlloc } from '../state/allocs.js';
import { drainingNodes } from '../state/node-drain.js';
import { JOBS_TABLE, jobKey } from '../state/tables.js';
import type { Job } from '../structs/job.js';
import type { DrainView } from './plan.js';

export function drainView(state: Store | WriteTx): DrainView {
  return {
    nodes: () => drainingNodes(state),
    alloc: (id) => getAlloc(state, id),
    allocsOfNode: (nodeId) => allocsOfNode(state, nodeId),
    allocsOfJob: (namespace, jobId) => allocsOfJob(state, namespace, jobId),
    job: (namespace, jobId) => state.get<Job>(JOBS_TABLE, jobKey(namespace, jobId)),
    allocJob: (alloc) => allocJob(state, alloc),
  };
}
