/** What both schedulers read from the state around the placement work, and the stop update they write. */
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { AllocUpdate, SchedulerState } from './types.js';

/** Nodes of live allocations that are down, disconnected or gone. */
export function lostNodes(state: SchedulerState, allocs: Allocation[]): Set<string> {
  const lost = new Set<string>();
  const seen = new Set<string>();
  for (const a of allocs) {
    if (allocTerminal(a) || seen.has(a.NodeID)) continue;
    seen.add(a.NodeID);
    const node = state.node(a.NodeID);
    if (!node || node.Status === 'down' || node.Status === 'disconnected') lost.add(a.NodeID);
  }
  return lost;
}

/** The job versions the allocations run, by JobModifyIndex. */
export function priorJobs(state: SchedulerState, job: Job | null, allocs: Allocation[]): Map<number, Job> {
  const out = new Map<number, Job>();
  if (!job) return out;
  out.set(job.JobModifyIndex, job);
  for (const a of allocs) {
    if (out.has(a.JobModifyIndex)) continue;
    const prior = state.allocJob(a);
    if (prior) out.set(a.JobModifyIndex, prior);
  }
  return out;
}

export function stopUpdate(a: Allocation, description: string, lost: boolean): AllocUpdate {
  const u: AllocUpdate = { ID: a.ID, DesiredStatus: 'stop', DesiredDescription: description };
  if (lost) u.ClientStatus = 'lost';
  return u;
}
