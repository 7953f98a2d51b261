/**
 * The system and sysbatch scheduler: one allocation of each group on every node that can run it. Nodes
 * that cannot (constraints, drivers) are skipped without counting as failures; a feasible node without
 * room is a failed placement. A sysbatch group runs once per node and job version.
 */
import { allocTerminal, type Allocation, type AllocMetric } from '../structs/allocation.js';
import type { Evaluation } from '../structs/evaluation.js';
import type { Job } from '../structs/job.js';
import { nodeSchedulable } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';
import { EvalContext } from './context.js';
import { ALLOC_LOST, ALLOC_NODE_TAINTED, ALLOC_NOT_NEEDED, ALLOC_UPDATING } from './descriptions.js';
import { rollingEval } from './evals.js';
import { coalesce, newMetric } from './metrics.js';
import { allocName } from './names.js';
import { newAllocation } from './new-alloc.js';
import { scoreNode } from './rank.js';
import { emptyDesiredUpdates, rollingLimit } from './reconcile.js';
import { lostNodes, priorJobs, stopUpdate } from './state-reads.js';
import { tasksUpdated } from './tasks-updated.js';
import type { DesiredUpdates, Plan, Scheduler, SchedulerResult } from './types.js';
import { allocUsage } from './usage.js';

interface NodeWork {
  index: number;
  /** the live allocation a destructive update replaces */
  previous: Allocation | null;
}

interface Run {
  ctx: EvalContext;
  evaluation: Evaluation;
  plan: Plan;
  result: SchedulerResult;
  failed: Record<string, AllocMetric>;
}

export const systemScheduler: Scheduler = async (evaluation, state) => {
  const now = Date.now() * 1_000_000;
  const job = state.job(evaluation.Namespace, evaluation.JobID) ?? null;
  const allocs = state.allocsOfJob(evaluation.Namespace, evaluation.JobID).filter((a) => a.JobID === evaluation.JobID);
  const plan: Plan = { EvalID: evaluation.ID, Job: job, Place: [], InPlace: [], Updates: [], Deployment: null };
  const result: SchedulerResult = {
    plan,
    eval: { Status: 'complete', StatusDescription: '', FailedTGAllocs: null, QueuedAllocations: {} },
    createEvals: [],
    desiredUpdates: {},
  };
  const lost = lostNodes(state, allocs);
  const active = job && !job.Stop ? job : null;
  const byGroup = groupAllocs(allocs);
  for (const [name, list] of byGroup) {
    if (active?.TaskGroups.some((g) => g.Name === name)) continue;
    const d = emptyDesiredUpdates();
    for (const a of list) {
      if (allocTerminal(a)) continue;
      plan.Updates.push(stopUpdate(a, lost.has(a.NodeID) ? ALLOC_LOST : ALLOC_NOT_NEEDED, lost.has(a.NodeID)));
      d.Stop++;
    }
    result.desiredUpdates[name] = d;
  }
  if (!active) return result;

  const run: Run = { ctx: new EvalContext(state, active, allocs), evaluation, plan, result, failed: {} };
  const priors = priorJobs(state, active, allocs);
  const rolling: TaskGroup[] = [];
  for (const group of active.TaskGroups) {
    const d = emptyDesiredUpdates();
    result.desiredUpdates[group.Name] = d;
    result.eval.QueuedAllocations[group.Name] = 0;
    const work = diffGroup(run, group, byGroup.get(group.Name) ?? [], lost, priors, d);
    if (work.destructive.length > d.DestructiveUpdate) rolling.push(group);
    for (const w of [...work.destructive.slice(0, d.DestructiveUpdate), ...work.place]) placeOn(run, group, w);
  }
  if (Object.keys(run.failed).length > 0) result.eval.FailedTGAllocs = run.failed;
  if (rolling.length > 0) {
    const next = rollingEval(evaluation, Math.min(...rolling.map((g) => g.Update?.Stagger ?? active.Update.Stagger)), now);
    result.createEvals.push(next);
    result.eval.NextEval = next.ID;
  }
  return result;
};

function groupAllocs(allocs: Allocation[]): Map<string, Allocation[]> {
  const out = new Map<string, Allocation[]>();
  for (const a of allocs) {
    const list = out.get(a.TaskGroup) ?? [];
    list.push(a);
    out.set(a.TaskGroup, list);
  }
  return out;
}

/** Per node: keep, update, stop or place; records the decisions in `d` and stops in the plan. */
function diffGroup(
  run: Run,
  group: TaskGroup,
  allocs: Allocation[],
  lost: ReadonlySet<string>,
  priors: ReadonlyMap<number, Job>,
  d: DesiredUpdates,
): { destructive: NodeWork[]; place: NodeWork[] } {
  const { ctx, plan } = run;
  const job = ctx.job;
  const live = new Map<string, Allocation[]>();
  const finished = new Map<string, Allocation>();
  const migrated = new Set<string>();
  // Newest first: the newest live allocation of a node is the one kept, the newest finished one decides a re-run.
  for (const a of [...allocs].sort((x, y) => y.CreateIndex - x.CreateIndex)) {
    if (allocTerminal(a)) {
      if (!finished.has(a.NodeID)) finished.set(a.NodeID, a);
      continue;
    }
    // Marked by a node drain or `alloc stop`: stopped and, as in Nomad, not replaced by this evaluation.
    if (a.DesiredTransition?.Migrate && !lost.has(a.NodeID)) {
      plan.Updates.push(stopUpdate(a, ALLOC_NODE_TAINTED, false));
      ctx.release(a);
      migrated.add(a.NodeID);
      d.Migrate++;
      continue;
    }
    const list = live.get(a.NodeID) ?? [];
    list.push(a);
    live.set(a.NodeID, list);
  }
  const stop = (a: Allocation, description: string, isLost = false) => {
    plan.Updates.push(stopUpdate(a, description, isLost));
    ctx.release(a);
    d.Stop++;
  };

  for (const [nodeId, list] of live) {
    if (ctx.has(nodeId)) continue;
    const node = ctx.nodeOf(nodeId);
    for (const a of list) {
      if (lost.has(nodeId)) stop(a, ALLOC_LOST, true);
      // A ready, eligible node outside the candidates left the job's datacenters or pool.
      else if (node && nodeSchedulable(node)) stop(a, ALLOC_NOT_NEEDED);
      // Ineligible or not yet ready: what runs there stays.
      else d.Ignore++;
    }
  }

  const feasibility = ctx.plan(group).feasibility;
  const destructive: NodeWork[] = [];
  const place: NodeWork[] = [];
  for (let index = 0; index < ctx.nodeCount; index++) {
    const node = ctx.node(index);
    const [current, ...duplicates] = live.get(node.ID) ?? [];
    for (const a of duplicates) stop(a, ALLOC_NOT_NEEDED);
    const infeasible = feasibility.check(node) !== null;
    if (!current) {
      const done = finished.get(node.ID);
      if (infeasible || migrated.has(node.ID)) continue;
      if (job.Type === 'sysbatch' && done && done.JobModifyIndex === job.JobModifyIndex) d.Ignore++;
      else place.push({ index, previous: null });
      continue;
    }
    if (current.JobModifyIndex === job.JobModifyIndex) d.Ignore++;
    else if (infeasible) stop(current, ALLOC_NOT_NEEDED);
    else if (!priors.has(current.JobModifyIndex) || tasksUpdated(job, priors.get(current.JobModifyIndex)!, group.Name)) {
      destructive.push({ index, previous: current });
    } else {
      plan.InPlace.push({ ...current, EvalID: run.evaluation.ID, JobVersion: job.Version, JobModifyIndex: job.JobModifyIndex });
      d.InPlaceUpdate++;
    }
  }
  d.DestructiveUpdate = rollingLimit(job, group, destructive.length);
  d.Ignore += destructive.length - d.DestructiveUpdate;
  d.Place = place.length;
  return { destructive, place };
}

function placeOn(run: Run, group: TaskGroup, w: NodeWork): void {
  const { ctx, plan, failed } = run;
  const queued = run.result.eval.QueuedAllocations;
  const job = ctx.job;
  if (w.previous) ctx.release(w.previous);
  const metric = newMetric(job.NodePool, ctx.candidates.byDatacenter, ctx.candidates.inPool);
  const started = performance.now();
  const groupPlan = ctx.plan(group);
  const score = scoreNode(ctx, groupPlan, w.index, metric, null);
  metric.AllocationTime = Math.round((performance.now() - started) * 1_000_000);
  if (score === null) {
    if (w.previous) ctx.restore(w.previous);
    // distinct_property can rule a node out; like a constraint, that is not a failure.
    if (metric.NodesFiltered > 0) return;
    queued[group.Name]++;
    if (failed[group.Name]) coalesce(failed[group.Name], metric);
    else failed[group.Name] = metric;
    return;
  }
  const alloc = newAllocation({
    job,
    group,
    evalId: run.evaluation.ID,
    name: allocName(job.ID, group.Name, 0),
    node: ctx.node(w.index),
    ports: ctx.slot(w.index).assignPorts(groupPlan.ask),
    metric,
    previous: w.previous,
    tracker: null,
  });
  ctx.commit(w.index, group.Name, allocUsage(alloc));
  plan.Place.push(alloc);
  if (w.previous) plan.Updates.push(stopUpdate(w.previous, ALLOC_UPDATING, false));
}
