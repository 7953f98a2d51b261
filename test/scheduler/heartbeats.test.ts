/**
 * Node liveness on an injected clock and stall source: a node is marked down only after its TTL and the
 * grace have passed on the server's loop time, so a stalled server does not mark nodes down for its own
 * lateness; nodes found silent together go down in one write, with one evaluation per affected job, and
 * none for a job whose waiting evaluation will see the nodes down anyway.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EvalBroker } from '../../src/scheduler/broker.js';
import { Heartbeats, type HeartbeatOptions } from '../../src/scheduler/heartbeats.js';
import { LoopStalls } from '../../src/scheduler/loop-stalls.js';
import { schedulerFor } from '../../src/scheduler/sched/index.js';
import { allocsOfJob } from '../../src/scheduler/state/allocs.js';
import { evaluateJob } from '../../src/scheduler/state/evals.js';
import { getJob } from '../../src/scheduler/state/jobs.js';
import { getNode } from '../../src/scheduler/state/nodes.js';
import type { Evaluation } from '../../src/scheduler/structs/evaluation.js';
import { createLogger } from '../../src/shared/log.js';
import type { Store } from '../../src/storage/store.js';
import { allEvals, drained, openTempStore, readyNode, submitJob, type TempStore } from '../support/scheduler-store.js';

const log = createLogger('error', () => undefined);
const TTL = 10_000;
const GRACE = 10_000;

let tmp: TempStore | undefined;
const running: Heartbeats[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.stop()));
  await tmp?.remove();
  tmp = undefined;
});

/** Heartbeats on a clock the test moves: `at` is the server's clock, `stalled` how much of it the loop was held. */
function heartbeats(store: Store, opts: Partial<HeartbeatOptions> = {}) {
  const clock = { at: 0, stalled: 0 };
  const hb = new Heartbeats(store, log, { ttlMs: TTL, graceMs: GRACE, now: () => clock.at, stalls: { stalledMs: () => clock.stalled }, ...opts });
  running.push(hb);
  return { hb, clock };
}

const status = (store: Store, id: string) => getNode(store, id)?.Status;

/** Places the jobs with the real broker and schedulers, then stops it so the test controls what runs next. */
async function place(store: Store, jobs: Array<{ id: string; count: number }>): Promise<void> {
  const broker = new EvalBroker(store, log, schedulerFor);
  broker.start();
  for (const j of jobs) await submitJob(store, j.id, { count: j.count, dc: 'hb' });
  await drained(store);
  await broker.stop();
  for (const j of jobs) expect(allocsOfJob(store, 'default', j.id)).toHaveLength(j.count);
}

const nodeUpdates = (store: Store, since: number): Evaluation[] => allEvals(store).filter((e) => e.TriggeredBy === 'node-update' && e.CreateIndex > since);

describe('heartbeats', () => {
  it('mark a silent node down once its TTL and the grace have passed, not before', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const node = await readyNode(store);
    const { hb, clock } = heartbeats(store);
    expect(hb.beat(node)).toBe(TTL);
    clock.at = TTL + GRACE - 1;
    expect(await hb.expire()).toEqual([]);
    expect(status(store, node)).toBe('ready');
    clock.at = TTL + GRACE;
    expect(await hb.expire()).toEqual([node]);
    expect(status(store, node)).toBe('down');
    expect(getNode(store, node)?.Events?.at(-1)?.Message).toBe('Node down: node heartbeat missed');
  });

  it('do not count the time the server’s event loop was stalled against the nodes', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const node = await readyNode(store);
    const { hb, clock } = heartbeats(store);
    hb.beat(node);
    // The loop was held for 55 s: the node's heartbeats waited unread all that time.
    clock.at = 60_000;
    clock.stalled = 55_000;
    expect(await hb.expire()).toEqual([]);
    expect(status(store, node)).toBe('ready');
    // The heartbeat read once the loop is free again counts from then.
    hb.beat(node);
    clock.at = 60_000 + TTL + GRACE - 1;
    expect(await hb.expire()).toEqual([]);
    clock.at = 60_000 + TTL + GRACE;
    expect(await hb.expire()).toEqual([node]);
  });

  it('defer a silent node’s expiry by the stall, and then mark it down', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const node = await readyNode(store);
    const { hb, clock } = heartbeats(store);
    hb.beat(node);
    clock.at = 5_000;
    clock.stalled = 5_000;
    clock.at = 5_000 + TTL + GRACE - 1;
    expect(await hb.expire()).toEqual([]);
    clock.at = 5_000 + TTL + GRACE;
    expect(await hb.expire()).toEqual([node]);
  });

  it('leave a node alone that checks in while the write marking it down waits for its turn', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const node = await readyNode(store);
    const { hb, clock } = heartbeats(store);
    hb.beat(node);
    clock.at = TTL + GRACE;
    const expiring = hb.expire();
    hb.beat(node);
    expect(await expiring).toEqual([]);
    expect(status(store, node)).toBe('ready');
  });

  it('give every ready node the failover TTL when they start, as a new leader does', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const node = await readyNode(store);
    const { hb, clock } = heartbeats(store, { failoverTtlMs: 3 * TTL });
    hb.start();
    clock.at = 3 * TTL + GRACE - 1;
    expect(await hb.expire()).toEqual([]);
    clock.at = 3 * TTL + GRACE;
    await hb.expire();
    expect(status(store, node)).toBe('down');
  });

  it('give the nodes of a large cluster at start the TTL their number calls for, the same for each, when it is above the failover TTL', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    // 1,500 nodes at 50 heartbeats a second call for a 30 s TTL: above the failover TTL given here.
    const nodes = await Promise.all(Array.from({ length: 1500 }, () => readyNode(store)));
    const { hb, clock } = heartbeats(store, { failoverTtlMs: TTL });
    hb.start();
    clock.at = 30_000 + GRACE - 1;
    expect(await hb.expire()).toEqual([]);
    clock.at = 30_000 + GRACE;
    expect((await hb.expire()).sort()).toEqual(nodes.sort());
  });

  it('mark nodes that go silent together down in one write, with one evaluation per job', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const silent = await Promise.all(Array.from({ length: 6 }, () => readyNode(store, 'hb')));
    const jobs = [
      { id: 'wide', count: 12 },
      { id: 'one', count: 1 },
      { id: 'two', count: 2 },
      { id: 'three', count: 3 },
    ];
    await place(store, jobs);
    const survivor = await readyNode(store, 'hb');
    const { hb, clock } = heartbeats(store);
    for (const id of silent) hb.beat(id);
    const before = store.index();
    clock.at = TTL + GRACE - 1;
    hb.beat(survivor);
    clock.at = TTL + GRACE;
    expect((await hb.expire()).sort()).toEqual([...silent].sort());
    expect(status(store, survivor)).toBe('ready');
    const nodes = silent.map((id) => getNode(store, id)!);
    expect(nodes.every((n) => n.Status === 'down')).toBe(true);
    expect(new Set(nodes.map((n) => n.ModifyIndex)).size).toBe(1);
    expect(store.index()).toBe(before + 1);
    const evals = nodeUpdates(store, before);
    expect(evals.map((e) => e.JobID).sort()).toEqual(jobs.map((j) => j.id).sort());
    expect(evals.every((e) => e.Status === 'pending' && silent.includes(e.NodeID!))).toBe(true);
  });

  it('give no evaluation to a job whose waiting evaluation will run after the nodes are down', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    const nodes = await Promise.all(Array.from({ length: 2 }, () => readyNode(store, 'hb')));
    await place(store, [
      { id: 'queued', count: 2 },
      { id: 'running', count: 2 },
      { id: 'delayed', count: 2 },
      { id: 'idle', count: 2 },
    ]);
    const waiting = (await store.write((tx) => {
      const evalOf = (id: string, extra: Partial<Evaluation> = {}) => evaluateJob(tx, getJob(store, 'default', id)!, 'job-register', { extra });
      return {
        queued: evalOf('queued'),
        running: evalOf('running'),
        delayed: evalOf('delayed', { WaitUntil: new Date(Date.now() + 3_600_000).toISOString() }),
      };
    })).result;
    // `running` is one the broker has begun: its scheduler may have read the nodes still up.
    const { hb, clock } = heartbeats(store, { unsettledEvals: () => new Set([waiting.running.ID]) });
    for (const id of nodes) hb.beat(id);
    const before = store.index();
    clock.at = TTL + GRACE;
    expect(await hb.expire()).toHaveLength(2);
    expect(nodeUpdates(store, before).map((e) => e.JobID).sort()).toEqual(['delayed', 'idle', 'running']);
  });
});

describe('loop stalls', () => {
  it('add up how late the timer fires, a stall still going on included', async () => {
    let at = 0;
    const stalls = new LoopStalls(() => at);
    stalls.start();
    try {
      at = 5_000;
      // Asked before the timer could fire: the stall is going on.
      expect(stalls.stalledMs()).toBe(5_000 - 50);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The timer has fired since and counted it once.
      expect(stalls.stalledMs()).toBe(5_000 - 50);
      at = 5_050;
      expect(stalls.stalledMs()).toBe(5_000 - 50);
    } finally {
      stalls.stop();
    }
  });

  it('see the real event loop held by synchronous work', () => {
    const stalls = new LoopStalls();
    stalls.start();
    try {
      const start = performance.now();
      while (performance.now() - start < 300);
      // The timer was due at most 50 ms into the 300 ms the loop was held.
      expect(stalls.stalledMs()).toBeGreaterThanOrEqual(250);
    } finally {
      stalls.stop();
    }
  });
});
