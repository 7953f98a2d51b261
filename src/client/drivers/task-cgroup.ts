/** The cgroup a driver launches a task in: created with the task's limits before the executor starts. */
import type { TaskCgroup } from '../cgroups/cgroup.js';
import { nodeCgroups, taskCgroupId } from '../cgroups/node-cgroups.js';
import { DriverConfigError, DriverStartError, type TaskStartRequest } from './driver.js';
import type { LaunchCgroup, LaunchSpec } from './executor-handle.js';

export interface TaskCgroupOptions {
  /** the node's pids limit applies (exec); raw_exec, like Nomad's, has none */
  pidsLimit: boolean;
  oomScoreAdj: number;
}

export interface PreparedCgroup {
  cg: TaskCgroup;
  info: LaunchCgroup;
  spec: NonNullable<LaunchSpec['cgroup']>;
}

/** Reads Nomad's raw_exec `oom_score_adj`: 0 unless the task says, and never below (never safer than the node). */
export function oomScoreAdj(config: Record<string, unknown>): number {
  const v = config.oom_score_adj;
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v > 1000) throw new DriverConfigError('config "oom_score_adj" must be an integer up to 1000');
  if (v < 0) throw new DriverConfigError('oom_score_adj must not be negative');
  return v;
}

/**
 * Creates the task's cgroup. Undefined when the node has no cgroups at all (raw_exec then runs
 * without); the exec driver's fingerprint has refused its tasks before that.
 */
export async function prepareTaskCgroup(req: TaskStartRequest, opts: TaskCgroupOptions): Promise<PreparedCgroup | undefined> {
  const node = nodeCgroups();
  const h = node.hierarchy;
  if (!h) return undefined;
  const wanted = Math.max(req.resources.coreCount, req.resources.cores.length);
  if (wanted > 0 && !h.controllers.includes('cpuset')) throw new DriverStartError(`the task reserves ${wanted} cores but this node has no cpuset cgroup controller`, false);
  const id = taskCgroupId(req.allocId, req.taskName);
  // A cgroup of an earlier launch of this task (one lost while the node was down) holds only leftovers.
  const stale = h.open(id);
  if (stale) await node.remove(stale);
  const cores = req.resources.cores.length || wanted === 0 ? req.resources.cores : node.pickCores(wanted);
  if (!cores) throw new DriverStartError(`the task reserves ${wanted} cores but fewer are free on this node (one stays shared)`, true);
  const limits = node.limitsFor(req.resources);
  if (!opts.pidsLimit) delete limits.pidsMax;
  let cg: TaskCgroup;
  try {
    cg = node.create(id, limits, cores);
  } catch (err) {
    throw new DriverStartError(`creating the task's cgroup: ${(err as Error).message}`, true);
  }
  return {
    cg,
    info: { allocId: req.allocId, taskName: req.taskName, cores, memoryBytes: limits.memoryBytes },
    spec: { procsFiles: cg.procsFiles, oomCounter: cg.oomCounter, oomScoreAdj: opts.oomScoreAdj },
  };
}
