/**
 * The periodic launcher: keeps each active periodic job's next launch time, and at that time launches
 * a child (src/scheduler/state/periodic.ts). It follows the periodic jobs (state/periodic-jobs.ts), so
 * registering, updating, stopping or purging a job changes what it launches without anyone telling it. At start it launches,
 * once, each job whose launch was missed while no server ran, as Nomad does on restore.
 *
 * Time comes from a Clock, so tests can drive the launcher through a daylight-saving change.
 */
import type { Logger } from '../../shared/log.js';
import type { Store } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { jobKey } from '../state/tables.js';
import { PERIODIC_JOBS, periodicJobs } from '../state/periodic-jobs.js';
import { lastLaunch, launchPeriodic, type LaunchKind } from '../state/periodic.js';
import { isPeriodicActive, periodicNext } from './cron.js';

export interface Clock {
  /** Unix ms */
  now(): number;
  /** calls `fn` after `ms`; returns a function that cancels it */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

/** Timers longer than this are re-armed on firing: setTimeout cannot wait 25 days, and the clock may jump. */
const MAX_TIMER_MS = 60 * 60 * 1000;
/** How long one wait for a change of a periodic job lasts before it is renewed. */
const WATCH_MS = 60_000;

interface Tracked {
  job: Job;
  /** Unix ms; undefined when the specs name no future time */
  next: number | undefined;
}

export class PeriodicLauncher {
  private readonly tracked = new Map<string, Tracked>();
  private cancelTimer: (() => void) | undefined;
  private running = false;
  private stopSignal: () => void = () => {};
  private readonly stopped = new Promise<void>((resolve) => (this.stopSignal = resolve));
  /** launches and syncs run one at a time, in order */
  private work: Promise<void> = Promise.resolve();
  private watching: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Launches what was missed while no server ran, then follows the periodic jobs. */
  start(): Promise<void> {
    this.running = true;
    const restored = this.enqueue(async () => {
      await this.restore();
      this.sync();
    });
    this.watching = restored.then(() => this.watch());
    return restored;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopSignal();
    this.cancelTimer?.();
    await this.watching;
    await this.work;
  }

  /** When the job launches next, as tracked; undefined when it is not tracked. */
  nextLaunch(namespace: string, id: string): Date | undefined {
    const next = this.tracked.get(jobKey(namespace, id))?.next;
    return next === undefined ? undefined : new Date(next);
  }

  /** Resolves once every launch due and every change seen so far has been handled. */
  settled(): Promise<void> {
    return this.enqueue(async () => {});
  }

  private enqueue(fn: () => Promise<void> | void): Promise<void> {
    const next = this.work.then(fn).catch((err: Error) => this.log.error(`periodic launcher: ${err.message}`));
    this.work = next;
    return next;
  }

  private activeJobs(): Job[] {
    return periodicJobs(this.store).filter(isPeriodicActive);
  }

  private async restore(): Promise<void> {
    const now = this.clock.now();
    for (const job of this.activeJobs()) {
      // The last launch, or when the job was submitted if it never launched (or was purged and registered again).
      const since = Math.max(lastLaunch(this.store, job.Namespace, job.ID) ?? 0, Math.floor(job.SubmitTime / 1_000_000));
      const missed = periodicNext(job.Periodic!, new Date(since));
      if (!missed || missed.getTime() > now) continue;
      this.log.info(`periodic job "${job.ID}" missed its launch at ${missed.toISOString()}; launching it now`);
      await this.launch(job, now, 'catch-up');
    }
  }

  private async watch(): Promise<void> {
    let seen = this.store.tableIndex(PERIODIC_JOBS);
    while (this.running) {
      const index = await Promise.race([this.store.waitForIndex(seen, WATCH_MS, PERIODIC_JOBS), this.stopped.then(() => seen)]);
      if (!this.running) return;
      if (index > seen) {
        seen = index;
        await this.enqueue(() => this.sync());
      }
    }
  }

  /** Tracks the active periodic jobs as stored now: new and updated ones launch next from now, as in Nomad. */
  private sync(): void {
    if (!this.running) return;
    const now = this.clock.now();
    const active = new Set<string>();
    for (const job of this.activeJobs()) {
      const key = jobKey(job.Namespace, job.ID);
      active.add(key);
      const known = this.tracked.get(key);
      if (known && known.job.JobModifyIndex === job.JobModifyIndex) continue;
      this.tracked.set(key, { job, next: periodicNext(job.Periodic!, new Date(now))?.getTime() });
    }
    for (const key of [...this.tracked.keys()]) if (!active.has(key)) this.tracked.delete(key);
    this.arm();
  }

  private arm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (!this.running) return;
    let earliest: number | undefined;
    for (const t of this.tracked.values()) if (t.next !== undefined && (earliest === undefined || t.next < earliest)) earliest = t.next;
    if (earliest === undefined) return;
    const wait = Math.min(Math.max(0, earliest - this.clock.now()), MAX_TIMER_MS);
    this.cancelTimer = this.clock.setTimer(() => void this.enqueue(() => this.fire()), wait);
  }

  /** Launches every instant that has come, each once, in order; each job's next time follows its last instant. */
  private async fire(): Promise<void> {
    const now = this.clock.now();
    for (;;) {
      let due: Tracked | undefined;
      for (const t of this.tracked.values()) if (t.next !== undefined && t.next <= now && (!due || t.next < due.next!)) due = t;
      if (!due || !this.running) break;
      const at = due.next!;
      due.next = periodicNext(due.job.Periodic!, new Date(at))?.getTime();
      await this.launch(due.job, at, 'scheduled');
    }
    this.arm();
  }

  private async launch(job: Job, at: number, kind: LaunchKind): Promise<void> {
    const { result } = await launchPeriodic(this.store, job.Namespace, job.ID, new Date(at), kind);
    if (result.child) this.log.info(`launched "${result.child.ID}" of periodic job "${job.ID}"`);
    else if (result.skipped === 'overlap') this.log.info(`periodic job "${job.ID}" not launched at ${new Date(at).toISOString()}: a previous launch is still running (prohibit_overlap)`);
  }
}
