/**
 * The per-node usage sums equal a recomputation from the allocations themselves, whatever happened to
 * them: placements (with shared static ports), client updates, stops, in-place resource changes, garbage
 * collection, deletion of a live allocation, restarts, and the migration that builds the sums for a data
 * dir written before they existed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allocUsage } from '../../../src/scheduler/sched/usage.js';
import { ALLOCS_TABLE, deleteAlloc, getAlloc, putAlloc } from '../../../src/scheduler/state/allocs.js';
import { updateAllocsFromClient, stopAlloc } from '../../../src/scheduler/state/client-updates.js';
import { collectGarbage } from '../../../src/scheduler/state/gc.js';
import { registerJob, stopJob } from '../../../src/scheduler/state/jobs.js';
import { NODE_USAGE, nodeUsageReader, readNodeUsage } from '../../../src/scheduler/state/node-usage.js';
import { registerNode } from '../../../src/scheduler/state/nodes.js';
import { allocTerminal, type Allocation } from '../../../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import type { Store } from '../../../src/storage/store.js';
import { makeNode } from '../sched/helpers.js';
import { seeded, TestStore } from './support.js';
import { readAlloc, type Fields } from '../../../src/scheduler/state/alloc-record.js';

const NODE_IDS = ['node-a', 'node-b', 'node-c'];

interface Sum {
  cpu: number;
  memoryMB: number;
  diskMB: number;
  ports: number[];
}

/** What the node-usage table says, per node with anything on it. */
function aggregated(store: Store): Record<string, Sum> {
  const out: Record<string, Sum> = {};
  for (const id of NODE_IDS) {
    const u = readNodeUsage(store, id);
    if (u.cpu === 0 && u.memoryMB === 0 && u.diskMB === 0 && u.ports.size === 0) continue;
    out[id] = { cpu: u.cpu, memoryMB: u.memoryMB, diskMB: u.diskMB, ports: [...u.ports].sort((a, b) => a - b) };
  }
  return out;
}

/** The sums as a scheduler reads them: through the cache. */
function cachedSums(store: Store): Record<string, Sum> {
  const read = nodeUsageReader(store);
  const out: Record<string, Sum> = {};
  for (const id of NODE_IDS) {
    const { usage: u } = read(id);
    if (u.cpu === 0 && u.memoryMB === 0 && u.diskMB === 0 && u.ports.size === 0) continue;
    out[id] = { cpu: u.cpu, memoryMB: u.memoryMB, diskMB: u.diskMB, ports: [...u.ports].sort((a, b) => a - b) };
  }
  return out;
}

/** The same sums, recomputed from every stored allocation. */
function recomputed(store: Store): Record<string, Sum> {
  const sums = new Map<string, { cpu: number; memoryMB: number; diskMB: number; ports: Set<number> }>();
  for (const a of allocs(store)) {
    if (allocTerminal(a)) continue;
    const u = allocUsage(a);
    const s = sums.get(a.NodeID) ?? { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set<number>() };
    s.cpu += u.cpu;
    s.memoryMB += u.memoryMB;
    s.diskMB += u.diskMB;
    for (const p of u.ports) s.ports.add(p);
    sums.set(a.NodeID, s);
  }
  const out: Record<string, Sum> = {};
  for (const [id, s] of sums) {
    if (s.cpu === 0 && s.memoryMB === 0 && s.diskMB === 0 && s.ports.size === 0) continue;
    out[id] = { cpu: s.cpu, memoryMB: s.memoryMB, diskMB: s.diskMB, ports: [...s.ports].sort((a, b) => a - b) };
  }
  return out;
}

function allocs(store: Store): Allocation[] {
  return store.list<Fields>(ALLOCS_TABLE).map((e) => readAlloc(e.value));
}

/** A job whose allocations all want static port 8080 (shared, IgnoreCollision) and one dynamic port. */
function portJob(id: string, count: number, cpu: number) {
  return canonicalizeJob({
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'g',
        Count: count,
        Networks: [{ ReservedPorts: [{ Label: 'shared', Value: 8080, IgnoreCollision: true }], DynamicPorts: [{ Label: 'dyn', To: 80 }] }],
        Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: cpu, MemoryMB: 32 } }],
      },
    ],
  });
}

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
  for (const id of NODE_IDS) await registerNode(t.store, { ...makeNode(id, { cpu: 100_000, memoryMB: 100_000 }), ID: id }, `secret-${id}`);
});
afterEach(async () => {
  await t.dispose();
});

describe('node usage sums', () => {
  it('equal a recomputation from the allocations after a random sequence of changes and restarts', async () => {
    const random = seeded(20261125);
    const pick = <T>(list: T[]): T | undefined => (list.length === 0 ? undefined : list[Math.floor(random() * list.length)]);
    let jobs = 0;
    const ops: string[] = [];
    for (let step = 0; step < 60; step++) {
      const live = allocs(t.store).filter((a) => !allocTerminal(a));
      const roll = random();
      if (roll < 0.25 || live.length === 0) {
        ops.push('place');
        await registerJob(t.store, portJob(`job-${jobs++}`, 1 + Math.floor(random() * 4), 10 + Math.floor(random() * 50)));
        await t.runPending();
      } else if (roll < 0.4) {
        ops.push('client');
        const a = pick(live)!;
        const status = pick(['running', 'complete', 'failed', 'pending'] as const)!;
        await updateAllocsFromClient(t.store, a.NodeID, [{ ID: a.ID, ClientStatus: status, ClientDescription: '', TaskStates: {} }]);
        await t.runPending();
      } else if (roll < 0.5) {
        ops.push('stop-alloc');
        await stopAlloc(t.store, pick(live)!.ID, false);
        await t.runPending();
      } else if (roll < 0.6) {
        ops.push('resize');
        // An in-place update that changes what the allocation takes (and drops its dynamic port).
        const a = pick(live)!;
        await t.store.write((tx) => {
          const prev = getAlloc(tx, a.ID)!;
          const r = prev.AllocatedResources;
          const tasks = Object.fromEntries(Object.entries(r.Tasks).map(([k, v]) => [k, { ...v, Cpu: { ...v.Cpu, CpuShares: v.Cpu.CpuShares + 7 } }]));
          const ports = (r.Shared.Ports ?? []).filter((p) => p.Label === 'shared');
          putAlloc(tx, { ...prev, AllocatedResources: { ...r, Tasks: tasks, Shared: { ...r.Shared, Ports: ports } }, ModifyIndex: tx.index }, prev);
        });
      } else if (roll < 0.7) {
        ops.push('stop-job');
        const a = pick(live)!;
        await stopJob(t.store, a.Namespace, a.JobID);
        await t.runPending();
      } else if (roll < 0.8) {
        ops.push('gc');
        await collectGarbage(t.store, { now: Date.now() * 1_000_000, force: true });
      } else if (roll < 0.9) {
        ops.push('delete-live');
        // Whatever removes a live allocation gives its room back.
        const a = pick(live)!;
        await t.store.write((tx) => deleteAlloc(tx, getAlloc(tx, a.ID)!));
      } else {
        ops.push('restart');
        await t.reopen();
      }
      const expected = recomputed(t.store);
      expect(aggregated(t.store), `after ${ops.join(', ')}`).toEqual(expected);
      // The cache, caught up with this step's commits, answers the same.
      expect(cachedSums(t.store), `cached, after ${ops.join(', ')}`).toEqual(expected);
    }
    // The sequence did exercise shared ports and every kind of change.
    expect(new Set(ops)).toEqual(new Set(['place', 'client', 'stop-alloc', 'resize', 'stop-job', 'gc', 'delete-live', 'restart']));
  }, 120_000);

  it('a port two live allocations share stays used until both are gone', async () => {
    await registerJob(t.store, canonicalizeJob({ ...portJob('pair', 2, 10), Constraints: [{ LTarget: '${node.unique.id}', RTarget: 'node-a', Operand: '=' }] }));
    await t.runPending();
    const [first, second] = allocs(t.store);
    expect(first.NodeID).toBe('node-a');
    expect(second.NodeID).toBe('node-a');
    expect(readNodeUsage(t.store, 'node-a').ports.has(8080)).toBe(true);
    await updateAllocsFromClient(t.store, 'node-a', [{ ID: first.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    expect(readNodeUsage(t.store, 'node-a').ports.has(8080)).toBe(true);
    await updateAllocsFromClient(t.store, 'node-a', [{ ID: second.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    expect(readNodeUsage(t.store, 'node-a').ports.has(8080)).toBe(false);
    expect(t.store.get(NODE_USAGE, 'node-a')).toBeUndefined();
  });

  it('the migration builds the sums for a data dir written before they existed', async () => {
    for (let i = 0; i < 3; i++) await registerJob(t.store, portJob(`job-${i}`, 3, 20 + i));
    await t.runPending();
    const [done] = allocs(t.store);
    await updateAllocsFromClient(t.store, done.NodeID, [{ ID: done.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    const expected = recomputed(t.store);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    // What an older build left: no sums, schema at the initial layout.
    await t.openAsSchema8();
    await t.store.write((tx) => {
      for (const { key } of tx.list(NODE_USAGE)) tx.delete(NODE_USAGE, key);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, 1);
    });
    expect(aggregated(t.store)).toEqual({});
    await t.reopen();
    expect(aggregated(t.store)).toEqual(expected);
  });
});

describe('the node usage cache', () => {
  /** A job of one allocation of `cpu` MHz on the node. */
  const pinned = (id: string, node: string, cpu: number) => canonicalizeJob({ ...portJob(id, 1, cpu), Constraints: [{ LTarget: '${node.unique.id}', RTarget: node, Operand: '=' }] });

  it('answers each read with the table index it is that of; a later reader catches up with later commits', async () => {
    await registerJob(t.store, pinned('a', 'node-a', 10));
    await registerJob(t.store, pinned('b', 'node-b', 20));
    await t.runPending();
    const read = nodeUsageReader(t.store);
    const before = read('node-a');
    expect(before).toEqual({ usage: readNodeUsage(t.store, 'node-a'), asOf: t.store.tableIndex(NODE_USAGE) });
    const onA = allocs(t.store).find((a) => a.NodeID === 'node-a')!;
    await updateAllocsFromClient(t.store, 'node-a', [{ ID: onA.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    // The reader made before the commit keeps answering as of its index: the caller knows what it counts.
    expect(read('node-a')).toEqual(before);
    const later = nodeUsageReader(t.store);
    expect(later('node-a')).toEqual({ usage: { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set() }, asOf: t.store.tableIndex(NODE_USAGE) });
    expect(later('node-b').usage.cpu).toBe(20);
  });

  it('notices a write that left no change record and reads the table again', async () => {
    await registerJob(t.store, pinned('a', 'node-a', 10));
    await t.runPending();
    expect(nodeUsageReader(t.store)('node-a').usage.cpu).toBe(10);
    await t.store.write((tx) => tx.put(NODE_USAGE, 'node-a', { cpu: 999, mem: 1, disk: 2, ports: {} }));
    const seen = nodeUsageReader(t.store)('node-a');
    expect(seen.usage.cpu).toBe(999);
    expect(seen.asOf).toBe(t.store.tableIndex(NODE_USAGE));
  });

  it('stays right when more commits than it catches up with have passed', async () => {
    await registerJob(t.store, pinned('a', 'node-a', 10));
    await registerJob(t.store, pinned('b', 'node-b', 20));
    await t.runPending();
    const resize = (id: string, cpu: number) =>
      t.store.write((tx) => {
        const prev = getAlloc(tx, id)!;
        const r = prev.AllocatedResources;
        const tasks = Object.fromEntries(Object.entries(r.Tasks).map(([k, v]) => [k, { ...v, Cpu: { ...v.Cpu, CpuShares: cpu } }]));
        putAlloc(tx, { ...prev, AllocatedResources: { ...r, Tasks: tasks }, ModifyIndex: tx.index }, prev);
      });
    const onA = allocs(t.store).find((a) => a.NodeID === 'node-a')!;
    const onB = allocs(t.store).find((a) => a.NodeID === 'node-b')!;
    expect(nodeUsageReader(t.store)('node-a').usage.cpu).toBe(10);
    // Many changes of node-a's sum (in-place resizes), more than a cache follows one by one, and then
    // changes of node-b only: node-a's change is long past when the cache is next brought up to date.
    for (let i = 1; i <= 300; i++) await resize(onA.ID, 10 + i);
    for (let i = 1; i <= 10; i++) await resize(onB.ID, 20 + i);
    expect(nodeUsageReader(t.store)('node-a').usage.cpu).toBe(310);
    expect(nodeUsageReader(t.store)('node-b').usage.cpu).toBe(30);
  });

  it('keeps nothing of a transaction that was rolled back', async () => {
    await registerJob(t.store, pinned('a', 'node-a', 10));
    await t.runPending();
    const [first] = allocs(t.store);
    expect(nodeUsageReader(t.store)('node-a').usage.cpu).toBe(10);
    await expect(
      t.store.write((tx) => {
        putAlloc(tx, { ...getAlloc(tx, first.ID)!, DesiredStatus: 'stop', ModifyIndex: tx.index }, getAlloc(tx, first.ID));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(nodeUsageReader(t.store)('node-a').usage.cpu).toBe(10);
  });
});
