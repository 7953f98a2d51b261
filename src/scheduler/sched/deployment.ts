/**
 * How a service job's evaluation takes part in its deployment (Nomad's reconciler with deployments):
 * which deployment the job version rolls out under, how many destructive updates
 * each group may make now, and the deployment's counts once the plan is known.
 */
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import { deployedGroups, newDeployment, type Deployment } from '../structs/deployment.js';
import type { Job } from '../structs/job.js';
import type { Plan } from './types.js';
import { runningDescription } from './canaries.js';

/** The job version's own deployment, if it has one (a deployment of an older version does not count). */
export function versionDeployment(job: Job, latest: Deployment | undefined): Deployment | undefined {
  return latest && latest.JobSpecModifyIndex === job.JobModifyIndex && latest.JobCreateIndex === job.CreateIndex ? latest : undefined;
}

/**
 * Destructive updates each deployed group may make in this evaluation: max_parallel less the
 * allocations of the deployment that have not yet proven healthy. A deployment that failed, or is
 * paused or cancelled, allows none; a new one allows max_parallel.
 */
export function deploymentBudget(job: Job, deployment: Deployment | undefined, allocs: Allocation[]): Map<string, number> {
  const budget = new Map<string, number>();
  const halted = deployment !== undefined && deployment.Status !== 'running' && deployment.Status !== 'successful';
  for (const name of deployedGroups(job)) {
    const group = job.TaskGroups.find((g) => g.Name === name)!;
    if (halted) {
      budget.set(name, 0);
      continue;
    }
    const proving = deployment
      ? allocs.filter((a) => a.DeploymentID === deployment.ID && a.TaskGroup === name && !allocTerminal(a) && a.DeploymentStatus?.Healthy !== true).length
      : 0;
    budget.set(name, Math.max(0, group.Update!.MaxParallel - proving));
  }
  return budget;
}

/**
 * Puts the plan's new and updated allocations of deployed groups into the version's deployment (made
 * now if the version has none and the plan changes anything), and counts them, canaries among them for
 * `canaryGroups` (the groups that want canaries in this evaluation). Answers the deployment as the plan
 * must write it, or null.
 */
export function joinDeployment(job: Job, existing: Deployment | undefined, plan: Plan, canaryGroups: string[], now: number): Deployment | null {
  const groups = new Set(deployedGroups(job));
  if (groups.size === 0) return null;
  const joining = [...plan.Place, ...plan.InPlace].filter((a) => groups.has(a.TaskGroup));
  if (!existing && joining.length === 0) return null;
  if (existing && existing.Status !== 'running') return null;
  const deployment: Deployment = existing
    ? { ...existing, TaskGroups: Object.fromEntries(Object.entries(existing.TaskGroups).map(([k, v]) => [k, { ...v }])) }
    : newDeployment(job, now);
  for (const g of canaryGroups) {
    const state = deployment.TaskGroups[g];
    const wanted = job.TaskGroups.find((t) => t.Name === g)?.Update?.Canary ?? 0;
    if (state) state.DesiredCanaries = wanted;
  }
  for (const alloc of joining) {
    const state = deployment.TaskGroups[alloc.TaskGroup];
    if (!state) continue;
    alloc.DeploymentID = deployment.ID;
    // Its health in this deployment is yet to be seen, even if it was healthy in the last one.
    if (!alloc.DeploymentStatus?.Canary) alloc.DeploymentStatus = null;
    else state.PlacedCanaries = [...(state.PlacedCanaries ?? []), alloc.ID];
    state.PlacedAllocs++;
  }
  if (deployment.Status === 'running') deployment.StatusDescription = runningDescription(deployment);
  return deployment;
}
