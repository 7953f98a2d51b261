/**
 * An allocation's health in its deployment, judged on the node as Nomad's client does: healthy once
 * every task that should be running has run, without failing or restarting, for the group's
 * `min_healthy_time`; unhealthy when a task fails, or when `healthy_deadline` passes first. A task that
 * restarts starts the wait over. `health_check = "manual"` leaves the verdict to the operator; "checks"
 * is judged on task states too, since this node runs no service checks yet.
 *
 * One verdict per deployment: the server counts the first one it hears.
 */
import { goTime, type TaskState } from '../scheduler/structs/allocation.js';
import type { Task } from '../scheduler/structs/task.js';
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

  /** Looks at the allocation after any change: a new deployment starts a new watch. */
  observe(alloc: ClientAlloc, states: Record<string, TaskState>): void {
    if (alloc.DeploymentID !== this.deploymentId) this.begin(alloc);
    if (!this.deploymentId || this.verdict) return;
    const group = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
    const update = group?.Update;
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
    if (!allRunning || restarts !== this.restartsAtWait) {
      clearTimeout(this.healthyTimer);
      this.healthyTimer = undefined;
    }
    if (allRunning && !this.healthyTimer) {
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
    this.deploymentId = alloc.DeploymentID;
    this.healthyTimer = undefined;
    this.restartsAtWait = -1;
    // Judged before (by this node, before a restart): the server already holds the verdict.
    const known = alloc.DeploymentStatus?.Healthy;
    this.verdict = typeof known === 'boolean' ? { Healthy: known, Timestamp: alloc.DeploymentStatus!.Timestamp } : undefined;
    if (!this.deploymentId || this.verdict) return;
    const deadline = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup)?.Update?.HealthyDeadline ?? 0;
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
