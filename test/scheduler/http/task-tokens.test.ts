/**
 * Tokens for tasks with a `vault` block: the submitter must hold the policies the job names (Nomad's
 * rule, on register and plan); the node that runs the allocation gets one token per such task, with
 * those policies and the allocation in its metadata, and nobody else gets any; the tokens are revoked
 * once the node reports the allocation finished, or once it is collected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

interface Alloc {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

interface LookupSelf {
  data: { policies: string[]; meta: Record<string, string>; display_name: string; renewable: boolean; orphan: boolean; ttl: number; accessor: string };
}

const job = (id: string, vault: Record<string, unknown> | null, policies = ['app-read']) => ({
  ID: id,
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'g',
      Count: 1,
      Tasks: [
        { Name: 'web', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 }, Vault: vault === null ? null : { Policies: policies, ...vault } },
        { Name: 'side', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } },
      ],
    },
  ],
});

describe('task tokens', () => {
  let srv: InProcessServer;
  let node: FakeNode;
  let other: FakeNode;
  let submitter: string;
  let noPolicy: string;

  async function token(...policies: string[]): Promise<string> {
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies } });
    return String(created?.auth?.client_token);
  }

  async function runJob(spec: Record<string, unknown>, as = submitter): Promise<Alloc> {
    await srv.client(as).scheduler('POST', '/v1/jobs', { body: { Job: spec } });
    return until(
      async () => (await srv.client().scheduler<Alloc[]>('GET', `/v1/job/${String(spec.ID)}/allocations`)).body[0],
      (a) => a !== undefined,
      `an allocation of ${String(spec.ID)}`,
    );
  }

  const derive = (n: FakeNode, allocId: string, tasks: string[]) =>
    srv.client(n.secret).scheduler<{ Tasks: Record<string, string>; LeaseDurations: Record<string, number> }>('POST', `/v1/node/${n.node.ID}/derive-token`, {
      body: { AllocID: allocId, Tasks: tasks },
    });

  const lookupSelf = async (t: string) => (await srv.client(t).secrets('GET', 'auth/token/lookup-self')) as unknown as LookupSelf;

  async function report(n: FakeNode, allocId: string, status: string): Promise<void> {
    const state = status === 'running' ? 'running' : 'dead';
    const taskState = { State: state, Failed: false, Restarts: 0, LastRestart: '0001-01-01T00:00:00Z', StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z', Events: [], Paused: '' };
    await srv.client(n.secret).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, {
      body: { Allocs: [{ ID: allocId, ClientStatus: status, ClientDescription: '', TaskStates: { web: taskState, side: taskState } }] },
    });
  }

  beforeAll(async () => {
    srv = await startInProcessServer();
    node = fakeNode();
    await registerFakeNode(srv.client(), node);
    // A node the scheduler never picks: it is not eligible.
    other = fakeNode({ SchedulingEligibility: 'ineligible' });
    await registerFakeNode(srv.client(), other);
    for (const name of ['app-read', 'submit']) {
      const rules = name === 'submit' ? 'namespace "default" {\n  policy = "write"\n}\n' : 'path "secret/data/app/*" {\n  capabilities = ["read"]\n}\n';
      await srv.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: rules } });
    }
    submitter = await token('submit', 'app-read');
    noPolicy = await token('submit');
  });
  afterAll(async () => srv?.close());

  it('refuses a job whose vault policies the submitting token does not hold, naming them, on register and plan', async () => {
    const spec = job('refused', {}, ['app-read', 'ops', 'db']);
    expect(await statusOf(srv.client(noPolicy).scheduler('POST', '/v1/jobs', { body: { Job: spec } }))).toEqual({
      code: 403,
      message: "Vault token doesn't allow access to the following policies: app-read, db, ops",
    });
    expect(await statusOf(srv.client(submitter).scheduler('POST', '/v1/job/refused', { body: { Job: spec } }))).toEqual({
      code: 403,
      message: "Vault token doesn't allow access to the following policies: db, ops",
    });
    expect(await statusOf(srv.client(noPolicy).scheduler('POST', '/v1/job/refused/plan', { body: { Job: spec } }))).toMatchObject({ code: 403 });
    expect(await statusOf(srv.client().scheduler('GET', '/v1/job/refused'))).toMatchObject({ code: 404 });
  });

  it('accepts the job from a token holding the policies, and from root whatever they are', async () => {
    expect((await statusOf(srv.client(submitter).scheduler('POST', '/v1/job/allowed/plan', { body: { Job: job('allowed', {}) } }))).code).toBe(200);
    expect((await statusOf(srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job('by-root', {}, ['anything']) } }))).code).toBe(200);
    const stored = (await srv.client().scheduler<{ TaskGroups: Array<{ Tasks: Array<{ Vault: { Policies: string[] } | null }> }> }>('GET', '/v1/job/by-root')).body;
    expect(stored.TaskGroups[0].Tasks[0].Vault?.Policies).toEqual(['anything']);
  });

  it("gives the node that runs the allocation a token per task, with the job's policies and the allocation in its metadata", async () => {
    const alloc = await runJob(job('tokens', {}));
    expect(alloc.NodeID).toBe(node.node.ID);
    const answer = (await derive(node, alloc.ID, ['web'])).body;
    expect(Object.keys(answer.Tasks)).toEqual(['web']);
    expect(answer.LeaseDurations.web).toBe(72 * 3600);
    const self = (await lookupSelf(answer.Tasks.web)).data;
    expect(self.policies).toEqual(['app-read', 'default']);
    expect(self.meta).toEqual({ AllocationID: alloc.ID, JobID: 'tokens', Namespace: 'default', NodeID: node.node.ID, Task: 'web' });
    expect(self.display_name).toContain('nomad-task-tokens-web');
    expect(self.renewable).toBe(true);
    expect(self.orphan).toBe(true);
    // What the token may do is what its policies say.
    expect(await statusOf(srv.client(answer.Tasks.web).secrets('PUT', 'sys/policies/acl/x', { body: { policy: '' } }))).toMatchObject({ code: 403 });
  });

  it('refuses another node, a task without a vault block, and an unknown task', async () => {
    const alloc = await runJob(job('refusals', {}));
    expect(await statusOf(derive(other, alloc.ID, ['web']))).toMatchObject({ code: 403 });
    expect(await statusOf(derive(node, alloc.ID, ['side']))).toEqual({ code: 403, message: 'task "side" has no vault block: it gets no token' });
    expect(await statusOf(derive(node, alloc.ID, ['nope']))).toMatchObject({ code: 400 });
    expect(await statusOf(srv.client(submitter).scheduler('POST', `/v1/node/${node.node.ID}/derive-token`, { body: { AllocID: alloc.ID, Tasks: ['web'] } }))).toMatchObject({
      code: 403,
    });
  });

  it('revokes the tokens when the node reports the allocation finished, and refuses new ones then', async () => {
    const alloc = await runJob(job('stops', {}));
    const secret = (await derive(node, alloc.ID, ['web'])).body.Tasks.web;
    await report(node, alloc.ID, 'running');
    expect((await lookupSelf(secret)).data.policies).toContain('app-read');
    await srv.client().scheduler('DELETE', '/v1/job/stops');
    await report(node, alloc.ID, 'complete');
    expect(await statusOf(srv.client(secret).secrets('GET', 'auth/token/lookup-self'))).toMatchObject({ code: 403 });
    expect(await statusOf(derive(node, alloc.ID, ['web']))).toMatchObject({ code: 403 });
  });

  it("revokes a task's previous token when it is given a new one", async () => {
    const alloc = await runJob(job('again', {}));
    const first = (await derive(node, alloc.ID, ['web'])).body.Tasks.web;
    const second = (await derive(node, alloc.ID, ['web'])).body.Tasks.web;
    expect(await statusOf(srv.client(first).secrets('GET', 'auth/token/lookup-self'))).toMatchObject({ code: 403 });
    expect((await lookupSelf(second)).data.policies).toContain('app-read');
  });

  it('refuses to revert to a version whose vault policies the token does not hold', async () => {
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job('reverted', {}, ['ops']) } });
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job('reverted', null) } });
    const revert = (t: string) => srv.client(t).scheduler('POST', '/v1/job/reverted/revert', { body: { JobID: 'reverted', JobVersion: 0 } });
    expect(await statusOf(revert(submitter))).toEqual({ code: 403, message: "Vault token doesn't allow access to the following policies: ops" });
    expect((await statusOf(revert(srv.rootToken))).code).toBe(200);
  });

  it("revokes the tokens of an allocation collected in the background at the next node's heartbeat", async () => {
    const alloc = await runJob(job('background', {}));
    const secret = (await derive(node, alloc.ID, ['web'])).body.Tasks.web;
    await srv.client().scheduler('DELETE', '/v1/job/background', { query: { purge: true } });
    await until(
      async () => (await srv.client().scheduler<Alloc & { DesiredStatus: string }>('GET', `/v1/allocation/${alloc.ID}`)).body.DesiredStatus,
      (s) => s === 'stop',
      'the allocation stopped',
    );
    await srv.server.services.scheduler.collectGarbage(true);
    expect((await lookupSelf(secret)).data.policies).toContain('app-read');
    await srv.client(other.secret).scheduler('PUT', `/v1/node/${other.node.ID}/heartbeat`);
    await until(
      () => statusOf(srv.client(secret).secrets('GET', 'auth/token/lookup-self')),
      (s) => s.code === 403,
      'the token to be revoked',
    );
  });

  it('revokes the tokens of an allocation that is collected', async () => {
    const alloc = await runJob(job('collected', {}));
    const secret = (await derive(node, alloc.ID, ['web'])).body.Tasks.web;
    await srv.client().scheduler('DELETE', '/v1/job/collected', { query: { purge: true } });
    // Stopped before its node ever reported it: collected as finished, with nothing to report.
    await until(
      async () => (await srv.client().scheduler<Alloc & { DesiredStatus: string }>('GET', `/v1/allocation/${alloc.ID}`)).body.DesiredStatus,
      (s) => s === 'stop',
      'the allocation stopped',
    );
    await srv.client().scheduler('PUT', '/v1/system/gc');
    expect(await statusOf(srv.client().scheduler('GET', `/v1/allocation/${alloc.ID}`))).toMatchObject({ code: 404 });
    expect(await statusOf(srv.client(secret).secrets('GET', 'auth/token/lookup-self'))).toMatchObject({ code: 403 });
  });
});
