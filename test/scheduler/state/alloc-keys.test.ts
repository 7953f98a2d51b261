/**
 * Allocations are stored under creation keys and found by ID through alloc-ids; every write keeps the
 * three tables in step, listings come out in creation order, and the migration moves a data dir written
 * with ID keys to this layout without losing or changing a record.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOC_IDS, allocKey } from '../../../src/scheduler/state/alloc-keys.js';
import { ALLOC_STUBS, allocStubRecord, getAllocStub, stubsByCreate } from '../../../src/scheduler/state/alloc-stubs.js';
import { ALLOCS_BY_CREATE, ALLOCS_BY_NODE, ALLOCS_TABLE, allocsByCreate, allocsOfNode, deleteAlloc, getAlloc } from '../../../src/scheduler/state/allocs.js';
import { NODE_USAGE } from '../../../src/scheduler/state/node-usage.js';
import { registerJob } from '../../../src/scheduler/state/jobs.js';
import { registerNode } from '../../../src/scheduler/state/nodes.js';
import type { Allocation } from '../../../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { SCHEMA_MIGRATIONS } from '../../../src/server/migrations.js';
import { makeNode } from '../sched/helpers.js';

const newest = Math.max(...SCHEMA_MIGRATIONS.map((m) => m.version));
import { TestStore, toSchema4AllocLayout, toSchema5NodeLayout } from './support.js';

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

const job = (id: string, count: number) =>
  canonicalizeJob({ ID: id, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }] });

async function placeSome(): Promise<Allocation[]> {
  await registerNode(t.store, makeNode('a'), 'secret-a');
  await registerJob(t.store, job('one', 3));
  await registerJob(t.store, job('two', 4));
  await t.runPending();
  return [...allocsByCreate(t.store, {})];
}

/** Each allocation is under its creation key, with its stub beside it and its ID pointing at both. */
function expectConsistent(allocs: Allocation[]): void {
  const records = t.store.list<Allocation>(ALLOCS_TABLE);
  expect(records.map((e) => e.key)).toEqual(allocs.map((a) => allocKey(a.CreateIndex, a.ID)));
  expect(t.store.list(ALLOC_STUBS).map((e) => e.key)).toEqual(records.map((e) => e.key));
  expect(t.store.list<number>(ALLOC_IDS).map((e) => [e.key, e.value])).toEqual(allocs.map((a) => [a.ID, a.CreateIndex]).sort((x, y) => (x[0] < y[0] ? -1 : 1)));
  for (const a of allocs) {
    expect(getAlloc(t.store, a.ID)).toEqual(a);
    expect(getAllocStub(t.store, a.ID)).toEqual(JSON.parse(JSON.stringify(allocStubRecord(a))));
  }
}

describe('allocation keys', () => {
  it('stores allocations in creation order and finds each by ID; a removal takes all three entries', async () => {
    const allocs = await placeSome();
    expect(allocs).toHaveLength(7);
    const order = allocs.map((a) => a.CreateIndex);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect([...allocsByCreate(t.store, { reverse: true })].map((a) => a.ID)).toEqual(allocs.map((a) => a.ID).reverse());
    expect([...stubsByCreate(t.store, { fromToken: { index: allocs[3].CreateIndex, id: allocs[3].ID } })].map((s) => s.ID)).toEqual(allocs.slice(3).map((a) => a.ID));
    expectConsistent(allocs);

    await t.store.write((tx) => deleteAlloc(tx, allocs[2]));
    expect(getAlloc(t.store, allocs[2].ID)).toBeUndefined();
    expect(getAllocStub(t.store, allocs[2].ID)).toBeUndefined();
    expectConsistent(allocs.filter((_, i) => i !== 2));
  });

  it('the migration moves ID-keyed allocations to creation keys, record for record', async () => {
    const allocs = await placeSome();
    const v5 = SCHEMA_MIGRATIONS.find((m) => m.description === 'allocations keyed by creation')!.version;
    await t.store.write((tx) => {
      toSchema4AllocLayout(tx);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, v5 - 1);
    });
    expect(getAlloc(t.store, allocs[0].ID)).toBeUndefined();
    expect(t.store.list(ALLOCS_BY_CREATE)).toHaveLength(7);
    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(newest);
    expect(t.store.list(ALLOCS_BY_CREATE)).toEqual([]);
    expectConsistent(allocs);
    expect([...allocsByCreate(t.store, {})]).toEqual(allocs);
  });

  it("keeps a node's entries in creation order, and the migration moves schema-5 entries there with their usage", async () => {
    const allocs = await placeSome();
    const entries = () => t.store.list(ALLOCS_BY_NODE);
    const expected = allocs.map((a) => `${a.NodeID}\u0000${allocKey(a.CreateIndex, a.ID)}`).sort();
    expect(entries().map((e) => e.key)).toEqual(expected);
    const before = { entries: entries(), usage: t.store.list(NODE_USAGE), ofNode: allocsOfNode(t.store, allocs[0].NodeID) };

    const v6 = SCHEMA_MIGRATIONS.find((m) => m.description === 'node allocation entries keyed by creation')!.version;
    await t.openAsSchema8();
    await t.store.write((tx) => {
      toSchema5NodeLayout(tx);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, v6 - 1);
    });
    expect(entries().map((e) => e.key)).not.toEqual(expected);
    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(newest);
    expect(entries()).toEqual(before.entries);
    expect(t.store.list(NODE_USAGE)).toEqual(before.usage);
    expect(allocsOfNode(t.store, allocs[0].NodeID)).toEqual(before.ofNode);
  });
});
