/**
 * A SchedulerState over plain arrays: a snapshot, indexed once when built. Tests drive the schedulers
 * through it; build a new one after changing the arrays.
 */
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import type { Deployment } from '../structs/deployment.js';
import type { NodeUsage, SchedulerState } from './types.js';
import { allocUsage } from './usage.js';
import { candidateNodes } from './feasible.js';

export interface ArrayData {
  /** the current version of each job */
  jobs: Job[];
  allocs: Allocation[];
  nodes: Node[];
  /** earlier versions, for telling in-place from destructive updates */
  jobVersions?: Job[];
  deployments?: Deployment[];
}

const key = (namespace: string, id: string) => `${namespace}\u0000${id}`;

export function arrayState(data: ArrayData): SchedulerState {
  const jobs = new Map(data.jobs.map((j) => [key(j.Namespace, j.ID), j]));
  const nodes = new Map(data.nodes.map((n) => [n.ID, n]));
  const allocsByJob = new Map<string, Allocation[]>();
  const usage = new Map<string, NodeUsage>();
  for (const a of data.allocs) {
    const k = key(a.Namespace, a.JobID);
    const list = allocsByJob.get(k) ?? [];
    list.push(a);
    allocsByJob.set(k, list);
    if (allocTerminal(a)) continue;
    const u = usage.get(a.NodeID) ?? { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set<number>() };
    const au = allocUsage(a);
    u.cpu += au.cpu;
    u.memoryMB += au.memoryMB;
    u.diskMB += au.diskMB;
    for (const p of au.ports) u.ports.add(p);
    usage.set(a.NodeID, u);
  }
  return {
    job: (namespace, id) => jobs.get(key(namespace, id)),
    allocsOfJob: (namespace, id) => allocsByJob.get(key(namespace, id)) ?? [],
    nodes: () => data.nodes,
    node: (id) => nodes.get(id),
    candidateNodes: (job) => candidateNodes(data.nodes, job),
    nodeUsage: (id) => usage.get(id) ?? { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set() },
    latestDeployment: (namespace, id) =>
      (data.deployments ?? []).filter((d) => d.Namespace === namespace && d.JobID === id).sort((a, b) => b.CreateIndex - a.CreateIndex)[0],
    allocJob: (a) =>
      [...data.jobs, ...(data.jobVersions ?? [])].find((j) => j.Namespace === a.Namespace && j.ID === a.JobID && j.JobModifyIndex === a.JobModifyIndex),
  };
}
