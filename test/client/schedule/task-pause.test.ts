/**
 * One task's pause schedule (src/client/schedule/task-pause.ts) under a clock the test moves: the state
 * from the window and the overrides, the events each change records, and the timer for the next change.
 */
import { describe, expect, it } from 'vitest';
import { NoScheduleError, TaskPause, type PauseClock } from '../../../src/client/schedule/task-pause.js';
import type { ScheduleOverride, ScheduleState } from '../../../src/scheduler/wire/schedule-state.js';
import type { TaskSchedule } from '../../../src/scheduler/structs/task.js';

class TestClock implements PauseClock {
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, fn, live: true };
    this.timers.push(timer);
    return () => (timer.live = false);
  }
  /** the times of the timers still armed */
  pending(): string[] {
    return this.timers.filter((x) => x.live).map((x) => new Date(x.at).toISOString());
  }
  /** moves time to `iso`, firing every timer due on the way, in order */
  advanceTo(iso: string): void {
    const end = Date.parse(iso);
    for (;;) {
      const due = this.timers.filter((x) => x.live && x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.live = false;
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}

const DAYTIME: TaskSchedule = { Cron: { Start: '0 9 * * * *', End: '0 17', Timezone: 'UTC' } };

function setup(iso: string, schedule: TaskSchedule | null = DAYTIME, saved: { override: ScheduleOverride; state: string } = { override: '', state: '' }) {
  const clock = new TestClock(Date.parse(iso));
  const changes: { state: ScheduleState; event?: string }[] = [];
  const pause = new TaskPause(schedule, saved, (state, event) => changes.push({ state, event: event && `${event.Type}: ${event.DisplayMessage}` }), clock);
  return { clock, changes, pause };
}

describe('TaskPause', () => {
  it('outside the window it pauses, and runs when the window opens, then pauses at its end', () => {
    const { clock, changes, pause } = setup('2025-01-15T06:00:00Z');
    pause.start();
    expect(pause.state).toBe('scheduled_pause');
    expect(pause.paused).toBe(true);
    expect(changes).toEqual([{ state: 'scheduled_pause', event: 'Pausing: Pausing due to schedule' }]);

    clock.advanceTo('2025-01-15T08:59:59.999Z');
    expect(pause.state).toBe('scheduled_pause');
    clock.advanceTo('2025-01-15T09:00:00Z');
    expect(pause.state).toBe('');
    expect(pause.paused).toBe(false);
    expect(changes.at(-1)).toEqual({ state: '', event: 'Running: Running due to schedule' });

    clock.advanceTo('2025-01-15T16:59:59.999Z');
    expect(pause.state).toBe('');
    clock.advanceTo('2025-01-15T17:00:00Z');
    expect(pause.state).toBe('scheduled_pause');
    expect(clock.pending()).toEqual(['2025-01-15T18:00:00.000Z']);
    expect(changes).toHaveLength(3);
  });

  it('inside the window nothing changes at the start: no event', () => {
    const { clock, changes, pause } = setup('2025-01-15T12:00:00Z');
    pause.start();
    expect(pause.state).toBe('');
    expect(changes).toEqual([]);
    expect(clock.pending()).toEqual(['2025-01-15T13:00:00.000Z']);
  });

  it('a pause override holds inside the window, and scheduled gives the task back to the schedule', () => {
    const { clock, changes, pause } = setup('2025-01-15T12:00:00Z');
    pause.start();
    pause.request('force_pause');
    expect(pause.state).toBe('force_pause');
    expect(pause.override).toBe('force_pause');
    expect(pause.paused).toBe(true);
    expect(changes).toEqual([{ state: 'force_pause', event: 'Pausing: Pausing due to override' }]);
    // An override ignores the schedule: nothing to wake up for.
    expect(clock.pending()).toEqual([]);
    clock.advanceTo('2025-01-15T18:00:00Z');
    expect(pause.state).toBe('force_pause');

    clock.advanceTo('2025-01-16T10:00:00Z');
    pause.request('schedule_resume');
    expect(pause.override).toBe('');
    expect(changes.slice(1)).toEqual([{ state: 'schedule_resume', event: undefined }, { state: '', event: 'Running: Running due to schedule' }]);
    expect(clock.pending()).toEqual(['2025-01-16T11:00:00.000Z']);
    clock.advanceTo('2025-01-16T17:00:00Z');
    expect(pause.state).toBe('scheduled_pause');
  });

  it('a run override holds outside the window; removing it outside the window pauses again', () => {
    const { clock, changes, pause } = setup('2025-01-15T06:00:00Z');
    pause.start();
    pause.request('force_run');
    expect(pause.state).toBe('force_run');
    expect(pause.paused).toBe(false);
    expect(changes.at(-1)).toEqual({ state: 'force_run', event: 'Running: Running due to override' });
    clock.advanceTo('2025-01-15T20:00:00Z');
    expect(pause.state).toBe('force_run');
    pause.request('schedule_resume');
    expect(pause.state).toBe('scheduled_pause');
    expect(changes.at(-1)).toEqual({ state: 'scheduled_pause', event: 'Pausing: Pausing due to schedule' });
    clock.advanceTo('2025-01-16T09:00:00Z');
    expect(pause.state).toBe('');
  });

  it('keeps a saved override and state: no event when they still hold', () => {
    const { changes, pause } = setup('2025-01-15T12:00:00Z', DAYTIME, { override: 'force_pause', state: 'force_pause' });
    pause.start();
    expect(pause.state).toBe('force_pause');
    expect(changes).toEqual([]);
  });

  it('a saved pause whose window has opened meanwhile runs', () => {
    const { changes, pause } = setup('2025-01-15T12:00:00Z', DAYTIME, { override: '', state: 'scheduled_pause' });
    expect(pause.state).toBe('scheduled_pause');
    pause.start();
    expect(changes).toEqual([{ state: '', event: 'Running: Running due to schedule' }]);
  });

  it('a task without a schedule is always running and follows an update that adds one', () => {
    const { changes, pause } = setup('2025-01-15T06:00:00Z', null);
    pause.start();
    expect(pause.state).toBe('');
    expect(pause.hasSchedule).toBe(false);
    expect(changes).toEqual([]);
    pause.update(DAYTIME);
    expect(pause.state).toBe('scheduled_pause');
    pause.request('force_run');
    // an update that drops the schedule drops the override with it
    pause.update(null);
    expect(pause.state).toBe('');
    expect(pause.override).toBe('');
  });

  it('a timer waits at most an hour, or less when the next change comes sooner', () => {
    const { clock, pause } = setup('2025-01-15T08:30:00Z');
    pause.start();
    expect(clock.pending()).toEqual(['2025-01-15T09:00:00.000Z']);
  });

  it('stop cancels the timer; a timer never waits longer than an hour', () => {
    const { clock, pause } = setup('2025-01-15T06:00:00Z', { Cron: { Start: '0 9 1 1 * *', End: '0 17', Timezone: 'UTC' } });
    pause.start();
    // the next start is a year away: look again within the hour
    expect(clock.pending()).toEqual(['2025-01-15T07:00:00.000Z']);
    clock.advanceTo('2025-01-15T07:00:00Z');
    expect(clock.pending()).toEqual(['2025-01-15T08:00:00.000Z']);
    pause.stop();
    expect(clock.pending()).toEqual([]);
  });

  it('NoScheduleError is a 400 naming the task', () => {
    const err = new NoScheduleError('web');
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/^task "web" has no schedule block/);
  });
});
