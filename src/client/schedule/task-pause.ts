/**
 * One task's pause schedule on the node: the state its schedule and any override give it, a timer for
 * the schedule's next change, and a callback on every change. The task runner stops and starts the
 * task accordingly; time comes from a clock that tests replace.
 */
import type { TaskSchedule } from '../../scheduler/structs/task.js';
import { type TaskEvent, newTaskEvent } from '../../scheduler/structs/allocation.js';
import { UserError } from '../../shared/errors.js';
import { windowAt } from '../../scheduler/periodic/cron-window.js';
import { type PauseRequest, SCHEDULE_STATES, type ScheduleOverride, type ScheduleState, stopsTask } from '../../scheduler/wire/schedule-state.js';

/** Nomad's event types for schedule changes. */
const PAUSING = 'Pausing';
const RUNNING = 'Running';

/** The event recording a change to `state`, as Nomad words it; none for the passing schedule_resume. */
function scheduleEvent(state: ScheduleState): TaskEvent | undefined {
  switch (state) {
    case 'force_pause':
      return newTaskEvent(PAUSING, { DisplayMessage: 'Pausing due to override' });
    case 'scheduled_pause':
      return newTaskEvent(PAUSING, { DisplayMessage: 'Pausing due to schedule' });
    case 'force_run':
      return newTaskEvent(RUNNING, { DisplayMessage: 'Running due to override' });
    case '':
      return newTaskEvent(RUNNING, { DisplayMessage: 'Running due to schedule' });
    default:
      return undefined;
  }
}

export interface PauseClock {
  /** Unix ms */
  now(): number;
  /** calls `fn` after `ms`; answers a function that cancels it */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: PauseClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * The longest single wait: setTimeout cannot wait beyond about 24.8 days, and the wall clock may be set
 * meanwhile, so the schedule is looked at again at least this often.
 */
const MAX_WAIT_MS = 3_600_000;

export class NoScheduleError extends UserError {
  constructor(task: string) {
    super(`task "${task}" has no schedule block: only a task with a schedule can be paused or run by override`);
  }
}

export class TaskPause {
  private overrideState: ScheduleOverride;
  private current: ScheduleState;
  private cancelTimer?: () => void;
  private active = false;

  constructor(
    private schedule: TaskSchedule | null,
    saved: { override: ScheduleOverride; state: string },
    private readonly onChange: (state: ScheduleState, event: TaskEvent | undefined) => void,
    private readonly clock: PauseClock = systemClock,
  ) {
    this.overrideState = schedule?.Cron ? saved.override : '';
    this.current = (SCHEDULE_STATES as readonly string[]).includes(saved.state) ? (saved.state as ScheduleState) : '';
  }

  get state(): ScheduleState {
    return this.current;
  }

  /** The override to keep across a restart of the node. */
  get override(): ScheduleOverride {
    return this.overrideState;
  }

  /** Whether the task must not run now. */
  get paused(): boolean {
    return stopsTask(this.current);
  }

  get hasSchedule(): boolean {
    return Boolean(this.schedule?.Cron);
  }

  /** Follows the schedule from now on: its state now, and a timer for its next change. */
  start(): void {
    this.active = true;
    this.evaluate();
  }

  stop(): void {
    this.active = false;
    this.clearTimer();
  }

  /** A new version of the task, updated in place; without a schedule, any override goes with it. */
  update(schedule: TaskSchedule | null): void {
    this.schedule = schedule;
    if (!schedule?.Cron) this.overrideState = '';
    this.evaluate();
  }

  /** An override from the pause API; `schedule_resume` removes the override and settles at once. */
  request(state: PauseRequest): void {
    if (state === 'schedule_resume') {
      this.overrideState = '';
      this.set('schedule_resume');
    } else this.overrideState = state;
    this.evaluate();
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private evaluate(): void {
    this.clearTimer();
    const cron = this.schedule?.Cron;
    if (!cron) return this.set('');
    // An override holds whatever the schedule says, so there is nothing to wake up for.
    if (this.overrideState !== '') return this.set(this.overrideState);
    const now = this.clock.now();
    const window = windowAt(cron, new Date(now));
    this.set(window.open ? '' : 'scheduled_pause');
    if (this.active && window.until) {
      const wait = Math.min(Math.max(window.until.getTime() - now, 1), MAX_WAIT_MS);
      this.cancelTimer = this.clock.after(wait, () => this.evaluate());
    }
  }

  private set(state: ScheduleState): void {
    if (state === this.current) return;
    this.current = state;
    this.onChange(state, scheduleEvent(state));
  }
}
