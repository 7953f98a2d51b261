/**
 * The LMDB store keeps alloc-ids, allocs-by-node, allocs-by-job and allocs-by-eval in memory and fills them
 * from alloc-placements when it opens: through placements, client updates, stops, garbage collection and
 * restarts, they must say what the allocations themselves say, and so must the placements table they are
 * filled from.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOC_IDS, allocKey } from '../../../src/scheduler/state/alloc-keys.js';
import { ALLOC_PLACEMENTS, ALLOCS_BY_EVAL, ALLOCS_BY_JOB, ALLOCS_BY_NODE, allocsByCreate, allocsOfEval, allocsOfJob, allocsOfNode, deleteAlloc, getAlloc, type PlacementEntry } from '../../../src/scheduler/state/allocs.js';
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
  const placements = t.store.list<PlacementEntry>(ALLOC_PLACEMENTS);
  expect(placements).toEqual(
    allocs.map((a) => {
      const u = allocUsage(a);
      return {
        key: allocKey(a.CreateIndex, a.ID),
        value: { node: a.NodeID, namespace: a.Namespace, job: a.JobID, eval: a.EvalID, cpu: u.cpu, mem: u.memoryMB, disk: u.diskMB, ports: u.ports, live: !allocTerminal(a) },
      };
    }),
  );
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
    expect(t.store.get<PlacementEntry>(ALLOC_PLACEMENTS, allocKey(done.CreateIndex, done.ID))!.live).toBe(false);

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

  it('the migration writes the placements of a data dir that had the indexes in its file', async () => {
    await registerNode(t.store, makeNode('a'), 'secret-a');
    await registerJob(t.store, job('one', 4));
    await t.runPending();
    const [done] = [...allocsByCreate(t.store, {})];
    await updateAllocsFromClient(t.store, done.NodeID, [{ ID: done.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    const placements = t.store.list(ALLOC_PLACEMENTS);
    expect(placements).toHaveLength(4);

    await t.openAsSchema8();
    expect(t.store.list(ALLOC_PLACEMENTS)).toEqual([]);
    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(newest);
    expect(t.store.list(ALLOC_PLACEMENTS)).toEqual(placements);
    expectIndexesMatchAllocs();
  });

  it('the migration names the job and evaluation of each placement of a data dir that had their indexes in its file', async () => {
    await registerNode(t.store, makeNode('a'), 'secret-a');
    await registerNode(t.store, makeNode('b'), 'secret-b');
    await registerJob(t.store, job('one', 3));
    await registerJob(t.store, job('two', 2));
    await t.runPending();
    const placements = t.store.list(ALLOC_PLACEMENTS);
    const byJob = t.store.keys(ALLOCS_BY_JOB);
    const byEval = t.store.keys(ALLOCS_BY_EVAL);
    expect(byJob).toHaveLength(5);
    expect(new Set(byEval.map((k) => k.split('\u0000')[0])).size).toBe(2);

    await t.openAsSchema11();
    expect(t.store.list<PlacementEntry>(ALLOC_PLACEMENTS).map((e) => Object.keys(e.value).sort())).toEqual(placements.map(() => ['cpu', 'disk', 'live', 'mem', 'node', 'ports']));
    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(newest);
    expect(t.store.list(ALLOC_PLACEMENTS)).toEqual(placements);
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
