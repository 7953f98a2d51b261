/**
 * Allocations are stored packed (zero-valued fields, unset task event fields and repeated scorer names
 * left out) and read back as exactly the record that was written: placements the scheduler made, the
 * same after a node's reports filled their task states, records with every optional part set, and
 * records written whole by a build before the packed form, before and after the migration that packs them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packAlloc, readAlloc, type Fields } from '../../../src/scheduler/state/alloc-record.js';
import { ALLOC_STUBS, allocStubRecord, getAllocStub, putAllocStub, putPackedAllocStub, readStub, stubUsage } from '../../../src/scheduler/state/alloc-stubs.js';
import { ALLOCS_TABLE, allocsOfJob, getAlloc } from '../../../src/scheduler/state/allocs.js';
import { updateAllocsFromClient } from '../../../src/scheduler/state/client-updates.js';
import { registerJob } from '../../../src/scheduler/state/jobs.js';
import { registerNode } from '../../../src/scheduler/state/nodes.js';
import { newTaskEvent, newTaskState, type Allocation } from '../../../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { SCHEMA_MIGRATIONS } from '../../../src/server/migrations.js';
import { makeNode } from '../sched/helpers.js';
import { allocKey } from '../../../src/scheduler/state/alloc-keys.js';
import { TestStore } from './support.js';

const json = (v: unknown) => JSON.stringify(v);
const roundTrip = (a: Allocation) => readAlloc(JSON.parse(json(packAlloc(a))));

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
  for (const id of ['node-a', 'node-b', 'node-c']) await registerNode(t.store, { ...makeNode(id, { cpu: 100_000, memoryMB: 100_000 }), ID: id }, `secret-${id}`);
});
afterEach(async () => {
  await t.dispose();
});

async function placed(count: number): Promise<Allocation[]> {
  const job = canonicalizeJob({
    ID: 'web',
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Count: count, Networks: [{ DynamicPorts: [{ Label: 'http', To: 80 }] }], Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 20, MemoryMB: 32 } }] }],
  });
  await registerJob(t.store, job);
  await t.runPending();
  return allocsOfJob(t.store, 'default', 'web');
}

/** Every optional part set: task states with events, a deployment's health, a transition, a tracker. */
function everything(a: Allocation): Allocation {
  const state = newTaskState();
  state.State = 'running';
  state.Restarts = 2;
  state.StartedAt = '2026-12-02T10:00:00.123456789Z';
  state.Events = [newTaskEvent('Received', { DisplayMessage: 'Task received by client' }), newTaskEvent('Terminated', { ExitCode: 3, Signal: 9, Details: { exit_code: '3' }, FailsTask: true })];
  return {
    ...a,
    ClientStatus: 'running',
    ClientDescription: 'Tasks are running',
    DesiredTransition: { ...a.DesiredTransition, Migrate: true },
    TaskStates: { t: state, other: { ...newTaskState(), Events: [] } },
    DeploymentID: 'dep-1',
    DeploymentStatus: { Healthy: true, Timestamp: '2026-12-02T10:00:01Z', Canary: false, ModifyIndex: 7 },
    RescheduleTracker: { Events: [{ RescheduleTime: 1, PrevAllocID: 'p', PrevNodeID: 'n', Delay: 30e9 }], LastReschedule: 'ok' },
    NetworkStatus: { InterfaceName: 'eth0', Address: '10.0.0.2', AddressIPv6: '', DNS: null },
    Metrics: {
      ...a.Metrics!,
      NodesFiltered: 1,
      ConstraintFiltered: { '${attr.kernel.name} = linux': 1 },
      DimensionExhausted: { memory: 2 },
      // One node scored by a scorer the others were not, one score of zero kept as scored.
      ScoreMetaData: [
        { NodeID: 'node-a', Scores: { binpack: 0.5, 'node-affinity': 0 }, NormScore: 0.25 },
        { NodeID: 'node-b', Scores: { binpack: 0.1, 'job-anti-affinity': -0.5 }, NormScore: -0.2 },
      ],
    },
  };
}

describe('packed allocation records', () => {
  it('read back as the placements the scheduler wrote, field for field and in the same order, in much less room', async () => {
    const allocs = await placed(6);
    expect(allocs).toHaveLength(6);
    for (const a of allocs) {
      expect(a.Metrics?.ScoreMetaData?.length).toBeGreaterThan(0);
      expect(json(roundTrip(a))).toBe(json(a));
      expect(json(packAlloc(a)).length).toBeLessThan(json(a).length * 0.7);
    }
    // What the store holds is the packed form: no zero-valued field, no spelled-out score entries.
    const stored = t.store.list<Fields>(ALLOCS_TABLE)[0].value;
    expect(Object.keys(stored)).not.toContain('DesiredDescription');
    expect(Object.keys(stored)).not.toContain('TaskStates');
    expect(Object.keys(stored.Metrics as Fields)).not.toContain('ScoreMetaData');
  });

  it('keep every optional part, and a record as a node reports it', async () => {
    const [a] = await placed(1);
    const full = everything(a);
    expect(roundTrip(full)).toEqual(full);
    expect(json(roundTrip(full).TaskStates)).toBe(json(full.TaskStates));

    await updateAllocsFromClient(t.store, a.NodeID, [{ ID: a.ID, ClientStatus: 'running', ClientDescription: 'Tasks are running', TaskStates: full.TaskStates! }]);
    const reported = getAlloc(t.store, a.ID)!;
    expect(reported.TaskStates).toEqual(full.TaskStates);
    expect(getAllocStub(t.store, a.ID)).toEqual(JSON.parse(json(allocStubRecord(reported))));
    expect(json(roundTrip(reported))).toBe(json(reported));
  });

  it('store the stub picked from the packed record as the stub packed on its own, byte for byte', async () => {
    const allocs = await placed(3);
    for (const a of [...allocs, ...allocs.map(everything), { ...allocs[0], DeploymentStatus: undefined, TaskStates: null }]) {
      const { result } = await t.store.write((tx) => {
        putAllocStub(tx, a);
        putPackedAllocStub(tx, 'picked', packAlloc(a), stubUsage(a));
        return [tx.get(ALLOC_STUBS, allocKey(a.CreateIndex, a.ID)), tx.get(ALLOC_STUBS, 'picked')];
      });
      expect(json(result[1])).toBe(json(result[0]));
      expect(readStub(result[1] as Fields)).toEqual(JSON.parse(json(allocStubRecord(a))));
    }
  });

  it('read a record written whole as itself, and the migration packs it without changing what is read', async () => {
    const allocs = (await placed(3)).map(everything);
    // As a build before the packed form wrote them: whole records and whole stubs, schema 10.
    await t.store.write((tx) => {
      for (const a of allocs) {
        const key = t.store.list<Fields>(ALLOCS_TABLE).find((e) => e.value.ID === a.ID)!.key;
        tx.put(ALLOCS_TABLE, key, a);
        tx.put(ALLOC_STUBS, key, allocStubRecord(a));
      }
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, 10);
    });
    for (const a of allocs) {
      expect(getAlloc(t.store, a.ID)).toEqual(a);
      expect(getAllocStub(t.store, a.ID)).toEqual(allocStubRecord(a));
    }
    const wholeBytes = json(t.store.list(ALLOCS_TABLE)).length;

    await t.reopen();
    expect(t.store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(Math.max(...SCHEMA_MIGRATIONS.map((m) => m.version)));
    expect(json(t.store.list(ALLOCS_TABLE)).length).toBeLessThan(wholeBytes);
    for (const a of allocs) {
      expect(getAlloc(t.store, a.ID)).toEqual(a);
      expect(getAllocStub(t.store, a.ID)).toEqual(allocStubRecord(a));
    }
    for (const { value } of t.store.list<Fields>(ALLOC_STUBS)) {
      expect(Object.keys(value)).not.toContain('FollowupEvalID');
      expect(readStub(value).FollowupEvalID).toBe('');
    }
  });
});
