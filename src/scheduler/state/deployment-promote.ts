/**
 * Promoting a deployment's canaries (Nomad's UpdateDeploymentPromotion): the named groups, or all of
 * them, are marked promoted once every one of their canaries is healthy; the canaries become ordinary
 * allocations of the deployment, and an evaluation replaces the rest of the old allocations.
 */
import type { WriteTx } from '../../storage/store.js';
import { UserError } from '../../shared/errors.js';
import { allocTerminal, goTime } from '../structs/allocation.js';
import { deploymentActive, type Deployment } from '../structs/deployment.js';
import type { Evaluation } from '../structs/evaluation.js';
import type { Job } from '../structs/job.js';
import { runningDescription } from '../sched/canaries.js';
import { getAlloc, putAlloc } from './allocs.js';
import { completeIfDone, putDeployment } from './deployments.js';
import { evaluateJob } from './evals.js';
import { JOBS_TABLE, jobKey } from './tables.js';

/** The deployment's canaries in `group` that are running and healthy. */
export function healthyCanaries(tx: WriteTx, d: Deployment, group: string): number {
  return (d.TaskGroups[group]?.PlacedCanaries ?? []).filter((id) => {
    const a = getAlloc(tx, id);
    return a !== undefined && !allocTerminal(a) && a.DeploymentStatus?.Healthy === true;
  }).length;
}

/**
 * Promotes `groups` (every group when null). Refuses, writing nothing, a deployment that is not active,
 * a group it does not deploy, a group whose canaries are not all healthy, or nothing to promote.
 * Answers the evaluation that carries the rollout on.
 */
export function promoteDeployment(tx: WriteTx, d: Deployment, groups: string[] | null): Evaluation | undefined {
  if (!deploymentActive(d)) throw new UserError(`can't promote terminal deployment (status "${d.Status}")`);
  for (const g of groups ?? []) {
    if (!d.TaskGroups[g]) throw new UserError(`deployment does not include task group "${g}"`);
  }
  const chosen = Object.keys(d.TaskGroups).filter((g) => (groups === null || groups.includes(g)) && d.TaskGroups[g].DesiredCanaries > 0 && !d.TaskGroups[g].Promoted);
  for (const g of chosen) {
    const healthy = healthyCanaries(tx, d, g);
    const need = d.TaskGroups[g].DesiredCanaries;
    if (healthy < need) throw new UserError(`Task group "${g}" has ${healthy}/${need} healthy allocations`);
  }
  if (chosen.length === 0) throw new UserError('no canaries to promote');

  const taskGroups = { ...d.TaskGroups };
  for (const g of chosen) {
    const state = taskGroups[g];
    // The rest of the rollout has its own progress deadline from now.
    const requireBy = state.ProgressDeadline > 0 ? goTime(Date.now() + state.ProgressDeadline / 1e6) : state.RequireProgressBy;
    taskGroups[g] = { ...state, Promoted: true, RequireProgressBy: requireBy };
    for (const id of taskGroups[g].PlacedCanaries ?? []) {
      const prev = getAlloc(tx, id);
      if (!prev?.DeploymentStatus) continue;
      putAlloc(tx, { ...prev, DeploymentStatus: { ...prev.DeploymentStatus, Canary: false, ModifyIndex: tx.index }, ModifyIndex: tx.index }, prev);
    }
  }
  const promoted: Deployment = { ...d, TaskGroups: taskGroups, ModifyIndex: tx.index, ModifyTime: Date.now() * 1_000_000 };
  if (promoted.Status === 'running') promoted.StatusDescription = runningDescription(promoted);
  putDeployment(tx, promoted);
  completeIfDone(tx, promoted);
  const job = tx.get<Job>(JOBS_TABLE, jobKey(d.Namespace, d.JobID));
  return job ? evaluateJob(tx, job, 'deployment-watcher', { extra: { DeploymentID: d.ID } }) : undefined;
}

/** With auto_promote on every group that has canaries, promotes them all once they are all healthy. */
export function autoPromote(tx: WriteTx, d: Deployment): boolean {
  if (d.Status !== 'running') return false;
  const waiting = Object.keys(d.TaskGroups).filter((g) => d.TaskGroups[g].DesiredCanaries > 0 && !d.TaskGroups[g].Promoted);
  if (waiting.length === 0 || !waiting.every((g) => d.TaskGroups[g].AutoPromote)) return false;
  if (!waiting.every((g) => healthyCanaries(tx, d, g) >= d.TaskGroups[g].DesiredCanaries)) return false;
  promoteDeployment(tx, d, null);
  return true;
}
