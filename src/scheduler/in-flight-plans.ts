/**
 * Plans the broker has handed to the store and whose commit is not yet visible. The broker schedules the
 * next evaluation while they commit, so that one LMDB commit carries several plans instead of the
 * scheduler waiting out every commit alone; what the next evaluation must not miss is what those plans
 * take. Their placements are added to every node's usage as the scheduler reads it, so it sees the
 * cluster as if they were already committed, and two plans never place on the same room.
 *
 * Only placements are counted. The broker does not schedule past a plan that changes existing
 * allocations (a stop frees room, an in-place update may resize) or past one of the same job (see
 * `mustSettleBefore`), so those changes and the job's own allocations are always read from the store.
 */
import type { Allocation } from './structs/allocation.js';
import type { Plan, NodeUsage } from './sched/types.js';
import { allocUsage, type AllocUsage } from './sched/usage.js';

interface InFlight {
  jobKey: string;
  /** the index its transaction commits at, once the transaction has run */
  index?: number;
  /** it stops, loses or updates in place existing allocations */
  changesExisting: boolean;
  /** node → what the plan places there */
  placed: Map<string, AllocUsage[]>;
}

const jobKeyOf = (namespace: string, jobId: string) => `${namespace}\u0000${jobId}`;

export class InFlightPlans {
  private readonly plans = new Map<string, InFlight>();
  /** node → in-flight evaluations placing on it, so a usage read looks only at those */
  private readonly byNode = new Map<string, Set<string>>();

  get size(): number {
    return this.plans.size;
  }

  add(evalId: string, namespace: string, jobId: string, plan: Plan): void {
    const placed = new Map<string, AllocUsage[]>();
    for (const alloc of plan.Place) addTo(placed, alloc);
    this.plans.set(evalId, {
      jobKey: jobKeyOf(namespace, jobId),
      changesExisting: plan.InPlace.length > 0 || plan.Updates.some((u) => (u.DesiredStatus !== undefined && u.DesiredStatus !== 'run') || u.ClientStatus === 'lost'),
      placed,
    });
    for (const nodeId of placed.keys()) {
      let evals = this.byNode.get(nodeId);
      if (!evals) this.byNode.set(nodeId, (evals = new Set()));
      evals.add(evalId);
    }
  }

  /**
   * Notes the index the plan's transaction got. From then on a usage read at that index or later counts
   * the plan already: lmdb lets a read see a commit before the code that asked for it hears of it, so
   * "committed" is decided by the index read, not by when remove() is called.
   */
  committingAt(evalId: string, index: number): void {
    const plan = this.plans.get(evalId);
    if (plan) plan.index = index;
  }

  /** Forgets a plan once its commit is visible to reads (or has failed). */
  remove(evalId: string): void {
    const plan = this.plans.get(evalId);
    if (!plan) return;
    this.plans.delete(evalId);
    for (const nodeId of plan.placed.keys()) {
      const evals = this.byNode.get(nodeId)!;
      evals.delete(evalId);
      if (evals.size === 0) this.byNode.delete(nodeId);
    }
  }

  /**
   * Whether the evaluation of this job must wait until every in-flight plan is visible: one of them is
   * the same job's (its allocations would be missed), or one changes existing allocations (a placement
   * that failed for want of the room a stop frees would be blocked after the write that unblocks waiting
   * evaluations; an in-place update may take more room).
   */
  mustSettleBefore(namespace: string, jobId: string): boolean {
    const key = jobKeyOf(namespace, jobId);
    for (const plan of this.plans.values()) if (plan.changesExisting || plan.jobKey === key) return true;
    return false;
  }

  /**
   * The committed usage of the node (read at node-usage table index `asOf`) plus what in-flight plans not
   * counted in it place there; `committed` is not changed.
   */
  usage(nodeId: string, committed: NodeUsage, asOf: number): NodeUsage {
    const evals = this.byNode.get(nodeId);
    if (!evals) return committed;
    const out: NodeUsage = { ...committed, ports: new Set(committed.ports) };
    for (const evalId of evals) {
      const plan = this.plans.get(evalId)!;
      if (plan.index !== undefined && plan.index <= asOf) continue;
      for (const u of plan.placed.get(nodeId)!) {
        out.cpu += u.cpu;
        out.memoryMB += u.memoryMB;
        out.diskMB += u.diskMB;
        for (const p of u.ports) out.ports.add(p);
      }
    }
    return out;
  }
}

function addTo(placed: Map<string, AllocUsage[]>, alloc: Allocation): void {
  let list = placed.get(alloc.NodeID);
  if (!list) placed.set(alloc.NodeID, (list = []));
  list.push(allocUsage(alloc));
}
