/**
 * The index of running system and sysbatch jobs follows registration, stop, re-registration under
 * another type, purge and garbage collection; a node that becomes ready is evaluated for exactly the jobs
 * in it; and the migration builds it for a data dir written before it existed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evalsOfJob } from '../../../src/scheduler/state/evals.js';
import { collectGarbage } from '../../../src/scheduler/state/gc.js';
import { getJob, registerJob, stopJob } from '../../../src/scheduler/state/jobs.js';
import { allocsOfJob } from '../../../src/scheduler/state/allocs.js';
import { updateAllocsFromClient } from '../../../src/scheduler/state/client-updates.js';
import { registerNode, setNodeStatus } from '../../../src/scheduler/state/nodes.js';
import { SYSTEM_JOBS } from '../../../src/scheduler/state/system-jobs.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { makeNode } from '../sched/helpers.js';
import { TestStore } from './support.js';

const job = (id: string, type: string) =>
  canonicalizeJob({ ID: id, Type: type, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }] });

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

const indexed = () => t.store.list(SYSTEM_JOBS).map((e) => e.key.split('\u0000')[1]);
/** The jobs a node's arrival evaluated: node-update evaluations naming the node. */
const evaluatedFor = (nodeId: string, ids: string[]) =>
  ids.filter((id) => evalsOfJob(t.store, 'default', id).some((e) => e.TriggeredBy === 'node-update' && e.NodeID === nodeId));

describe('system job index', () => {
  it('holds the running system and sysbatch jobs, and a node becoming ready evaluates exactly those', async () => {
    for (const [id, type] of [
      ['sys', 'system'],
      ['sysbatch', 'sysbatch'],
      ['svc', 'service'],
      ['stopped', 'system'],
      ['purged', 'sysbatch'],
      ['retyped', 'system'],
    ]) {
      await registerJob(t.store, job(id, type));
    }
    await stopJob(t.store, 'default', 'stopped');
    await stopJob(t.store, 'default', 'purged', { purge: true });
    await stopJob(t.store, 'default', 'retyped');
    await registerJob(t.store, job('retyped', 'service'));
    expect(indexed()).toEqual(['sys', 'sysbatch']);

    const all = ['sys', 'sysbatch', 'svc', 'stopped', 'purged', 'retyped'];
    await registerNode(t.store, { ...makeNode('fresh'), ID: 'node-fresh' }, 'secret');
    expect(evaluatedFor('node-fresh', all)).toEqual(['sys', 'sysbatch']);

    // Down and back: ready again, evaluated again for the same jobs; a stopped job that runs again is back.
    await registerJob(t.store, job('stopped', 'system'));
    await setNodeStatus(t.store, 'node-fresh', 'down', 'missed heartbeats');
    await setNodeStatus(t.store, 'node-fresh', 'ready', '');
    expect(indexed()).toEqual(['stopped', 'sys', 'sysbatch']);
    const readyAgain = all.filter((id) => evalsOfJob(t.store, 'default', id).filter((e) => e.TriggeredBy === 'node-update' && e.NodeID === 'node-fresh').length >= 1);
    expect(readyAgain).toEqual(['sys', 'sysbatch', 'stopped']);
  });

  it('loses a finished sysbatch job when garbage collection removes it', async () => {
    await registerNode(t.store, { ...makeNode('n'), ID: 'node-n' }, 'secret');
    await registerJob(t.store, job('done', 'sysbatch'));
    await t.runPending();
    const [alloc] = allocsOfJob(t.store, 'default', 'done');
    await updateAllocsFromClient(t.store, 'node-n', [{ ID: alloc.ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} }]);
    await t.runPending();
    // Dead but not stopped: it stays indexed, as a node joining now would still run it.
    expect(getJob(t.store, 'default', 'done')!.Status).toBe('dead');
    expect(indexed()).toEqual(['done']);
    await collectGarbage(t.store, { now: Date.now() * 1_000_000, force: true });
    expect(getJob(t.store, 'default', 'done')).toBeUndefined();
    expect(indexed()).toEqual([]);
  });

  it('the migration builds it for a data dir written before it existed', async () => {
    await registerJob(t.store, job('a', 'system'));
    await registerJob(t.store, job('b', 'sysbatch'));
    await registerJob(t.store, job('c', 'batch'));
    await t.store.write((tx) => {
      for (const { key } of tx.list(SYSTEM_JOBS)) tx.delete(SYSTEM_JOBS, key);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, 1);
    });
    expect(indexed()).toEqual([]);
    await t.reopen();
    expect(indexed()).toEqual(['a', 'b']);
  });
});
