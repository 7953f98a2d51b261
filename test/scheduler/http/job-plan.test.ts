/**
 * POST /v1/job/:id/plan on a real server with mock-driver nodes: the scheduler's dry run says what a
 * registration would create, update in place or destructively, stop, or fail to place, the diff carries
 * Nomad's annotations, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

interface DesiredUpdates {
  Ignore: number;
  Place: number;
  Stop: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
  Migrate: number;
  Canary: number;
}
interface FieldDiff {
  Name: string;
  Type: string;
  Old: string;
  New: string;
  Annotations: string[] | null;
}
interface PlanResponse {
  Annotations: { DesiredTGUpdates: Record<string, DesiredUpdates>; PreemptedAllocs: null };
  FailedTGAllocs: Record<string, { CoalescedFailures: number }> | null;
  JobModifyIndex: number;
  CreatedEvals: Array<{ TriggeredBy: string; Status: string }> | null;
  Diff: {
    Type: string;
    TaskGroups: Array<{ Name: string; Type: string; Updates: Record<string, number> | null; Fields: FieldDiff[] | null; Tasks: Array<{ Name: string; Annotations: string[] | null }> | null }>;
  } | null;
  NextPeriodicLaunch: string;
  Index: number;
}

const task = (extra: Record<string, unknown> = {}) => ({ Name: 't', Driver: 'mock', Config: { run_for: '1h' }, Resources: { CPU: 100, MemoryMB: 64 }, ...extra });
const batchJob = (id: string, count: number, taskExtra: Record<string, unknown> = {}) => ({
  ID: id,
  Type: 'batch',
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: count, Tasks: [task(taskExtra)] }],
});

describe('job plan endpoint', () => {
  let srv: InProcessServer;
  const c = () => srv.client();
  const plan = async (job: Record<string, unknown>, diff = true) =>
    (await c().scheduler<PlanResponse>('POST', `/v1/job/${String(job.ID)}/plan`, { body: { Job: job, Diff: diff } })).body;

  /** What a plan must leave untouched: the store's index, and the jobs, evaluations and allocations. */
  async function snapshot() {
    return {
      index: srv.server.services.store.index(),
      jobs: (await c().scheduler<unknown[]>('GET', '/v1/jobs')).body.length,
      evals: (await c().scheduler<unknown[]>('GET', '/v1/evaluations')).body.length,
      allocs: (await c().scheduler<unknown[]>('GET', '/v1/allocations')).body.length,
    };
  }

  async function register(job: Record<string, unknown>) {
    const reg = await c().scheduler<{ EvalID: string; JobModifyIndex: number }>('POST', '/v1/jobs', { body: { Job: job } });
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`), (r) => r.body.Status !== 'pending', 'the evaluation');
    return reg.body.JobModifyIndex;
  }

  beforeAll(async () => {
    srv = await startInProcessServer({ heartbeatTtlMs: 600_000 });
    for (const n of [fakeNode(), fakeNode()]) await registerFakeNode(c(), n);
  });
  afterAll(async () => srv?.close());

  it('plans a new job: every allocation created, an Added diff, and nothing written', async () => {
    const before = await snapshot();
    const resp = await plan(batchJob('fresh', 3));
    expect(resp.Annotations.DesiredTGUpdates.g).toMatchObject({ Place: 3, Ignore: 0, Stop: 0, DestructiveUpdate: 0 });
    expect(resp.JobModifyIndex).toBe(0);
    expect(resp.FailedTGAllocs).toBeNull();
    expect(resp.CreatedEvals).toBeNull();
    expect(resp.NextPeriodicLaunch).toBe('0001-01-01T00:00:00Z');
    expect(resp.Diff?.Type).toBe('Added');
    expect(resp.Diff?.TaskGroups[0].Updates).toEqual({ create: 3 });
    expect(resp.Diff?.TaskGroups[0].Tasks?.[0].Annotations).toEqual(['forces create']);
    // Nomad's JobPlanResponse: WriteMeta is the index alone.
    expect(Object.keys(resp).sort()).toEqual(['Annotations', 'CreatedEvals', 'Diff', 'FailedTGAllocs', 'Index', 'JobModifyIndex', 'NextPeriodicLaunch', 'Warnings']);
    expect(await snapshot()).toEqual(before);
    expect((await statusOf(c().scheduler('GET', '/v1/job/fresh'))).code).toBe(404);
  });

  it('Diff is null unless asked for', async () => {
    expect((await plan(batchJob('fresh', 1), false)).Diff).toBeNull();
  });

  it('an unchanged job ignores its allocations, and answers its current JobModifyIndex', async () => {
    const index = await register(batchJob('steady', 3));
    const before = await snapshot();
    const resp = await plan(batchJob('steady', 3));
    expect(resp.Annotations.DesiredTGUpdates.g).toMatchObject({ Ignore: 3, Place: 0, Stop: 0 });
    expect(resp.JobModifyIndex).toBe(index);
    expect(resp.Diff?.Type).toBe('None');
    expect(await snapshot()).toEqual(before);
  });

  it('a larger count creates the difference and annotates Count "forces create"; a smaller one stops', async () => {
    // A new count is a new version: the allocations kept move to it in place, as in Nomad's plans.
    const up = await plan(batchJob('steady', 5));
    expect(up.Annotations.DesiredTGUpdates.g).toMatchObject({ InPlaceUpdate: 3, Place: 2, Ignore: 0 });
    const count = up.Diff?.TaskGroups[0].Fields?.find((f) => f.Name === 'Count');
    expect(count).toMatchObject({ Old: '3', New: '5', Annotations: ['forces create'] });
    expect(up.Diff?.TaskGroups[0].Updates).toEqual({ create: 2, 'in-place update': 3 });

    const down = await plan(batchJob('steady', 1));
    expect(down.Annotations.DesiredTGUpdates.g).toMatchObject({ InPlaceUpdate: 1, Stop: 2, Place: 0 });
    expect(down.Diff?.TaskGroups[0].Fields?.find((f) => f.Name === 'Count')?.Annotations).toEqual(['forces destroy']);
  });

  it('a kill timeout change updates in place; a config change is destructive', async () => {
    const inPlace = await plan(batchJob('steady', 3, { KillTimeout: 9_000_000_000 }));
    expect(inPlace.Annotations.DesiredTGUpdates.g).toMatchObject({ InPlaceUpdate: 3, DestructiveUpdate: 0 });
    expect(inPlace.Diff?.TaskGroups[0].Tasks?.[0].Annotations).toEqual(['forces in-place update']);
    expect(inPlace.Diff?.TaskGroups[0].Updates).toEqual({ 'in-place update': 3 });

    const destructive = await plan(batchJob('steady', 3, { Config: { run_for: '2h' } }));
    expect(destructive.Annotations.DesiredTGUpdates.g).toMatchObject({ DestructiveUpdate: 3, InPlaceUpdate: 0 });
    expect(destructive.Diff?.TaskGroups[0].Tasks?.[0].Annotations).toEqual(['forces create/destroy update']);
  });

  it('a group left out is stopped: its diff is Deleted and its tasks "forces destroy"', async () => {
    const two = { ...batchJob('two', 1), TaskGroups: [...batchJob('two', 1).TaskGroups, { ...batchJob('two', 2).TaskGroups[0], Name: 'h' }] };
    await register(two);
    const resp = await plan(batchJob('two', 1));
    expect(resp.Annotations.DesiredTGUpdates.h).toMatchObject({ Stop: 2, Place: 0 });
    expect(resp.Annotations.DesiredTGUpdates.g).toMatchObject({ InPlaceUpdate: 1, Stop: 0 });
    const h = resp.Diff?.TaskGroups.find((g) => g.Name === 'h');
    expect(h?.Type).toBe('Deleted');
    expect(h?.Updates).toEqual({ destroy: 2 });
    expect(h?.Tasks?.[0].Annotations).toEqual(['forces destroy']);
  });

  it('a group that fits nowhere reports FailedTGAllocs and the blocked evaluation it would create', async () => {
    const before = await snapshot();
    const resp = await plan(batchJob('huge', 2, { Resources: { CPU: 100, MemoryMB: 1_000_000 } }));
    expect(Object.keys(resp.FailedTGAllocs ?? {})).toEqual(['g']);
    expect(resp.FailedTGAllocs?.g.CoalescedFailures).toBe(1);
    expect(resp.CreatedEvals?.map((e) => [e.TriggeredBy, e.Status])).toEqual([['queued-allocs', 'blocked']]);
    expect(await snapshot()).toEqual(before);
  });

  it('plans a system job on every eligible node', async () => {
    const system = { ...batchJob('everywhere', 1), Type: 'system' };
    expect((await plan(system)).Annotations.DesiredTGUpdates.g).toMatchObject({ Place: 2 });
    await register(system);
    expect((await plan(system)).Annotations.DesiredTGUpdates.g).toMatchObject({ Ignore: 2, Place: 0 });
  });

  it('a periodic job answers its next launch, and the zero time when disabled', async () => {
    const periodic = (enabled: boolean) => ({ ...batchJob('cron', 1), Periodic: { Enabled: enabled, Spec: '*/5 * * * *', SpecType: 'cron', TimeZone: 'UTC' } });
    const before = Date.now();
    const next = Date.parse((await plan(periodic(true))).NextPeriodicLaunch);
    expect(next).toBeGreaterThan(before);
    expect(next).toBeLessThanOrEqual(before + 5 * 60_000);
    expect(new Date(next).getUTCMinutes() % 5).toBe(0);
    expect((await plan(periodic(false))).NextPeriodicLaunch).toBe('0001-01-01T00:00:00Z');
  });

  it('refuses a missing Job, a missing ID, an ID that is not the path, an invalid job and an unknown namespace with 400', async () => {
    const missing = await statusOf(c().scheduler('POST', '/v1/job/x/plan', { body: {} }));
    expect(missing).toEqual({ code: 400, message: 'Job must be specified' });
    const { ID: _, ...noId } = batchJob('x', 1);
    expect(await statusOf(c().scheduler('POST', '/v1/job/x/plan', { body: { Job: noId } }))).toEqual({ code: 400, message: 'Job must have a valid ID' });
    expect(await statusOf(c().scheduler('POST', '/v1/job/x/plan', { body: { Job: batchJob('y', 1) } }))).toEqual({ code: 400, message: 'Job ID does not match' });
    const invalid = await statusOf(c().scheduler('POST', '/v1/job/x/plan', { body: { Job: { ...batchJob('x', 1), TaskGroups: [] } } }));
    expect(invalid.code).toBe(400);
    const elsewhere = await statusOf(c().scheduler('POST', '/v1/job/x/plan', { body: { Job: { ...batchJob('x', 1), Namespace: 'nowhere' } } }));
    expect(elsewhere).toEqual({ code: 400, message: 'job "x" is in nonexistent namespace "nowhere"' });
  });

  it('needs submit-job, and policy-override when PolicyOverride is set', async () => {
    await c().secrets('PUT', 'sys/policies/acl/plan-reader', { body: { policy: 'namespace "default" { capabilities = ["read-job"] }' } });
    await c().secrets('PUT', 'sys/policies/acl/plan-submitter', { body: { policy: 'namespace "default" { capabilities = ["submit-job"] }' } });
    const tokenFor = async (policy: string) => String((await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } }))?.auth?.client_token);
    const reader = srv.client(await tokenFor('plan-reader'));
    const submitter = srv.client(await tokenFor('plan-submitter'));
    const job = batchJob('acl', 1);
    expect((await statusOf(reader.scheduler('POST', '/v1/job/acl/plan', { body: { Job: job } }))).code).toBe(403);
    expect((await statusOf(submitter.scheduler('POST', '/v1/job/acl/plan', { body: { Job: job } }))).code).toBe(200);
    expect((await statusOf(submitter.scheduler('POST', '/v1/job/acl/plan', { body: { Job: job, PolicyOverride: true } }))).code).toBe(403);
  });
});
