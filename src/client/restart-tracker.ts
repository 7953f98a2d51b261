/**
 * Whether a task that ended starts again, and when. Pure: time and randomness come in as
 * arguments, so every rule can be tested without waiting.
 */
import type { RestartPolicy } from '../scheduler/structs/policies.js';
import type { TaskLifecycle } from '../scheduler/structs/task.js';
import { formatGoDuration } from '../shared/duration.js';

export const RESTART_REASONS = {
  withinPolicy: 'Restart within policy',
  delay: 'Exceeded allowed attempts, applying a delay',
  noRestarts: 'Policy allows no restarts',
  unrecoverable: 'Error was unrecoverable',
} as const;

/** Up to a quarter of the delay is added at random, so that many failing tasks do not restart in step. */
const JITTER = 0.25;

export type RestartDecision =
  /** start again after `delayNs` */
  | { kind: 'restart'; delayNs: number; reason: string }
  /** the task failed for good */
  | { kind: 'fail'; reason: string }
  /** the task is done and did not fail */
  | { kind: 'done' };

/** What a restarted server needs to go on counting where it stopped. */
export interface RestartTrackerState {
  /** failures in the current window */
  count: number;
  /** Unix ms of the window's first restart; 0 before any */
  windowStartMs: number;
}

/**
 * Whether a successful exit ends the task or restarts it: services must keep running, batch work is done
 * when it succeeds, a prestart or poststart task is done unless it is a sidecar, a poststop task is done.
 */
export function restartsOnSuccess(jobType: string, lifecycle: TaskLifecycle | null): boolean {
  if (lifecycle?.Hook === 'prestart' || lifecycle?.Hook === 'poststart') return lifecycle.Sidecar;
  if (lifecycle?.Hook === 'poststop') return false;
  return jobType !== 'batch' && jobType !== 'sysbatch';
}

export class RestartTracker {
  private readonly onSuccess: boolean;
  private st: RestartTrackerState;

  constructor(
    private readonly policy: RestartPolicy,
    jobType: string,
    lifecycle: TaskLifecycle | null,
    saved?: RestartTrackerState,
    private readonly random: () => number = Math.random,
  ) {
    this.onSuccess = restartsOnSuccess(jobType, lifecycle);
    this.st = saved ? { ...saved } : { count: 0, windowStartMs: 0 };
  }

  state(): RestartTrackerState {
    return { ...this.st };
  }

  /** The task ran and ended; `successful` is exit code 0 without a signal or error. */
  onExit(successful: boolean, nowMs: number): RestartDecision {
    if (successful && !this.onSuccess) return { kind: 'done' };
    return this.decide(nowMs, true);
  }

  /** The driver could not start the task. */
  onStartError(recoverable: boolean, nowMs: number): RestartDecision {
    return this.decide(nowMs, recoverable);
  }

  private decide(nowMs: number, recoverable: boolean): RestartDecision {
    const p = this.policy;
    if (p.Attempts === 0) return { kind: 'fail', reason: RESTART_REASONS.noRestarts };
    const intervalMs = p.Interval / 1e6;
    // A new window opens at the first failure after the previous one ended.
    if (this.st.windowStartMs === 0 || nowMs > this.st.windowStartMs + intervalMs) this.st = { count: 0, windowStartMs: nowMs };
    this.st.count++;
    if (!recoverable) return { kind: 'fail', reason: RESTART_REASONS.unrecoverable };
    if (this.st.count > p.Attempts) {
      if (p.Mode === 'fail') {
        return { kind: 'fail', reason: `Exceeded allowed attempts ${p.Attempts} in interval ${formatGoDuration(p.Interval)} and mode is "fail"` };
      }
      // mode "delay": wait for the window to end; the next failure then opens a new one.
      const waitNs = Math.max(0, Math.round((this.st.windowStartMs + intervalMs - nowMs) * 1e6));
      return { kind: 'restart', delayNs: waitNs, reason: RESTART_REASONS.delay };
    }
    return { kind: 'restart', delayNs: p.Delay + Math.floor(this.random() * p.Delay * JITTER), reason: RESTART_REASONS.withinPolicy };
  }
}
