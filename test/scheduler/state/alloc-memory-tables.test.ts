/**
 * The LMDB store keeps alloc-ids, allocs-by-node, allocs-by-job and allocs-by-eval in memory and fills them
 * from the allocation stubs when it opens: through placements, client updates, stops, garbage collection
 * and restarts, they must say what the allocations themselves say, and so must the usage the stubs hold
 * (what each node's usage sum counts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOC_IDS, allocKey } from '../../../src/scheduler/state/alloc-keys.js';
import { ALLOC_PLACEMENTS, ALLOCS_BY_EVAL, ALLOCS_BY_JOB, ALLOCS_BY_NODE, allocsByCreate, allocsOfEval, allocsOfJob, allocsOfNode, deleteAlloc, getAlloc } from '../../../src/scheduler/state/allocs.js';
import { ALLOC_STUBS } from '../../../src/scheduler/state/alloc-stubs.js';
import type { Fields } from '../../../src/scheduler/state/alloc-record.js';
import { readNodeUsage } from '../../../src/scheduler/state/node-usage.js';
import { updateAllocsFromClient } from '../../../src/scheduler/state/client-updates.js';
import { registerJob } from '../../../src/scheduler/state/jobs.js';
import { registerNode } from '../../../src/scheduler/state/nodes.js';
import { allocUsage } from '../../../src/scheduler/sched/usage.js';
import { allocTerminal } from '../../../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { SCHEMA_MIGRATIONS } from '../../../src/server/migrations.js';
import { openLmdbStore } from '../../../src/storage/lmdb-store.js';
import { makeNode } from '../sched/helpers.js';
import { TestStore } from './support.js';

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

const newest = Math.max(...SCHEMA_MIGRATIONS.map((m) => m.version));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const job = (id: string, count: number) =>
  canonicalizeJob({
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Count: count, Networks: [{ DynamicPorts: [{ Label: 'http' }] }], Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }],
  });

/** Every index entry derived from the allocations as they are stored, against what the store answers. */
function expectIndexesMatchAllocs(): void {
  const allocs = [...allocsByCreate(t.store, {})];
  const byId = [...allocs].sort((a, b) => (a.ID < b.ID ? -1 : 1));
  expect(t.store.list<number>(ALLOC_IDS).map((e) => [e.key, e.value])).toEqual(byId.map((a) => [a.ID, a.CreateIndex]));
  const nodeKeys = allocs.map((a) => `${a.NodeID}\u0000${allocKey(a.CreateIndex, a.ID)}`).sort();
  expect(t.store.keys(ALLOCS_BY_NODE)).toEqual(nodeKeys);
  expect(t.store.keys(ALLOCS_BY_JOB)).toEqual(allocs.map((a) => `${a.Namespace}\u0000${a.JobID}\u0000${a.ID}`).sort());
  expect(t.store.keys(ALLOCS_BY_EVAL)).toEqual(allocs.map((a) => `${a.EvalID}\u0000${a.ID}`).sort());
  const usages = t.store.list<Fields>(ALLOC_STUBS).map((e) => ({ key: e.key, value: e.value.Usage }));
  expect(usages).toEqual(
    allocs.map((a) => {
      const u = allocUsage(a);
      return { key: allocKey(a.CreateIndex, a.ID), value: { cpu: u.cpu, mem: u.memoryMB, disk: u.diskMB, ports: u.ports } };
    }),
  );
  expect(t.store.list(ALLOC_PLACEMENTS)).toEqual([]);
  for (const node of new Set(allocs.map((a) => a.NodeID))) {
    const live = allocs.filter((a) => a.NodeID === node && !allocTerminal(a)).map(allocUsage);
    const usage = readNodeUsage(t.store, node);
    expect({ cpu: usage.cpu, mem: usage.memoryMB, ports: [...usage.ports].sort() }).toEqual({ cpu: sum(live.map((u) => u.cpu)), mem: sum(live.map((u) => u.memoryMB)), ports: live.flatMap((u) => u.ports).sort() });
  }
  for (const node of new Set(allocs.map((a) => a.NodeID))) expect(allocsOfNode(t.store, node)).toEqual(allocs.filter((a) => a.NodeID === node));
  for (const a of allocs) {
    expect(allocsOfJob(t.store, a.Namespace, a.JobID)).toEqual(byId.filter((b) => b.Namespace === a.Namespace && b.JobID === a.JobID));
    expect(allocsOfEval(t.store, a.EvalID)).toEqual(byId.filter((b) => b.EvalID === a.EvalID));
  }
  for (const a of allocs) expect(getAlloc(t.store, a.ID)).toEqual(a);
}

describe('allocation indexes in memory', () => {
  it('say what the allocations say through placements, client updates, removals and restarts', async () => {
    await registerNode(t.store, makeNode('a'), 'secret-a');
    await registerNode(t.store, makeNode('b'), 'secret-b');
    await registerJob(t.store, job('one', 5));
    await registerJob(t.store, job('two', 4));
    await t.runPending();
    expectIndexesMatchAllocs();

    const [done, failed, ...rest] = [...allocsByCreate(t.store, {})];
    await updateAllocsFromClient(t.store, done.NodeID, [{ ID: done.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    await updateAllocsFromClient(t.store, failed.NodeID, [{ ID: failed.ID, ClientStatus: 'failed', ClientDescription: '', TaskStates: {} }]);
    expectIndexesMatchAllocs();

    await t.store.write((tx) => deleteAlloc(tx, getAlloc(tx, rest[0].ID)!));
    expect(getAlloc(t.store, rest[0].ID)).toBeUndefined();
    expect(t.store.get(ALLOC_IDS, rest[0].ID)).toBeUndefined();
    expectIndexesMatchAllocs();

    const before = { ids: t.store.list(ALLOC_IDS), nodes: t.store.list(ALLOCS_BY_NODE), jobs: t.store.list(ALLOCS_BY_JOB), evals: t.store.list(ALLOCS_BY_EVAL) };
    await t.reopen();
    expect(t.store.list(ALLOC_IDS)).toEqual(before.ids);
    expect(t.store.list(ALLOCS_BY_NODE)).toEqual(before.nodes);
    expect(t.store.list(ALLOCS_BY_JOB)).toEqual(before.jobs);
    expect(t.store.list(ALLOCS_BY_EVAL)).toEqual(before.evals);
    expectIndexesMatchAllocs();

    // Placements after the restart land in the rebuilt tables as before it.
    await registerJob(t.store, job('three', 3));
    await t.runPending();
    const three = [...allocsByCreate(t.store, {})].filter((a) => a.JobID === 'three');
    expect(three).toHaveLength(3);
    for (const a of three) expect(t.store.get(ALLOC_IDS, a.ID)).toBe(a.CreateIndex);
    expectIndexesMatchAllocs();
  });

  it('the migrations move the usage of a data dir that had the indexes in its file (schema 8) into the stubs', async () => {
    await registerNode(t.store, makeNode('a'), 'secret-a');
    await registerJob(t.store, job('one', 4));
    await t.runPending();
    const [done] = [...allocsByCreate(t.store, {})];
    await updateAllocsFromClient(t.store, done.NodeID, [{ ID: done.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    const stubs = t.store.list(ALLOC_STUBS);
    expect(stubs).toHaveLength(4);

    await t.openAsSchema8();
    expect(t.store.list<Fields>(ALLOC_STUBS).filter((e) => 'Usage' in e.value)).toEqual([]);
    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(newest);
    expect(t.store.list(ALLOC_STUBS)).toEqual(stubs);
    expectIndexesMatchAllocs();
  });

  it('the migration moves the usage of each placement into its stub, and the by-job and by-eval indexes out of the file (schema 11)', async () => {
    await registerNode(t.store, makeNode('a'), 'secret-a');
    await registerNode(t.store, makeNode('b'), 'secret-b');
    await registerJob(t.store, job('one', 3));
    await registerJob(t.store, job('two', 2));
    await t.runPending();
    const [done] = [...allocsByCreate(t.store, {})];
    await updateAllocsFromClient(t.store, done.NodeID, [{ ID: done.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    const stubs = t.store.list(ALLOC_STUBS);
    const byJob = t.store.keys(ALLOCS_BY_JOB);
    const byEval = t.store.keys(ALLOCS_BY_EVAL);
    expect(byJob).toHaveLength(5);
    expect(new Set(byEval.map((k) => k.split('\u0000')[0])).size).toBe(2);

    await t.openAsSchema11();
    expect(t.store.list(ALLOC_PLACEMENTS)).toHaveLength(5);
    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(newest);
    expect(t.store.list(ALLOC_STUBS)).toEqual(stubs);
    expect(t.store.keys(ALLOCS_BY_JOB)).toEqual(byJob);
    expect(t.store.keys(ALLOCS_BY_EVAL)).toEqual(byEval);
    expectIndexesMatchAllocs();

    // The file no longer holds the two indexes: a store opened without its memory tables finds none.
    await t.store.close();
    t.store = await openLmdbStore({ dir: t.dir, migrations: SCHEMA_MIGRATIONS });
    expect(t.store.keys(ALLOCS_BY_JOB)).toEqual([]);
    expect(t.store.keys(ALLOCS_BY_EVAL)).toEqual([]);
  });
});
