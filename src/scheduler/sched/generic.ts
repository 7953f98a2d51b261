/**
 * The service and batch scheduler: reconcile the job's allocations with its groups, then find a node for
 * each placement. The result is a plan and the evaluations to follow it; nothing is written here.
 */
import { allocTerminal, type Allocation, type AllocMetric } from '../structs/allocation.js';
import type { Evaluation } from '../structs/evaluation.js';
import { EvalContext } from './context.js';
import { ALLOC_RESCHEDULED, ALLOC_UPDATING } from './descriptions.js';
import { blockedEval, rescheduleEval, rollingEval } from './evals.js';
import { inDatacenters, inPool } from './feasible.js';
import { newMetric } from './metrics.js';
import { newAllocation } from './new-alloc.js';
import { selectNode } from './rank.js';
import { reconcile, type Placement } from './reconcile.js';
import { deploymentBudget, joinDeployment, versionDeployment } from './deployment.js';
import { canaryInput } from './canaries.js';
import { nextTracker } from './reschedule.js';
import { lostNodes, priorJobs, stopUpdate } from './state-reads.js';
import type { Plan, Scheduler, SchedulerResult } from './types.js';
import { allocUsage } from './usage.js';

/** Placements between yields to the event loop, so a large evaluation does not stall the server. */
const YIELD_EVERY = 500;

export const genericScheduler: Scheduler = async (evaluation, state) => {
  const now = Date.now() * 1_000_000;
  const job = state.job(evaluation.Namespace, evaluation.JobID) ?? null;
  const allocs = state.allocsOfJob(evaluation.Namespace, evaluation.JobID);
  const active = job && !job.Stop ? job : null;
  const ctx = active ? new EvalContext(state, active, allocs) : null;
  const deployment = active ? versionDeployment(active, state.latestDeployment(active.Namespace, active.ID)) : undefined;
  const rec = reconcile({
    jobId: evaluation.JobID,
    job,
    allocs,
    lostNodes: lostNodes(state, allocs),
    priorJobs: priorJobs(state, job, allocs),
    inPlaceRefused: ctx ? refusedInPlace(ctx, allocs) : new Set(),
    deploymentBudget: active ? deploymentBudget(active, deployment, allocs) : undefined,
    canaries: active ? canaryInput(active, deployment, allocs) : undefined,
    evalId: evaluation.ID,
    now,
  });

  const plan: Plan = { EvalID: evaluation.ID, Job: job, Place: [], InPlace: [], Updates: [], Deployment: null };
  const result: SchedulerResult = {
    plan,
    eval: { Status: 'complete', StatusDescription: '', FailedTGAllocs: null, QueuedAllocations: {} },
    createEvals: [],
    desiredUpdates: rec.desired,
  };
  for (const s of rec.stop) {
    plan.Updates.push(stopUpdate(s.alloc, s.description, s.lost));
    ctx?.release(s.alloc);
  }
  for (const d of rec.delayed) {
    const e = rescheduleEval(evaluation, d.at);
    result.createEvals.push(e);
    for (const id of d.allocIds) plan.Updates.push({ ID: id, FollowupEvalID: e.ID });
  }
  if (!ctx || !active) return result;

  for (const a of rec.inPlace) {
    plan.InPlace.push({ ...a, EvalID: evaluation.ID, JobVersion: active.Version, JobModifyIndex: active.JobModifyIndex });
  }

  for (const g of active.TaskGroups) result.eval.QueuedAllocations[g.Name] = 0;
  const failed = await placeAll(ctx, evaluation, rec.place, plan, result.eval.QueuedAllocations, now);
  if (Object.keys(failed).length > 0) {
    result.eval.FailedTGAllocs = failed;
    const blocked = blockedEval(evaluation, failed);
    result.createEvals.push(blocked);
    result.eval.BlockedEval = blocked.ID;
  }
  const canaryGroups = Object.entries(rec.desired).filter(([, d]) => d.Canary > 0).map(([g]) => g);
  plan.Deployment = joinDeployment(active, deployment, plan, canaryGroups, Math.floor(now / 1_000_000));
  if (plan.Deployment) result.eval.DeploymentID = plan.Deployment.ID;
  if (rec.rolling.length > 0) {
    const staggers = active.TaskGroups.filter((g) => rec.rolling.includes(g.Name)).map((g) => g.Update?.Stagger ?? active.Update.Stagger);
    const next = rollingEval(evaluation, Math.min(...staggers), now);
    result.createEvals.push(next);
    result.eval.NextEval = next.ID;
  }
  return result;
};

/** Live allocations of an older version whose node no longer takes the group: updating them is destructive. */
function refusedInPlace(ctx: EvalContext, allocs: Allocation[]): Set<string> {
  const job = ctx.job;
  const refused = new Set<string>();
  for (const a of allocs) {
    if (allocTerminal(a) || a.JobModifyIndex === job.JobModifyIndex) continue;
    const group = job.TaskGroups.find((g) => g.Name === a.TaskGroup);
    const node = ctx.nodeOf(a.NodeID);
    if (!group || !node) continue;
    if (!inDatacenters(node, job.Datacenters) || !inPool(node, job.NodePool) || ctx.plan(group).feasibility.check(node)) refused.add(a.ID);
  }
  return refused;
}

/**
 * Places in order, recording failures per group. After a group's first failure its later placements are
 * counted as coalesced failures without another search: the cluster has not changed in between.
 */
async function placeAll(
  ctx: EvalContext,
  evaluation: Evaluation,
  placements: Placement[],
  plan: Plan,
  queued: Record<string, number>,
  now: number,
): Promise<Record<string, AllocMetric>> {
  const job = ctx.job;
  const groups = new Map(job.TaskGroups.map((g) => [g.Name, g]));
  const failed: Record<string, AllocMetric> = {};
  let done = 0;
  for (const p of placements) {
    if (++done % YIELD_EVERY === 0) await new Promise(setImmediate);
    const group = groups.get(p.group)!;
    if (failed[p.group]) {
      failed[p.group].CoalescedFailures++;
      queued[p.group]++;
      continue;
    }
    const previous = p.previous;
    // A destructive update frees its node first, so the new version can take the old one's place.
    if (p.kind === 'destructive' && previous) ctx.release(previous);
    const metric = newMetric(job.NodePool, ctx.candidates.byDatacenter, ctx.candidates.inPool);
    const started = performance.now();
    const groupPlan = ctx.plan(group);
    const chosen = selectNode(ctx, groupPlan, metric, p.kind === 'reschedule' && previous ? penaltyNodes(previous) : null);
    metric.AllocationTime = Math.round((performance.now() - started) * 1_000_000);
    if (!chosen) {
      failed[p.group] = metric;
      queued[p.group]++;
      if (p.kind === 'destructive' && previous) ctx.restore(previous);
      continue;
    }
    const alloc = newAllocation({
      job,
      group,
      evalId: evaluation.ID,
      name: p.name,
      node: ctx.node(chosen.index),
      ports: ctx.slot(chosen.index).assignPorts(groupPlan.ask),
      metric,
      previous,
      tracker: p.kind === 'reschedule' && previous ? nextTracker(previous, group.ReschedulePolicy, now) : null,
    });
    if (p.kind === 'canary') alloc.DeploymentStatus = { Healthy: null, Timestamp: '0001-01-01T00:00:00Z', Canary: true, ModifyIndex: 0 };
    ctx.commit(chosen.index, group.Name, allocUsage(alloc));
    plan.Place.push(alloc);
    if (p.kind === 'destructive' && previous) plan.Updates.push(stopUpdate(previous, ALLOC_UPDATING, false));
    if (p.kind === 'reschedule' && previous) plan.Updates.push(stopUpdate(previous, ALLOC_RESCHEDULED, false));
  }
  return failed;
}

/** A replacement avoids the nodes its predecessors failed on. */
function penaltyNodes(previous: Allocation): Set<string> {
  const nodes = new Set([previous.NodeID]);
  for (const e of previous.RescheduleTracker?.Events ?? []) nodes.add(e.PrevNodeID);
  return nodes;
}
