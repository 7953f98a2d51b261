/**
 * The periodic launcher against a real store, driven by an injected clock: launches at the scheduled
 * instants (through daylight-saving changes), prohibit_overlap, reactions to updates, stops and purges,
 * and the one catch-up launch after a restart.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { PeriodicLauncher, type Clock } from '../../../src/scheduler/periodic/launcher.js';
import { registerJob, stopJob, listJobs } from '../../../src/scheduler/state/jobs.js';
import { evalsOfJob, updateEval } from '../../../src/scheduler/state/evals.js';
import { canonicalizeJob, type Job } from '../../../src/scheduler/structs/index.js';
import { createLogger } from '../../../src/shared/log.js';
import { openLmdbStore } from '../../../src/storage/lmdb-store.js';
import { ALLOC_MEMORY_TABLES } from '../../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../../src/server/migrations.js';
import type { Store } from '../../../src/storage/store.js';
import { makeTempDir } from '../../support/server.js';
import { until } from '../../support/wait.js';

class FakeClock implements Clock {
  private timers: Array<{ at: number; fn: () => void }> = [];
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((x) => x !== timer));
  }
  /** Moves time forward to `target`, firing each timer at its own time and letting the launcher finish. */
  async advanceTo(target: number, launcher: PeriodicLauncher): Promise<void> {
    for (;;) {
      await launcher.settled();
      const due = this.timers.filter((x) => x.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = target;
    await launcher.settled();
  }
}

const log = createLogger('error', () => {});
const stores: Store[] = [];
const launchers: PeriodicLauncher[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const l of launchers.splice(0)) await l.stop();
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function open(dir?: string): Promise<{ store: Store; dir: string }> {
  const d = dir ?? (await makeTempDir('svc-periodic-'));
  if (!dir) dirs.push(d);
  const store = await openLmdbStore({ dir: d, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  stores.push(store);
  return { store, dir: d };
}

async function startLauncher(store: Store, clock: FakeClock): Promise<PeriodicLauncher> {
  const launcher = new PeriodicLauncher(store, log, clock);
  launchers.push(launcher);
  await launcher.start();
  return launcher;
}

function periodicJob(id: string, periodic: Record<string, unknown>): Job {
  return canonicalizeJob({
    ID: id,
    Type: 'batch',
    Datacenters: ['dc1'],
    Periodic: periodic,
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1s' } }] }],
  });
}

async function register(store: Store, launcher: PeriodicLauncher, job: Job): Promise<void> {
  await registerJob(store, job);
  await until(async () => launcher.nextLaunch(job.Namespace, job.ID), (n) => n !== undefined, `${job.ID} to be tracked`);
}

const childIds = (store: Store, parent: string) =>
  listJobs(store, 'default', `${parent}/periodic-`)
    .filter((j) => j.ParentID === parent)
    .map((j) => j.ID);
const idAt = (parent: string, iso: string) => `${parent}/periodic-${Date.parse(iso) / 1000}`;

describe('periodic launcher', () => {
  it('launches a child at each instant, with its evaluation and no periodic block', async () => {
    const { store } = await open();
    const clock = new FakeClock(Date.parse('2024-01-01T00:00:00Z'));
    const launcher = await startLauncher(store, clock);
    await register(store, launcher, periodicJob('report', { Specs: ['*/15 * * * *'] }));
    expect(launcher.nextLaunch('default', 'report')?.toISOString()).toBe('2024-01-01T00:15:00.000Z');
    await clock.advanceTo(Date.parse('2024-01-01T00:40:00Z'), launcher);
    expect(childIds(store, 'report')).toEqual([idAt('report', '2024-01-01T00:15:00Z'), idAt('report', '2024-01-01T00:30:00Z')]);
    const child = listJobs(store, 'default', 'report/periodic-')[0];
    expect(child.Periodic).toBeNull();
    expect(child.ParentID).toBe('report');
    expect(child.Name).toBe(child.ID);
    expect(child.Status).toBe('pending');
    const evals = evalsOfJob(store, 'default', child.ID);
    expect(evals.map((e) => e.TriggeredBy)).toEqual(['periodic-job']);
  });

  it.each([
    ['America/New_York', 'spring forward', '30 2 * * *', '2024-03-09T12:00:00Z', '2024-03-12T00:00:00Z', ['2024-03-10T07:00:00Z', '2024-03-11T06:30:00Z']],
    ['America/New_York', 'fall back', '30 1 * * *', '2024-11-02T12:00:00Z', '2024-11-05T00:00:00Z', ['2024-11-03T05:30:00Z', '2024-11-04T06:30:00Z']],
    ['Europe/Berlin', 'spring forward', '0 * * * *', '2024-03-31T00:30:00Z', '2024-03-31T03:30:00Z', ['2024-03-31T01:00:00Z', '2024-03-31T02:00:00Z', '2024-03-31T03:00:00Z']],
    ['Europe/Berlin', 'fall back', '0 * * * *', '2024-10-26T23:30:00Z', '2024-10-27T03:30:00Z', ['2024-10-27T00:00:00Z', '2024-10-27T01:00:00Z', '2024-10-27T02:00:00Z', '2024-10-27T03:00:00Z']],
    ['Europe/Berlin', 'fall back, a fixed time in the repeated hour', '30 2 * * *', '2024-10-26T12:00:00Z', '2024-10-28T12:00:00Z', ['2024-10-27T00:30:00Z', '2024-10-28T01:30:00Z']],
  ])('%s %s (%s): one launch per instant, none missed', async (tz, _change, spec, from, to, want) => {
    const { store } = await open();
    const clock = new FakeClock(Date.parse(from));
    const launcher = await startLauncher(store, clock);
    await register(store, launcher, periodicJob('dst', { Specs: [spec], TimeZone: tz }));
    // One hour at a time, as a real timer would see it.
    for (let t = Date.parse(from); t < Date.parse(to); t += 60 * 60 * 1000) await clock.advanceTo(t, launcher);
    await clock.advanceTo(Date.parse(to), launcher);
    expect(childIds(store, 'dst')).toEqual(want.map((w) => idAt('dst', w)));
  });

  it('crons: launches at the earliest of the specs, each instant once', async () => {
    const { store } = await open();
    const clock = new FakeClock(Date.parse('2024-01-01T00:00:00Z'));
    const launcher = await startLauncher(store, clock);
    await register(store, launcher, periodicJob('multi', { Specs: ['0 6 * * *', '0 */12 * * *'] }));
    await clock.advanceTo(Date.parse('2024-01-01T13:00:00Z'), launcher);
    expect(childIds(store, 'multi')).toEqual([idAt('multi', '2024-01-01T06:00:00Z'), idAt('multi', '2024-01-01T12:00:00Z')]);
  });

  it('prohibit_overlap: skips a launch while the previous child still runs, and launches once it is done', async () => {
    const { store } = await open();
    const clock = new FakeClock(Date.parse('2024-01-01T00:00:00Z'));
    const launcher = await startLauncher(store, clock);
    await register(store, launcher, periodicJob('solo', { Specs: ['@hourly'], ProhibitOverlap: true }));
    await clock.advanceTo(Date.parse('2024-01-01T03:30:00Z'), launcher);
    // Nothing schedules the first child here, so its evaluation stays open: it is still running.
    expect(childIds(store, 'solo')).toEqual([idAt('solo', '2024-01-01T01:00:00Z')]);
    const [evaluation] = evalsOfJob(store, 'default', idAt('solo', '2024-01-01T01:00:00Z'));
    await store.write((tx) => updateEval(tx, evaluation.ID, { Status: 'complete' }));
    await clock.advanceTo(Date.parse('2024-01-01T04:30:00Z'), launcher);
    expect(childIds(store, 'solo')).toEqual([idAt('solo', '2024-01-01T01:00:00Z'), idAt('solo', '2024-01-01T04:00:00Z')]);
  });

  it('without prohibit_overlap, launches while earlier children run', async () => {
    const { store } = await open();
    const clock = new FakeClock(Date.parse('2024-01-01T00:00:00Z'));
    const launcher = await startLauncher(store, clock);
    await register(store, launcher, periodicJob('many', { Specs: ['@hourly'] }));
    await clock.advanceTo(Date.parse('2024-01-01T02:30:00Z'), launcher);
    expect(childIds(store, 'many')).toHaveLength(2);
  });

  it('an update changes the schedule; a disabled, stopped or purged job stops launching', async () => {
    const { store } = await open();
    const clock = new FakeClock(Date.parse('2024-01-01T00:00:00Z'));
    const launcher = await startLauncher(store, clock);
    await register(store, launcher, periodicJob('life', { Specs: ['@hourly'] }));
    await registerJob(store, periodicJob('life', { Specs: ['*/30 * * * *'] }));
    await until(async () => launcher.nextLaunch('default', 'life')?.toISOString(), (n) => n === '2024-01-01T00:30:00.000Z', 'the new schedule');
    await clock.advanceTo(Date.parse('2024-01-01T00:45:00Z'), launcher);
    expect(childIds(store, 'life')).toEqual([idAt('life', '2024-01-01T00:30:00Z')]);

    await registerJob(store, periodicJob('life', { Specs: ['*/30 * * * *'], Enabled: false }));
    await until(async () => launcher.nextLaunch('default', 'life') ?? null, (n) => n === null, 'the disabled job to be dropped');
    await clock.advanceTo(Date.parse('2024-01-01T01:15:00Z'), launcher);
    expect(childIds(store, 'life')).toHaveLength(1);

    await register(store, launcher, periodicJob('life', { Specs: ['*/30 * * * *'] }));
    await stopJob(store, 'default', 'life');
    await until(async () => launcher.nextLaunch('default', 'life') ?? null, (n) => n === null, 'the stopped job to be dropped');
    await clock.advanceTo(Date.parse('2024-01-01T02:15:00Z'), launcher);
    expect(childIds(store, 'life')).toHaveLength(1);

    await register(store, launcher, periodicJob('gone', { Specs: ['*/30 * * * *'] }));
    await stopJob(store, 'default', 'gone', { purge: true });
    await until(async () => launcher.nextLaunch('default', 'gone') ?? null, (n) => n === null, 'the purged job to be dropped');
    await clock.advanceTo(Date.parse('2024-01-01T03:15:00Z'), launcher);
    expect(childIds(store, 'gone')).toHaveLength(0);
  });

  it('after a restart, launches missed while no server ran are launched once, at start, then the schedule resumes', async () => {
    const { store, dir } = await open();
    const hour = 60 * 60 * 1000;
    // The job is submitted now (real time), so the clock starts here too.
    const start = Math.ceil(Date.now() / hour) * hour;
    const clock = new FakeClock(Date.now());
    const first = await startLauncher(store, clock);
    await register(store, first, periodicJob('nightly', { Specs: ['@hourly'] }));
    await clock.advanceTo(start + 10 * 60 * 1000, first);
    expect(childIds(store, 'nightly')).toEqual([`nightly/periodic-${start / 1000}`]);
    await first.stop();
    launchers.splice(launchers.indexOf(first), 1);
    await store.close();
    stores.splice(stores.indexOf(store), 1);

    // Down for five hours: four launches missed.
    const { store: again } = await open(dir);
    const later = new FakeClock(start + 5 * hour + 30 * 60 * 1000);
    const second = await startLauncher(again, later);
    expect(childIds(again, 'nightly')).toEqual([`nightly/periodic-${start / 1000}`, `nightly/periodic-${(start + 5 * hour + 30 * 60 * 1000) / 1000}`]);
    expect(second.nextLaunch('default', 'nightly')?.getTime()).toBe(start + 6 * hour);
    await later.advanceTo(start + 6 * hour + 60_000, second);
    expect(childIds(again, 'nightly')).toHaveLength(3);
    expect(childIds(again, 'nightly')[2]).toBe(`nightly/periodic-${(start + 6 * hour) / 1000}`);
  });

  it('after a restart, no catch-up launch while a child still runs under prohibit_overlap', async () => {
    const { store, dir } = await open();
    const hour = 60 * 60 * 1000;
    const start = Math.ceil(Date.now() / hour) * hour;
    const clock = new FakeClock(Date.now());
    const first = await startLauncher(store, clock);
    await register(store, first, periodicJob('exclusive', { Specs: ['@hourly'], ProhibitOverlap: true }));
    await clock.advanceTo(start + 60_000, first);
    await first.stop();
    launchers.splice(0);
    await store.close();
    stores.splice(0);
    // Nothing ran the first child: its evaluation is still open.
    const { store: again } = await open(dir);
    await startLauncher(again, new FakeClock(start + 3 * hour + 60_000));
    expect(childIds(again, 'exclusive')).toEqual([`exclusive/periodic-${start / 1000}`]);
  });

  it('a restart with nothing missed launches nothing', async () => {
    const { store, dir } = await open();
    const clock = new FakeClock(Date.now());
    const first = await startLauncher(store, clock);
    await register(store, first, periodicJob('calm', { Specs: ['0 0 1 1 * 2099'] }));
    await first.stop();
    launchers.splice(0);
    await store.close();
    stores.splice(0);
    const { store: again } = await open(dir);
    await startLauncher(again, new FakeClock(Date.now() + 60_000));
    expect(childIds(again, 'calm')).toHaveLength(0);
  });
});
