/**
 * The scheduler's cached reads of the store — the node view and candidates shared between evaluations,
 * and the per-node usage sums — give the same placements as the plain array state computed from the same
 * records, and a write to the nodes table (ours or another server process's) is seen by the next
 * evaluation, while one evaluation keeps reading the nodes it started with.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { arrayState, schedulerFor } from '../../../src/scheduler/sched/index.js';
import type { SchedulerResult, SchedulerState } from '../../../src/scheduler/sched/types.js';
import { ALLOCS_TABLE } from '../../../src/scheduler/state/allocs.js';
import { getEval } from '../../../src/scheduler/state/evals.js';
import { listJobs, registerJob } from '../../../src/scheduler/state/jobs.js';
import { nodeView } from '../../../src/scheduler/state/node-view.js';
import { getNode, listNodes, NODES_TABLE, registerNode, setNodeEligibility } from '../../../src/scheduler/state/nodes.js';
import { storeState } from '../../../src/scheduler/state/scheduler-state.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import type { Node } from '../../../src/scheduler/structs/node.js';
import { makeNode } from '../sched/helpers.js';
import { seeded, TestStore } from './support.js';
import { readAlloc, type Fields } from '../../../src/scheduler/state/alloc-record.js';

/** With `ports`, each allocation wants static port 9000 (so one per node) and a dynamic one. */
function job(id: string, count: number, cpu: number, extra: Record<string, unknown> = {}, ports = false) {
  return canonicalizeJob({
    ID: id,
    Datacenters: ['dc1', 'dc2'],
    ...extra,
    TaskGroups: [
      {
        Name: 'g',
        Count: count,
        Networks: ports ? [{ ReservedPorts: [{ Label: 'web', Value: 9000 }], DynamicPorts: [{ Label: 'dyn', To: 80 }] }] : [],
        Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: cpu, MemoryMB: 64 } }],
      },
    ],
  });
}

/** The placements of a result as comparable data: name → node, and what failed. */
function placements(result: SchedulerResult) {
  return {
    place: result.plan.Place.map((a) => [a.Name, a.NodeID, a.AllocatedResources.Shared.Ports]).sort(),
    // AllocationTime is how long the search took: the only field that may differ.
    failed: Object.fromEntries(Object.entries(result.eval.FailedTGAllocs ?? {}).map(([g, m]) => [g, { ...m, AllocationTime: 0 }])),
    queued: result.eval.QueuedAllocations,
  };
}

/** The plain state over the store's records: usage recomputed from the allocations, nodes read afresh. */
function uncached(t: TestStore): SchedulerState {
  return arrayState({
    jobs: listJobs(t.store, '*'),
    allocs: t.store.list<Fields>(ALLOCS_TABLE).map((e) => readAlloc(e.value)),
    nodes: listNodes(t.store),
  });
}

/** Runs the job's evaluation on `state` with Math.random replaying `seed`. */
async function scheduleWith(state: SchedulerState, evalId: string, t: TestStore, seed: number): Promise<SchedulerResult> {
  const evaluation = getEval(t.store, evalId)!;
  const spy = vi.spyOn(Math, 'random').mockImplementation(seeded(seed));
  try {
    return await schedulerFor(evaluation.Type)(evaluation, state);
  } finally {
    spy.mockRestore();
  }
}

async function addNode(t: TestStore, name: string, o: Parameters<typeof makeNode>[1] = {}): Promise<Node> {
  const { node } = await registerNode(t.store, { ...makeNode(name, o), ID: `node-${name}` }, `secret-${name}`);
  return node;
}

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

describe('scheduler reads with caches', () => {
  it('place exactly as the uncached state over the same records, evaluation after evaluation', async () => {
    // Small, uneven nodes in two datacenters and a pool the jobs do not use, so usage, ports and
    // candidates all decide where things go.
    for (let i = 0; i < 12; i++) await addNode(t, `n${i}`, { cpu: 600 + 100 * (i % 4), memoryMB: 4096, datacenter: i % 3 === 0 ? 'dc2' : 'dc1', pool: i === 11 ? 'other' : 'default' });
    let compared = 0;
    for (let round = 0; round < 8; round++) {
      const { evaluation } = await registerJob(t.store, job(`job-${round}`, 3 + (round % 4), 150 + 25 * round, {}, round % 2 === 0));
      const cached = placements(await scheduleWith(storeState(t.store), evaluation!.ID, t, round));
      const plain = placements(await scheduleWith(uncached(t), evaluation!.ID, t, round));
      expect(cached, `round ${round}`).toEqual(plain);
      compared += cached.place.length;
      await t.runPending();
    }
    // Enough was placed for the nodes to fill up, so later rounds were decided by the usage sums.
    expect(compared).toBeGreaterThan(20);
    const lastRound = await registerJob(t.store, job('overflow', 30, 300));
    const result = await scheduleWith(storeState(t.store), lastRound.evaluation!.ID, t, 99);
    expect(result.eval.FailedTGAllocs?.g?.NodesExhausted ?? 0).toBeGreaterThan(0);
    expect(placements(result)).toEqual(placements(await scheduleWith(uncached(t), lastRound.evaluation!.ID, t, 99)));
  }, 60_000);

  it('a node made ineligible between two evaluations gets nothing from the second', async () => {
    const a = await addNode(t, 'a');
    const b = await addNode(t, 'b');
    const first = await registerJob(t.store, job('first', 4, 10, { Constraints: [{ LTarget: '${node.unique.id}', RTarget: a.ID, Operand: '!=' }] }));
    await t.runPending();
    expect(getEval(t.store, first.evaluation!.ID)!.Status).toBe('complete');
    const before = nodeView(t.store);
    expect(nodeView(t.store)).toBe(before);

    await setNodeEligibility(t.store, b.ID, false);
    expect(nodeView(t.store)).not.toBe(before);
    const { evaluation } = await registerJob(t.store, job('second', 4, 10));
    const result = await scheduleWith(storeState(t.store), evaluation!.ID, t, 1);
    expect(result.plan.Place.map((p) => p.NodeID)).toEqual([a.ID, a.ID, a.ID, a.ID]);
  });

  it('a node written by another server process (straight into the nodes table) is seen by the next evaluation', async () => {
    const a = await addNode(t, 'a');
    await addNode(t, 'b');
    const view = nodeView(t.store);
    // Another process shares the store: no function of ours runs, only its write lands.
    await t.store.write((tx) => tx.put(NODES_TABLE, a.ID, { ...getNode(tx, a.ID)!, Status: 'down', ModifyIndex: tx.index }));
    expect(nodeView(t.store)).not.toBe(view);
    const { evaluation } = await registerJob(t.store, job('after', 3, 10));
    const result = await scheduleWith(storeState(t.store), evaluation!.ID, t, 2);
    expect(result.plan.Place).toHaveLength(3);
    expect(result.plan.Place.every((p) => p.NodeID === 'node-b')).toBe(true);
  });

  it('one evaluation reads the nodes it started with, even when they change meanwhile', async () => {
    const a = await addNode(t, 'a');
    const state = storeState(t.store);
    expect(state.node(a.ID)!.SchedulingEligibility).toBe('eligible');
    expect(state.candidateNodes({ Datacenters: ['dc1'], NodePool: 'default' }).nodes.map((n) => n.ID)).toEqual([a.ID]);
    await setNodeEligibility(t.store, a.ID, false);
    await addNode(t, 'late');
    expect(state.node(a.ID)!.SchedulingEligibility).toBe('eligible');
    expect(state.nodes().map((n) => n.ID)).toEqual([a.ID]);
    const next = storeState(t.store);
    expect(next.node(a.ID)!.SchedulingEligibility).toBe('ineligible');
    expect(next.candidateNodes({ Datacenters: ['dc1'], NodePool: 'default' }).nodes.map((n) => n.ID)).toEqual(['node-late']);
  });
});
