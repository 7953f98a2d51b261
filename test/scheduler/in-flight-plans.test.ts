/**
 * The broker schedules while earlier plans commit. These tests hold every commit back until several
 * plans are queued behind it, so that evaluations really are scheduled against uncommitted plans, and
 * show that the cluster still ends exactly as full as serial scheduling would leave it: no node
 * over its capacity, no host port given twice, and the evaluations that do not fit blocked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EvalBroker } from '../../src/scheduler/broker.js';
import { InFlightPlans } from '../../src/scheduler/in-flight-plans.js';
import { schedulerFor } from '../../src/scheduler/sched/index.js';
import type { Plan } from '../../src/scheduler/sched/types.js';
import { allocsOfNode } from '../../src/scheduler/state/allocs.js';
import { registerJob } from '../../src/scheduler/state/jobs.js';
import { readNodeUsage } from '../../src/scheduler/state/node-usage.js';
import { allocTerminal, type Allocation } from '../../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../../src/scheduler/structs/canonicalize.js';
import { createLogger } from '../../src/shared/log.js';
import type { Store } from '../../src/storage/store.js';
import { allEvals, drained, openTempStore, readyNode, type TempStore } from '../support/scheduler-store.js';

const log = createLogger('error', () => undefined);
let tmp: TempStore | undefined;
let broker: EvalBroker | undefined;

afterEach(async () => {
  await broker?.stop();
  broker = undefined;
  await tmp?.remove();
  tmp = undefined;
});

/**
 * The real store, with each commit started only once `hold` more are queued behind it (or a moment has
 * passed): the broker cannot wait for one plan before scheduling the next. Counts the most plans that were
 * queued at once.
 */
function heldCommits(store: Store, hold: number): { store: Store; mostQueued: () => number } {
  let queued: Array<() => void> = [];
  let most = 0;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    const go = queued;
    queued = [];
    for (const start of go) start();
  };
  const held = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'commit') {
        return <T>(fn: Parameters<Store['commit']>[0]) =>
          new Promise<Awaited<ReturnType<Store['commit']>>>((resolve, reject) => {
            queued.push(() => target.commit(fn).then(resolve as never, reject));
            most = Math.max(most, queued.length);
            if (queued.length > hold) release();
            else timer ??= setTimeout(release, 50);
          }) as Promise<{ result: T; index: number; durable: Promise<void> }>;
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: held, mostQueued: () => most };
}

/** A job of one task asking `cpu` MHz and one dynamic port. */
async function portJob(store: Store, id: string, cpu: number): Promise<void> {
  await registerJob(
    store,
    canonicalizeJob({
      ID: id,
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'g',
          Count: 1,
          Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
          Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: cpu, MemoryMB: 10 } }],
        },
      ],
    }),
  );
}

const live = (allocs: Allocation[]) => allocs.filter((a) => !allocTerminal(a));

describe('scheduling while plans commit', () => {
  it('fills the nodes exactly: no node over capacity, no port twice, the rest blocked', async () => {
    tmp = await openTempStore();
    const nodes = [await readyNode(tmp.store), await readyNode(tmp.store)];
    // Each node offers 4,000 MHz: 21 asks of 190 fit on one (3,990), so 42 of the 50 jobs fit.
    const jobs = 50;
    for (let i = 0; i < jobs; i++) await portJob(tmp.store, `fill-${i}`, 190);
    const held = heldCommits(tmp.store, 8);
    broker = new EvalBroker(held.store, log, schedulerFor);
    broker.start();
    await drained(tmp.store);
    await broker.stop();

    expect(held.mostQueued()).toBeGreaterThan(1);
    let placed = 0;
    for (const node of nodes) {
      const allocs = live(allocsOfNode(tmp.store, node));
      placed += allocs.length;
      expect(allocs).toHaveLength(21);
      expect(readNodeUsage(tmp.store, node).cpu).toBe(21 * 190);
      const ports = allocs.flatMap((a) => a.AllocatedResources?.Shared?.Ports?.map((p) => p.Value) ?? []);
      expect(new Set(ports).size).toBe(21);
    }
    expect(placed).toBe(42);
    const evals = allEvals(tmp.store);
    expect(evals.filter((e) => e.Status === 'blocked')).toHaveLength(jobs - 42);
    expect(evals.filter((e) => e.TriggeredBy === 'job-register' && e.Status === 'complete')).toHaveLength(jobs);
  });
});

describe('in-flight plans', () => {
  const plan = (place: Array<Pick<Allocation, 'NodeID' | 'AllocatedResources'>>, changes: Partial<Plan> = {}): Plan =>
    ({ EvalID: 'e', Job: null, Place: place as Allocation[], InPlace: [], Updates: [], Deployment: null, ...changes }) as Plan;
  const asks = (cpu: number, port: number): Pick<Allocation, 'NodeID' | 'AllocatedResources'> => ({
    NodeID: 'n1',
    AllocatedResources: {
      Tasks: { t: { Cpu: { CpuShares: cpu, ReservedCores: null }, Memory: { MemoryMB: 5, MemoryMaxMB: 0 }, Networks: null, Devices: null } },
      TaskLifecycles: { t: null },
      Shared: { DiskMB: 7, Networks: null, Ports: [{ Label: 'http', Value: port, To: 0, HostIP: '127.0.0.1' }] },
    },
  });

  it('adds what in-flight plans place to the committed usage, without changing it, until they are removed', () => {
    const inFlight = new InFlightPlans();
    inFlight.add('e1', 'default', 'a', plan([asks(100, 20001), asks(50, 20002)]));
    inFlight.add('e2', 'default', 'b', plan([asks(10, 20003)]));
    const committed = { cpu: 1000, memoryMB: 100, diskMB: 0, ports: new Set([20000]) };
    const seen = inFlight.usage('n1', committed, 10);
    expect(seen).toEqual({ cpu: 1160, memoryMB: 115, diskMB: 21, ports: new Set([20000, 20001, 20002, 20003]) });
    expect(committed).toEqual({ cpu: 1000, memoryMB: 100, diskMB: 0, ports: new Set([20000]) });
    expect(inFlight.usage('n2', committed, 10)).toBe(committed);
    inFlight.remove('e1');
    expect(inFlight.usage('n1', committed, 10).cpu).toBe(1010);
    inFlight.remove('e2');
    expect(inFlight.usage('n1', committed, 10)).toBe(committed);
    expect(inFlight.size).toBe(0);
  });

  it('stops adding a plan once the usage read already counts it: read at its index or later', () => {
    const inFlight = new InFlightPlans();
    inFlight.add('e1', 'default', 'a', plan([asks(100, 20001)]));
    inFlight.add('e2', 'default', 'b', plan([asks(10, 20002)]));
    const committed = { cpu: 1000, memoryMB: 100, diskMB: 0, ports: new Set<number>() };
    // Before its transaction has run, a plan's index is unknown: it is always added.
    expect(inFlight.usage('n1', committed, 50).cpu).toBe(1110);
    inFlight.committingAt('e1', 12);
    inFlight.committingAt('e2', 13);
    expect(inFlight.usage('n1', committed, 11).cpu).toBe(1110);
    expect(inFlight.usage('n1', committed, 12).cpu).toBe(1010);
    expect(inFlight.usage('n1', committed, 13)).toEqual(committed);
  });

  it('asks to settle first before the same job, and after a plan that changes existing allocations', () => {
    const inFlight = new InFlightPlans();
    inFlight.add('e1', 'default', 'a', plan([asks(1, 20001)]));
    expect(inFlight.mustSettleBefore('default', 'a')).toBe(true);
    expect(inFlight.mustSettleBefore('other', 'a')).toBe(false);
    expect(inFlight.mustSettleBefore('default', 'b')).toBe(false);
    inFlight.add('e2', 'default', 'c', plan([], { Updates: [{ ID: 'x', DesiredStatus: 'stop' }] }));
    expect(inFlight.mustSettleBefore('default', 'b')).toBe(true);
    inFlight.remove('e2');
    inFlight.add('e3', 'default', 'd', plan([], { InPlace: [{} as Allocation] }));
    expect(inFlight.mustSettleBefore('default', 'b')).toBe(true);
    inFlight.remove('e3');
    inFlight.add('e4', 'default', 'e', plan([], { Updates: [{ ID: 'y', FollowupEvalID: 'f' }] }));
    expect(inFlight.mustSettleBefore('default', 'b')).toBe(false);
  });
});
