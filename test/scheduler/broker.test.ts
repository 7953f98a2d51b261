/**
 * The evaluation broker: its in-memory queue drains a storm of evaluations in priority order, reading
 * each queue entry a bounded number of times; it is rebuilt from the store after a restart; it keeps the
 * delivery limit and WaitUntil; and it counts an evaluation processed only once its plan is on disk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EvalBroker } from '../../src/scheduler/broker.js';
import { schedulerFor } from '../../src/scheduler/sched/index.js';
import type { Scheduler } from '../../src/scheduler/sched/types.js';
import { allocsOfJob } from '../../src/scheduler/state/allocs.js';
import { EVALS_PENDING, EVALS_QUEUED, getEval, putEval } from '../../src/scheduler/state/evals.js';
import { newEvaluation } from '../../src/scheduler/structs/evaluation.js';
import { createLogger } from '../../src/shared/log.js';
import type { Store } from '../../src/storage/store.js';
import { allEvals, drained, openTempStore, readyNode, submitJob, type TempStore } from '../support/scheduler-store.js';
import { until } from '../support/wait.js';

const logged: string[] = [];
const log = createLogger('error', (line) => logged.push(line));
let tmp: TempStore | undefined;
const brokers: EvalBroker[] = [];

function startBroker(store: Store, scheduler: (type: string) => Scheduler = schedulerFor): EvalBroker {
  const broker = new EvalBroker(store, log, scheduler);
  brokers.push(broker);
  broker.start();
  return broker;
}

afterEach(async () => {
  await Promise.all(brokers.splice(0).map((b) => b.stop()));
  await tmp?.remove();
  tmp = undefined;
});

/** A store that counts the queue entries read through it, to show the broker reads each one a bounded number of times. */
function countingQueueReads(store: Store): { store: Store; rows: () => number } {
  let rows = 0;
  const counted = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'list') {
        return (table: string, prefix?: string, opts?: Parameters<Store['list']>[2]) => {
          const out = target.list(table, prefix, opts);
          if (table === EVALS_PENDING || table === EVALS_QUEUED) rows += out.length;
          return out;
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, rows: () => rows };
}

describe('evaluation broker', () => {
  it('drains a storm of evaluations, highest priority first then oldest, reading each queue entry a bounded number of times', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    await readyNode(store);
    await readyNode(store);
    const n = 300;
    const priorities = [30, 50, 70];
    await Promise.all(Array.from({ length: n }, (_, i) => submitJob(store, `storm-${i}`, { priority: priorities[i % 3] })));
    const counting = countingQueueReads(store);
    const broker = startBroker(counting.store);
    await drained(store);
    await broker.stop();

    const evals = allEvals(store);
    expect(evals).toHaveLength(n);
    expect(evals.every((e) => e.Status === 'complete')).toBe(true);
    expect(broker.stats).toEqual({ processed: n, failed: 0 });
    for (let i = 0; i < n; i++) expect(allocsOfJob(store, 'default', `storm-${i}`)).toHaveLength(1);
    // Completed in the order they ran: each completion is its own write, with its own index.
    const order = [...evals].sort((a, b) => a.ModifyIndex - b.ModifyIndex);
    for (let i = 1; i < order.length; i++) {
      const [prev, next] = [order[i - 1], order[i]];
      expect(prev.Priority > next.Priority || (prev.Priority === next.Priority && prev.CreateIndex < next.CreateIndex)).toBe(true);
    }
    // A broker that listed the whole queue before each evaluation would read about n²/2 entries.
    expect(counting.rows()).toBeLessThanOrEqual(3 * n);
  });

  it('rebuilds its queue from the store after a restart, and runs each evaluation once', async () => {
    tmp = await openTempStore();
    let store = tmp.store;
    await readyNode(store);
    const n = 120;
    await Promise.all(Array.from({ length: n }, (_, i) => submitJob(store, `restart-${i}`)));
    // The first broker is stopped from inside its tenth evaluation, so it stops part-way whatever the speed.
    let scheduled = 0;
    let stopping: Promise<void> | undefined;
    const first = startBroker(store, (type) => {
      const scheduler = schedulerFor(type);
      return (evaluation, state) => {
        if (++scheduled === 10) stopping = first.stop();
        return scheduler(evaluation, state);
      };
    });
    await until(async () => scheduled, (n) => n >= 10, 'ten evaluations scheduled');
    await stopping;
    store = await tmp.reopen();
    const left = allEvals(store).filter((e) => e.Status === 'pending').length;
    expect(left).toBeGreaterThan(0);
    const second = startBroker(store);
    await drained(store);
    await second.stop();
    expect(first.stats.processed + second.stats.processed).toBe(n);
    expect(second.stats.processed).toBe(left);
    for (let i = 0; i < n; i++) expect(allocsOfJob(store, 'default', `restart-${i}`)).toHaveLength(1);
  });

  it('retries a failing evaluation and marks it failed at the delivery limit, while the others run', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    await readyNode(store);
    const bad = await submitJob(store, 'bad');
    await submitJob(store, 'good');
    let attempts = 0;
    const broker = startBroker(store, (type) => {
      const real = schedulerFor(type);
      return async (evaluation, state) => {
        if (evaluation.JobID !== bad.ID) return real(evaluation, state);
        attempts++;
        throw new Error('scheduler exploded');
      };
    });
    const failed = await until(
      async () => allEvals(store).find((e) => e.JobID === 'bad'),
      (e) => e?.Status === 'failed',
      'the failing evaluation marked failed',
    );
    expect(failed!.StatusDescription).toBe('evaluation failed 3 times: scheduler exploded');
    expect(attempts).toBe(3);
    expect(logged.filter((l) => l.includes(`evaluation ${failed!.ID} of job bad failed`)).map((l) => /attempt (\d)/.exec(l)?.[1])).toEqual(['1', '2', '3']);
    expect(allEvals(store).find((e) => e.JobID === 'good')?.Status).toBe('complete');
    await broker.stop();
    expect(broker.stats).toEqual({ processed: 1, failed: 1 });
  });

  it('holds an evaluation until its WaitUntil', async () => {
    tmp = await openTempStore();
    const { store } = tmp;
    await readyNode(store);
    const broker = startBroker(store);
    const job = await submitJob(store, 'later');
    await drained(store);
    const waitFor = async (ms: number) =>
      (
        await store.write((tx) => {
          const e = newEvaluation({
            namespace: 'default',
            jobId: job.ID,
            jobType: 'service',
            priority: 50,
            triggeredBy: 'alloc-failure',
            jobModifyIndex: job.JobModifyIndex,
            index: tx.index,
            extra: { WaitUntil: new Date(Date.now() + ms).toISOString() },
          });
          putEval(tx, e);
          return e;
        })
      ).result;
    const farOff = await waitFor(3_600_000);
    const soon = await waitFor(1500);
    const done = await until(async () => getEval(store, soon.ID), (e) => e?.Status === 'complete', 'the delayed evaluation run');
    expect(done!.ModifyTime / 1_000_000).toBeGreaterThanOrEqual(Date.parse(soon.WaitUntil!));
    expect(getEval(store, farOff.ID)?.Status).toBe('pending');
    await broker.stop();
  });
});
