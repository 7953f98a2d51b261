/**
 * An allocation's health in its deployment, judged on the node as Nomad's client does: healthy once
 * every task that should be running has run, without failing or restarting, for the group's
 * `min_healthy_time`; unhealthy when a task fails, or when `healthy_deadline` passes first. A task that
 * restarts starts the wait over. With `health_check = "checks"` (the default) every healthiness check of
 * the allocation's services must pass too, all through `min_healthy_time`: a check that stops passing
 * starts the wait over, and one that never passes leaves the verdict to `healthy_deadline`. Readiness
 * checks (`on_update = "ignore"`) do not count. "task_states" judges on task states alone; "manual"
 * leaves the verdict to the operator.
 *
 * A service allocation placed outside a deployment to replace a migrated one (a node drain) is judged
 * the same way by its group's `migrate` block, as Nomad's client does: the drainer waits for it.
 *
 * One verdict per deployment (or migration): the server counts the first one it hears.
 */
import { goTime, type TaskState } from '../scheduler/structs/allocation.js';
import type { Task } from '../scheduler/structs/task.js';
import type { MigrateStrategy, UpdateStrategy } from '../scheduler/structs/policies.js';
import type { ClientAlloc } from './types.js';

export interface HealthVerdict {
  Healthy: boolean;
  /** RFC3339 */
  Timestamp: string;
}

/** Tasks that must be running for the allocation to be healthy: main tasks and sidecars. */
function mustRun(task: Task): boolean {
  const hook = task.Lifecycle?.Hook;
  if (!hook) return true;
  if (hook === 'poststop') return false;
  return task.Lifecycle!.Sidecar;
}

/** What the allocation is on trial for (its deployment, or the migration it completes), and by which rules. */
function trialOf(alloc: ClientAlloc): { key: string; rules: UpdateStrategy | MigrateStrategy | null } {
  const group = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (alloc.DeploymentID) return { key: alloc.DeploymentID, rules: group?.Update ?? null };
  if (alloc.PreviousAllocation && alloc.Job.Type === 'service') return { key: `migration:${alloc.PreviousAllocation}`, rules: group?.Migrate ?? null };
  return { key: '', rules: null };
}

export class AllocHealthWatcher {
  private deploymentId = '';
  private verdict: HealthVerdict | undefined;
  private healthyTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** restarts seen when the current wait for min_healthy_time began */
  private restartsAtWait = -1;

  constructor(private readonly onVerdict: () => void) {}

  /** The verdict for the allocation's current deployment, once there is one. */
  current(): HealthVerdict | undefined {
    return this.verdict;
  }

  /**
   * Looks at the allocation after any change: a new deployment starts a new watch. `checksPassing`:
   * whether every healthiness check of the allocation passes now (true when it has none).
   */
  observe(alloc: ClientAlloc, states: Record<string, TaskState>, checksPassing: boolean): void {
    const trial = trialOf(alloc);
    if (trial.key !== this.deploymentId) this.begin(alloc);
    if (!this.deploymentId || this.verdict) return;
    const group = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
    const update = trial.rules;
    if (!group || !update || update.HealthCheck === 'manual') return;
    const watched = group.Tasks.filter(mustRun).map((t) => states[t.Name]).filter((s): s is TaskState => s !== undefined);
    // Told to stop (scaled down, replaced): it is no longer on trial, whatever its tasks do now.
    if (alloc.DesiredStatus !== 'run') {
      this.stop();
      return;
    }
    if (watched.some((s) => s.State === 'dead' && s.Failed)) {
      this.decide(false);
      return;
    }
    const restarts = watched.reduce((n, s) => n + s.Restarts, 0);
    const allRunning = watched.length > 0 && watched.every((s) => s.State === 'running');
    const healthy = allRunning && (update.HealthCheck !== 'checks' || checksPassing);
    if (!healthy || restarts !== this.restartsAtWait) {
      clearTimeout(this.healthyTimer);
      this.healthyTimer = undefined;
    }
    if (healthy && !this.healthyTimer) {
      this.restartsAtWait = restarts;
      this.healthyTimer = setTimeout(() => this.decide(true), update.MinHealthyTime / 1e6);
      this.healthyTimer.unref();
    }
  }

  stop(): void {
    clearTimeout(this.healthyTimer);
    clearTimeout(this.deadlineTimer);
  }

  private begin(alloc: ClientAlloc): void {
    this.stop();
    const trial = trialOf(alloc);
    this.deploymentId = trial.key;
    this.healthyTimer = undefined;
    this.restartsAtWait = -1;
    // Judged before (by this node, before a restart): the server already holds the verdict.
    const known = alloc.DeploymentStatus?.Healthy;
    this.verdict = typeof known === 'boolean' ? { Healthy: known, Timestamp: alloc.DeploymentStatus!.Timestamp } : undefined;
    if (!this.deploymentId || this.verdict) return;
    const deadline = trial.rules?.HealthyDeadline ?? 0;
    if (deadline > 0) {
      this.deadlineTimer = setTimeout(() => this.decide(false), deadline / 1e6);
      this.deadlineTimer.unref();
    }
  }

  private decide(healthy: boolean): void {
    if (this.verdict) return;
    this.stop();
    this.verdict = { Healthy: healthy, Timestamp: goTime() };
    this.onVerdict();
  }
}
