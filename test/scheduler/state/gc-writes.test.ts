/**
 * A garbage collection pass writes only for the jobs it collects something of: jobs with nothing old
 * enough cost reads, not durable transactions (a pass over thousands of live jobs used to be thousands
 * of writes every five minutes).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { collectGarbage, GC_THRESHOLDS_NS } from '../../../src/scheduler/state/gc.js';
import { getJob, registerJob, stopJob } from '../../../src/scheduler/state/jobs.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import { TestStore } from './support.js';

let t: TestStore;
beforeEach(async () => {
  t = await TestStore.open();
});
afterEach(async () => {
  await t.dispose();
});

const job = (id: string) => canonicalizeJob({ ID: id, Type: 'service', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock' }] }] });

it('a pass with nothing old enough writes nothing; a later one still collects', async () => {
  for (let i = 0; i < 20; i++) await registerJob(t.store, job(`live-${i}`));
  await stopJob(t.store, 'default', 'live-0');
  await t.runPending();
  expect(getJob(t.store, 'default', 'live-0')?.Status).toBe('dead');
  const now = Date.now() * 1e6;
  const before = t.store.index();
  expect(await collectGarbage(t.store, { now })).toEqual({ jobs: 0, evals: 0, allocs: 0, deployments: 0 });
  expect(t.store.index()).toBe(before);
  const later = await collectGarbage(t.store, { now: now + GC_THRESHOLDS_NS.job + 1 });
  expect(later.jobs).toBe(1);
  expect(getJob(t.store, 'default', 'live-0')).toBeUndefined();
});
