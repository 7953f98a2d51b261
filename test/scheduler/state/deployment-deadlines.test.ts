/**
 * Progress deadlines: a running deployment whose groups make no progress in time fails, as Nomad's
 * deployment watcher fails it. The watcher reads an index of running deployments by their next deadline,
 * so that it walks only what is overdue instead of decoding every deployment every second; the index
 * follows every change of a deployment, garbage collection, and is built for data written before it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEPLOYMENT_DEADLINES, deleteDeployment, enforceProgressDeadlines, getDeployment, putDeployment } from '../../../src/scheduler/state/deployments.js';
import { registerJob, getJob } from '../../../src/scheduler/state/jobs.js';
import { DEPLOYMENT_DESCRIPTIONS, newDeployment, type Deployment } from '../../../src/scheduler/structs/deployment.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { goTime } from '../../../src/scheduler/structs/allocation.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { TestStore } from './support.js';

const MINUTE = 60_000;

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

/** A service job whose group must make progress within 10 minutes; its deployment made `ago` ms ago. */
async function deploymentOf(id: string, ago: number): Promise<Deployment> {
  await registerJob(
    t.store,
    canonicalizeJob({
      ID: id,
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'web', Count: 2, Update: { MaxParallel: 1, ProgressDeadline: 10 * MINUTE * 1e6 }, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }],
    }),
  );
  const job = getJob(t.store, 'default', id)!;
  const d = newDeployment(job, Date.now() - ago);
  await t.store.write((tx) => putDeployment(tx, { ...d, CreateIndex: tx.index, ModifyIndex: tx.index }));
  return getDeployment(t.store, d.ID)!;
}

const indexed = () => t.store.keys(DEPLOYMENT_DEADLINES).map((k) => k.slice(k.indexOf('\u0000') + 1));

describe('deployment progress deadlines', () => {
  it('fail the running deployments that are overdue, and only those', async () => {
    const late = await deploymentOf('late', 11 * MINUTE);
    const onTime = await deploymentOf('on-time', 1 * MINUTE);
    // Earliest deadline first.
    expect(indexed()).toEqual([late.ID, onTime.ID]);

    expect(await enforceProgressDeadlines(t.store)).toBe(1);
    expect(getDeployment(t.store, late.ID)).toMatchObject({ Status: 'failed', StatusDescription: DEPLOYMENT_DESCRIPTIONS.progressDeadline });
    expect(getDeployment(t.store, onTime.ID)!.Status).toBe('running');
    expect(indexed()).toEqual([onTime.ID]);
    expect(await enforceProgressDeadlines(t.store)).toBe(0);
  });

  it('follow progress: a later deadline moves the entry, a deployment with nothing left to do has none', async () => {
    const d = await deploymentOf('web', 9 * MINUTE);
    const later = goTime(Date.now() + 30 * MINUTE);
    await t.store.write((tx) => putDeployment(tx, { ...d, TaskGroups: { web: { ...d.TaskGroups.web, RequireProgressBy: later } } }));
    expect(indexed()).toEqual([d.ID]);
    const key = t.store.keys(DEPLOYMENT_DEADLINES)[0];
    expect(Number(key.slice(0, key.indexOf('\u0000')))).toBeGreaterThan(Date.now() + 29 * MINUTE);

    // Every allocation healthy: nothing can be overdue, though the deployment still runs.
    await t.store.write((tx) => putDeployment(tx, { ...getDeployment(tx, d.ID)!, TaskGroups: { web: { ...d.TaskGroups.web, RequireProgressBy: later, HealthyAllocs: 2 } } }));
    expect(getDeployment(t.store, d.ID)!.Status).toBe('running');
    expect(indexed()).toEqual([]);
  });

  it('leave the index with the deployment when it is garbage collected', async () => {
    const d = await deploymentOf('web', 0);
    expect(indexed()).toEqual([d.ID]);
    await t.store.write((tx) => deleteDeployment(tx, d));
    expect(indexed()).toEqual([]);
    expect(getDeployment(t.store, d.ID)).toBeUndefined();
  });

  it('are indexed for deployments written before the index existed, when the store opens', async () => {
    const late = await deploymentOf('late', 11 * MINUTE);
    const onTime = await deploymentOf('on-time', 0);
    // What an older build left: no index, the schema one version back.
    await t.store.write((tx) => {
      for (const key of tx.list(DEPLOYMENT_DEADLINES).map((e) => e.key)) tx.delete(DEPLOYMENT_DEADLINES, key);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, 7);
    });
    expect(indexed()).toEqual([]);
    await t.reopen();
    expect(indexed()).toEqual([late.ID, onTime.ID]);
    expect(await enforceProgressDeadlines(t.store)).toBe(1);
  });
});
