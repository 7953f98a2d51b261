/**
 * Canary deployments (Nomad's reconciler with canaries): a destructive update of a group whose update
 * strategy sets `canary = N` first places N allocations of the new version beside the old ones, and
 * replaces nothing else until the deployment promotes the group. What the reconciler needs to know is
 * read here from the job version's deployment; the choices themselves stay in reconcile.ts.
 */
import type { Allocation } from '../structs/allocation.js';
import { DEPLOYMENT_DESCRIPTIONS, type Deployment } from '../structs/deployment.js';
import type { Job } from '../structs/job.js';
import { allocIndex, allocName } from './names.js';

/** One group's canary state in the job version's deployment. */
export interface CanaryGroup {
  /** the group's `canary` */
  wanted: number;
  /** the deployment already asked for canaries (DesiredCanaries) and has not promoted them */
  awaiting: boolean;
  promoted: boolean;
  /** the deployment failed, is paused or was cancelled: no new canaries */
  halted: boolean;
  /** the deployment's canary allocations (PlacedCanaries) */
  placed: ReadonlySet<string>;
}

export interface CanaryInput {
  groups: Map<string, CanaryGroup>;
  /** canaries never promoted whose deployment is older, failed or cancelled: stopped, and out of the count */
  stale: Set<string>;
}

/** The canary state of the job's groups that ask for canaries, and the canaries left over from earlier deployments. */
export function canaryInput(job: Job, deployment: Deployment | undefined, allocs: Allocation[]): CanaryInput {
  const groups = new Map<string, CanaryGroup>();
  const halted = deployment !== undefined && deployment.Status !== 'running';
  if (job.Type === 'service') {
    for (const g of job.TaskGroups) {
      const canary = g.Update?.Canary ?? 0;
      if (canary <= 0 || (g.Update?.MaxParallel ?? 0) <= 0) continue;
      const state = deployment?.TaskGroups[g.Name];
      groups.set(g.Name, {
        wanted: canary,
        awaiting: state !== undefined && state.DesiredCanaries > 0 && !state.Promoted,
        promoted: state?.Promoted ?? false,
        halted,
        placed: new Set(state?.PlacedCanaries ?? []),
      });
    }
  }
  // Promotion clears an allocation's Canary flag, so a flag still set means a canary that was never promoted.
  const current = deployment && deployment.Status !== 'failed' && deployment.Status !== 'cancelled' ? deployment.ID : '';
  const stale = new Set(allocs.filter((a) => a.DeploymentStatus?.Canary && a.DeploymentID !== current).map((a) => a.ID));
  return { groups, stale };
}

/**
 * Names for `n` new canaries: first the indexes of the allocations they will replace, then free indexes
 * below the count, then indexes above it (a group may ask for more canaries than its count).
 */
export function canaryNames(jobId: string, group: string, count: number, n: number, replacing: Allocation[], canaries: Allocation[]): string[] {
  const used = new Set(canaries.map((a) => allocIndex(a.Name)));
  const taken = new Set(replacing.map((a) => allocIndex(a.Name)));
  const order = [...[...taken].sort((a, b) => a - b)];
  for (let i = 0; i < count; i++) if (!taken.has(i)) order.push(i);
  const out: string[] = [];
  for (const i of order) {
    if (out.length === n) break;
    if (used.has(i)) continue;
    used.add(i);
    out.push(allocName(jobId, group, i));
  }
  for (let i = count; out.length < n; i++) {
    if (used.has(i)) continue;
    used.add(i);
    out.push(allocName(jobId, group, i));
  }
  return out;
}

/** Groups still waiting for their canaries to be promoted. */
export function awaitingPromotion(d: Deployment): string[] {
  return Object.entries(d.TaskGroups)
    .filter(([, s]) => s.DesiredCanaries > 0 && !s.Promoted)
    .map(([name]) => name);
}

/** A running deployment's description while canaries wait: Nomad's RunningNeedsPromotion or RunningAutoPromotion. */
export function runningDescription(d: Deployment): string {
  const waiting = awaitingPromotion(d);
  if (waiting.length === 0) return DEPLOYMENT_DESCRIPTIONS.running;
  return waiting.every((g) => d.TaskGroups[g].AutoPromote) ? DEPLOYMENT_DESCRIPTIONS.autoPromotion : DEPLOYMENT_DESCRIPTIONS.needsPromotion;
}
