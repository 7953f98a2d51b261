/**
 * The draining-nodes and periodic-jobs indexes follow every write that can change them, and the
 * migration builds them for a data dir written before they existed: the drainer and the periodic
 * launcher read them instead of every node and every job.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainView } from '../../../src/scheduler/drainer/view.js';
import { registerJob, stopJob } from '../../../src/scheduler/state/jobs.js';
import { completeNodeDrain, NODES_DRAINING, updateNodeDrain } from '../../../src/scheduler/state/node-drain.js';
import { getNode, registerNode } from '../../../src/scheduler/state/nodes.js';
import { PERIODIC_JOBS, periodicJobs } from '../../../src/scheduler/state/periodic-jobs.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { makeNode } from '../sched/helpers.js';
import { TestStore } from './support.js';

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

const periodic = (id: string, spec = '*/5 * * * *') =>
  canonicalizeJob({
    ID: id,
    Type: 'batch',
    Datacenters: ['dc1'],
    Periodic: { Spec: spec, SpecType: 'cron' },
    TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }],
  });
const plain = (id: string) => canonicalizeJob({ ID: id, Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock' }] }] });

const periodicIds = () => periodicJobs(t.store).map((j) => j.ID);
const drainingIds = () => t.store.list(NODES_DRAINING).map((e) => e.key);
const drain = { Deadline: 3600e9, IgnoreSystemJobs: false };

describe('periodic jobs index', () => {
  it('holds the periodic jobs, changes only when one of them does, and loses purged ones', async () => {
    await registerJob(t.store, periodic('cron-a'));
    await registerJob(t.store, plain('once'));
    await registerJob(t.store, periodic('cron-b'));
    expect(periodicIds()).toEqual(['cron-a', 'cron-b']);
    const before = t.store.tableIndex(PERIODIC_JOBS);
    // A write of another job, and an unchanged registration, leave the index (and the launcher) alone.
    await registerJob(t.store, plain('twice'));
    await registerJob(t.store, periodic('cron-a'));
    expect(t.store.tableIndex(PERIODIC_JOBS)).toBe(before);
    await registerJob(t.store, periodic('cron-a', '0 * * * *'));
    expect(t.store.tableIndex(PERIODIC_JOBS)).toBeGreaterThan(before);
    await stopJob(t.store, 'default', 'cron-b');
    expect(periodicJobs(t.store).find((j) => j.ID === 'cron-b')?.Stop).toBe(true);
    await stopJob(t.store, 'default', 'cron-b', { purge: true });
    expect(periodicIds()).toEqual(['cron-a']);
  });

  it('the migration builds it', async () => {
    await registerJob(t.store, periodic('cron'));
    await registerJob(t.store, plain('once'));
    await t.store.write((tx) => {
      for (const { key } of tx.list(PERIODIC_JOBS)) tx.delete(PERIODIC_JOBS, key);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, 3);
    });
    expect(periodicIds()).toEqual([]);
    await t.reopen();
    expect(periodicIds()).toEqual(['cron']);
  });
});

describe('draining nodes index', () => {
  it('follows a drain from start to cancel or completion; the drainer sees only draining nodes', async () => {
    const [a, b, c] = [makeNode('a'), makeNode('b'), makeNode('c')];
    for (const n of [a, b, c]) await registerNode(t.store, n, `secret-${n.ID}`);
    expect(drainingIds()).toEqual([]);
    const who = { markEligible: false, meta: null, accessorId: '' };
    await updateNodeDrain(t.store, a.ID, { spec: drain, ...who });
    await updateNodeDrain(t.store, b.ID, { spec: drain, ...who });
    expect(drainingIds().sort()).toEqual([a.ID, b.ID].sort());
    expect(drainView(t.store).nodes().map((n) => n.ID).sort()).toEqual([a.ID, b.ID].sort());
    // A change of the drain keeps the node in; a registration again (the node restarted) too.
    await updateNodeDrain(t.store, a.ID, { spec: { ...drain, Deadline: -1 }, ...who });
    await registerNode(t.store, getNode(t.store, b.ID)!, `secret-${b.ID}`);
    expect(drainingIds().sort()).toEqual([a.ID, b.ID].sort());
    await updateNodeDrain(t.store, a.ID, { spec: null, ...who });
    await t.store.write((tx) => completeNodeDrain(tx, getNode(tx, b.ID)!, false));
    expect(drainingIds()).toEqual([]);
    expect(drainView(t.store).nodes()).toEqual([]);
  });

  it('the migration builds it', async () => {
    const n = makeNode('n');
    await registerNode(t.store, n, 'secret');
    await updateNodeDrain(t.store, n.ID, { spec: drain, markEligible: false, meta: null, accessorId: '' });
    await t.store.write((tx) => {
      for (const { key } of tx.list(NODES_DRAINING)) tx.delete(NODES_DRAINING, key);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, 3);
    });
    expect(drainingIds()).toEqual([]);
    await t.reopen();
    expect(drainingIds()).toEqual([n.ID]);
  });
});
