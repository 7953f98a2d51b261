/**
 * GET and POST /v1/job/:id/scale on a real server with mock-driver nodes: a new count is a new version
 * and an evaluation, no count only records an event, the Message/Error rule, unknown groups, scaling
 * policy bounds, system jobs, check-and-set, the active-deployment refusal (of a job's newest deployment
 * too, after earlier ones finished), and the 20 events kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';
import type { ScaleStatus } from '../../../src/api/job-scale.js';

interface ScaleResponse {
  EvalID?: string;
  EvalCreateIndex?: number;
  JobModifyIndex: number;
  Index: number;
}

const group = (name: string, count: number, extra: Record<string, unknown> = {}) => ({
  Name: name,
  Count: count,
  Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }],
  ...extra,
});
const job = (id: string, type: string, groups: Array<Record<string, unknown>>) => ({ ID: id, Type: type, Datacenters: ['dc1'], TaskGroups: groups });

interface DeploymentView {
  ID: string;
  JobVersion: number;
  Status: string;
}

describe('job scale endpoint', () => {
  let srv: InProcessServer;
  const c = () => srv.client();
  const scale = (id: string, body: Record<string, unknown>) => c().scheduler<ScaleResponse>('POST', `/v1/job/${id}/scale`, { body });
  const status = async (id: string) => (await c().scheduler<ScaleStatus>('GET', `/v1/job/${id}/scale`)).body;
  const versions = async (id: string) => (await c().scheduler<{ Versions: Array<{ Version: number; TaskGroups: Array<{ Count: number }> }> }>('GET', `/v1/job/${id}/versions`)).body.Versions;

  async function register(j: Record<string, unknown>) {
    const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: j } });
    await until(() => c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`), (r) => r.body.Status !== 'pending', 'the evaluation');
  }

  const nodes: FakeNode[] = [fakeNode(), fakeNode()];
  const deployment = async (id: string) => (await c().scheduler<DeploymentView>('GET', `/v1/deployment/${id}`)).body;

  /** Waits for the job's latest deployment to be the one of `version`, running. */
  async function runningDeployment(id: string, version: number): Promise<DeploymentView> {
    const latest = await until(
      () => c().scheduler<DeploymentView | null>('GET', `/v1/job/${id}/deployment`),
      (r) => r.body?.JobVersion === version && r.body.Status === 'running',
      `the running deployment of version ${version}`,
    );
    return latest.body!;
  }

  /** Reports the deployment's allocations healthy, each by its own node as a client would, and waits for its success. */
  async function finish(d: DeploymentView): Promise<void> {
    const allocs = (await c().scheduler<Array<{ ID: string; NodeID: string }>>('GET', `/v1/deployment/allocations/${d.ID}`)).body;
    expect(allocs.length).toBeGreaterThan(0);
    for (const a of allocs) {
      const node = nodes.find((n) => n.node.ID === a.NodeID)!;
      const update = { ID: a.ID, ClientStatus: 'running', ClientDescription: '', TaskStates: {}, DeploymentStatus: { Healthy: true, Timestamp: new Date().toISOString() } };
      await srv.client(node.secret).scheduler('POST', `/v1/node/${a.NodeID}/client-allocations`, { body: { Allocs: [update] } });
    }
    await until(() => deployment(d.ID), (x) => x.Status === 'successful', 'a successful deployment');
  }

  beforeAll(async () => {
    srv = await startInProcessServer({ heartbeatTtlMs: 600_000 });
    for (const n of nodes) await registerFakeNode(c(), n);
    await register(job('batch', 'batch', [group('g', 2), group('bounded', 2, { Scaling: { Min: 1, Max: 3, Enabled: true, Type: 'horizontal' } })]));
  });
  afterAll(async () => srv?.close());

  it('reads the scale status: desired and placed counts per group, no events yet', async () => {
    const s = await status('batch');
    expect(s).toMatchObject({ JobID: 'batch', Namespace: 'default', JobStopped: false });
    expect(s.TaskGroups.g).toEqual({ Desired: 2, Placed: 2, Running: 0, Healthy: 0, Unhealthy: 0, Events: null });
    expect((await statusOf(c().scheduler('GET', '/v1/job/nope/scale'))).code).toBe(404);
  });

  it('a new count makes a new version and an evaluation, and an event naming it', async () => {
    const before = (await versions('batch'))[0].Version;
    const resp = await scale('batch', { Count: 3, Target: { Group: 'g' }, Message: 'more', Meta: { by: 'test' } });
    expect(resp.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(resp.body.EvalCreateIndex).toBe(resp.body.Index);
    const latest = (await versions('batch'))[0];
    expect(latest.Version).toBe(before + 1);
    expect(latest.TaskGroups[0].Count).toBe(3);
    const evaluation = (await c().scheduler<{ TriggeredBy: string }>('GET', `/v1/evaluation/${resp.body.EvalID!}`)).body;
    expect(evaluation.TriggeredBy).toBe('job-scaling');
    const [event] = (await status('batch')).TaskGroups.g.Events!;
    expect(event).toMatchObject({ Count: 3, PreviousCount: 2, Message: 'more', Error: false, Meta: { by: 'test' }, EvalID: resp.body.EvalID, CreateIndex: resp.body.Index });
    await until(() => status('batch'), (s) => s.TaskGroups.g.Placed === 3, 'the third allocation');
  });

  it('without a count, or with the same count, only records an event: no version, no EvalID in the answer', async () => {
    const before = (await versions('batch'))[0].Version;
    const indexBefore = (await c().scheduler('GET', '/v1/job/batch/scale')).index;
    const none = await scale('batch', { Target: { Group: 'g' }, Message: 'just saying' });
    // A blocking read of the status wakes on a new event, though the job did not change.
    expect((await c().scheduler('GET', '/v1/job/batch/scale')).index).toBe(none.body.Index);
    expect(none.body.Index).toBeGreaterThan(indexBefore);
    expect(none.body.EvalID).toBeUndefined();
    expect(none.body.EvalCreateIndex).toBeUndefined();
    const same = await scale('batch', { Count: 3, Target: { Group: 'g' }, Message: 'same' });
    expect(same.body.EvalID).toBeUndefined();
    expect((await versions('batch'))[0].Version).toBe(before);
    const events = (await status('batch')).TaskGroups.g.Events!;
    expect(events.slice(0, 2).map((e) => [e.Message, e.Count, e.EvalID])).toEqual([
      ['same', 3, null],
      ['just saying', null, null],
    ]);
    const errorOnly = await scale('batch', { Target: { Group: 'g' }, Error: true });
    expect(errorOnly.body.EvalID).toBeUndefined();
    expect((await status('batch')).TaskGroups.g.Events![0]).toMatchObject({ Error: true, Message: '', Count: null });
  });

  it('needs one of Message or Error, a group the job has, and a count that is not negative', async () => {
    expect(await statusOf(scale('batch', { Count: 1, Target: { Group: 'g' } }))).toEqual({ code: 400, message: 'one of Message or Error must be provided' });
    expect(await statusOf(scale('batch', { Count: 1, Message: 'm' }))).toEqual({ code: 400, message: 'missing task group name for scaling action' });
    expect(await statusOf(scale('batch', { Count: 1, Target: { Group: 'zz' }, Message: 'm' }))).toEqual({
      code: 400,
      message: 'task group "zz" specified for scaling does not exist in job',
    });
    expect((await statusOf(scale('batch', { Count: -1, Target: { Group: 'g' }, Message: 'm' }))).code).toBe(400);
    expect((await statusOf(scale('batch', { Count: 1, Target: { Group: 'g' }, Error: true }))).code).toBe(400);
    expect((await statusOf(scale('nope', { Count: 1, Target: { Group: 'g' }, Message: 'm' }))).code).toBe(404);
  });

  it('keeps a count within the group scaling policy', async () => {
    expect(await statusOf(scale('batch', { Count: 4, Target: { Group: 'bounded' }, Message: 'm' }))).toEqual({
      code: 400,
      message: 'group count was greater than scaling policy maximum: 4 > 3',
    });
    expect(await statusOf(scale('batch', { Count: 0, Target: { Group: 'bounded' }, Message: 'm' }))).toEqual({
      code: 400,
      message: 'group count was less than scaling policy minimum: 0 < 1',
    });
    expect((await scale('batch', { Count: 3, Target: { Group: 'bounded' }, Message: 'm' })).body.EvalID).toBeTruthy();
  });

  it('EnforceIndex scales only at the given job modify index', async () => {
    const current = (await c().scheduler<{ JobModifyIndex: number }>('GET', '/v1/job/batch')).body.JobModifyIndex;
    const stale = await statusOf(scale('batch', { Count: 1, Target: { Group: 'g' }, Message: 'm', EnforceIndex: true, JobModifyIndex: current - 1 }));
    expect(stale.code).toBe(409);
    expect(stale.message).toContain(`job exists with conflicting job modify index: ${current}`);
    const ok = await scale('batch', { Count: 1, Target: { Group: 'g' }, Message: 'm', EnforceIndex: true, JobModifyIndex: current });
    expect(ok.body.JobModifyIndex).toBeGreaterThan(current);
  });

  it('keeps the 20 newest events of a group, newest first', async () => {
    for (let i = 0; i < 22; i++) await scale('batch', { Target: { Group: 'g' }, Message: `event ${i}` });
    const events = (await status('batch')).TaskGroups.g.Events!;
    expect(events.length).toBe(20);
    expect(events[0].Message).toBe('event 21');
    expect(events[19].Message).toBe('event 2');
  });

  it('a system job scales only to 0 or 1', async () => {
    await register(job('sys', 'system', [group('g', 1)]));
    expect(await statusOf(scale('sys', { Count: 2, Target: { Group: 'g' }, Message: 'm' }))).toEqual({ code: 400, message: 'task group count for system jobs must be 0 or 1' });
    expect((await scale('sys', { Count: 0, Target: { Group: 'g' }, Message: 'm' })).body.EvalID).toBeTruthy();
  });

  it('refuses a new count with 400 while a deployment is active, and records why', async () => {
    // A service job rolls out under a deployment that stays running: the fake nodes never report health.
    await register(job('svc', 'service', [group('g', 1)]));
    await until(() => c().scheduler<{ Status: string } | null>('GET', '/v1/job/svc/deployment'), (r) => r.body?.Status === 'running', 'a running deployment');
    const before = (await versions('svc'))[0].Version;
    expect(await statusOf(scale('svc', { Count: 2, Target: { Group: 'g' }, Message: 'grow' }))).toEqual({ code: 400, message: 'job scaling blocked due to active deployment' });
    expect((await versions('svc'))[0].Version).toBe(before);
    const [event] = (await status('svc')).TaskGroups.g.Events!;
    expect(event).toMatchObject({ Error: true, Message: 'job scaling blocked due to active deployment', Count: null, Meta: { OriginalCount: 2, OriginalMessage: 'grow' } });
  });

  it('refuses a new count while the newest of several deployments is active, and scales once it succeeded', async () => {
    // Each registration changes the task, so each version rolls out under a deployment of its own.
    const rolling = (v: string) => job('rolling', 'service', [group('g', 1, { Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Env: { V: v }, Resources: { CPU: 100, MemoryMB: 64 } }] })]);
    await register(rolling('0'));
    await finish(await runningDeployment('rolling', 0));
    await register(rolling('1'));
    await finish(await runningDeployment('rolling', 1));
    await register(rolling('2'));
    const third = await runningDeployment('rolling', 2);

    expect(await statusOf(scale('rolling', { Count: 2, Target: { Group: 'g' }, Message: 'grow' }))).toEqual({ code: 400, message: 'job scaling blocked due to active deployment' });
    expect((await deployment(third.ID)).Status).toBe('running');
    expect((await versions('rolling'))[0]).toMatchObject({ Version: 2, TaskGroups: [{ Count: 1 }] });

    await finish(third);
    const grown = await scale('rolling', { Count: 2, Target: { Group: 'g' }, Message: 'grow' });
    expect(grown.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect((await versions('rolling'))[0]).toMatchObject({ Version: 3, TaskGroups: [{ Count: 2 }] });
  });

  it('a purged job takes its events with it', async () => {
    await register(job('gone', 'batch', [group('g', 1)]));
    await scale('gone', { Target: { Group: 'g' }, Message: 'before purge' });
    await c().scheduler('DELETE', '/v1/job/gone', { query: { purge: true } });
    await register(job('gone', 'batch', [group('g', 1)]));
    expect((await status('gone')).TaskGroups.g.Events).toBeNull();
  });

  it('needs scale-job or submit-job to scale, and read-job-scaling or read-job to read', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await c().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return srv.client(String((await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))?.auth?.client_token));
    };
    const scaler = await tokenWith('scaler', ['scale-job', 'read-job-scaling']);
    const reader = await tokenWith('reader', ['read-job']);
    const submitter = await tokenWith('submitter', ['submit-job']);
    const body = { Target: { Group: 'g' }, Message: 'acl' };
    expect((await statusOf(submitter.scheduler('POST', '/v1/job/batch/scale', { body }))).code).toBe(200);
    expect((await statusOf(scaler.scheduler('POST', '/v1/job/batch/scale', { body }))).code).toBe(200);
    expect((await statusOf(scaler.scheduler('GET', '/v1/job/batch/scale'))).code).toBe(200);
    expect((await statusOf(scaler.scheduler('POST', '/v1/job/batch/scale', { body: { ...body, PolicyOverride: true } }))).code).toBe(403);
    expect((await statusOf(reader.scheduler('GET', '/v1/job/batch/scale'))).code).toBe(200);
    expect((await statusOf(reader.scheduler('POST', '/v1/job/batch/scale', { body }))).code).toBe(403);
  });
});
