/**
 * POST /v1/allocation/:id/stop as Nomad's Allocation.Stop: the allocation is marked for migration and
 * one `alloc-stop` evaluation is created; its scheduler stops the allocation ("alloc is being migrated")
 * and places a replacement linked both ways, for service and unfinished batch allocations. A system
 * job's allocation is stopped and not replaced. Through the real broker, schedulers and plan applier,
 * with nodes that report as a node would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { ApiClient } from '../../../src/api/http/client.js';
import { statusOf } from '../../support/wait.js';

interface Alloc {
  ID: string;
  Name: string;
  NodeID: string;
  DesiredStatus: string;
  DesiredDescription: string;
  ClientStatus: string;
  PreviousAllocation: string;
  NextAllocation: string;
  DesiredTransition: { Migrate: boolean | null; NoShutdownDelay: boolean | null };
}

interface Evaluation {
  ID: string;
  Status: string;
  TriggeredBy: string;
}

const job = (id: string, type: string, count: number) => ({
  ID: id,
  Type: type,
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }] }],
});

describe('allocation stop', () => {
  let srv: TestServer;
  let nodes: FakeNode[];
  const c = () => srv.client();

  async function waitEval(id: string): Promise<Evaluation> {
    for (let i = 0; i < 200; i++) {
      const e = (await c().scheduler<Evaluation>('GET', `/v1/evaluation/${id}`)).body;
      if (e.Status !== 'pending') return e;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`evaluation ${id} still pending`);
  }

  async function run(spec: Record<string, unknown>): Promise<void> {
    const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: spec } });
    await waitEval(reg.body.EvalID);
  }

  const alloc = async (id: string) => (await c().scheduler<Alloc>('GET', `/v1/allocation/${id}`)).body;
  const allocsOf = async (jobId: string) => (await c().scheduler<Alloc[]>('GET', `/v1/job/${jobId}/allocations`)).body;
  const evalsOf = async (jobId: string) => (await c().scheduler<Evaluation[]>('GET', `/v1/job/${jobId}/evaluations`)).body;

  async function stop(id: string, query: Record<string, boolean> = {}): Promise<{ EvalID: string; Index: number }> {
    return (await c().scheduler<{ EvalID: string; Index: number }>('POST', `/v1/allocation/${id}/stop`, { query })).body;
  }

  /** Reports the allocations as running, as their node would. */
  async function reportRunning(allocs: Alloc[]): Promise<void> {
    for (const n of nodes) {
      const mine = allocs.filter((a) => a.NodeID === n.node.ID);
      if (mine.length === 0) continue;
      await new ApiClient({ address: srv.url, token: n.secret }).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, {
        body: {
          Allocs: mine.map((a) => ({
            ID: a.ID,
            ClientStatus: 'running',
            ClientDescription: '',
            TaskStates: { t: { State: 'running', Failed: false, Restarts: 0, LastRestart: '0001-01-01T00:00:00Z', StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z', Events: [], Paused: '' } },
          })),
        },
      });
    }
  }

  beforeAll(async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
    nodes = [fakeNode(), fakeNode()];
    for (const n of nodes) await registerFakeNode(c(), n);
  });
  afterAll(async () => srv?.close());

  it('migrates a service allocation: one alloc-stop evaluation, the old one stopped and linked to its replacement', async () => {
    await run(job('web', 'service', 2));
    const before = await allocsOf('web');
    await reportRunning(before);
    const victim = before[0];

    const answer = await stop(victim.ID);
    expect(answer.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.Index).toBeGreaterThan(0);
    expect(await waitEval(answer.EvalID)).toMatchObject({ Status: 'complete', TriggeredBy: 'alloc-stop' });
    expect((await evalsOf('web')).filter((e) => e.TriggeredBy === 'alloc-stop').map((e) => e.ID)).toEqual([answer.EvalID]);

    const old = await alloc(victim.ID);
    expect(old).toMatchObject({ DesiredStatus: 'stop', DesiredDescription: 'alloc is being migrated' });
    expect(old.DesiredTransition.Migrate).toBe(true);
    expect(old.NextAllocation).not.toBe('');
    const replacement = await alloc(old.NextAllocation);
    expect(replacement).toMatchObject({ Name: victim.Name, DesiredStatus: 'run', PreviousAllocation: victim.ID });

    const after = await allocsOf('web');
    expect(after.filter((a) => a.DesiredStatus === 'run').map((a) => a.Name).sort()).toEqual(['web.g[0]', 'web.g[1]']);
    expect(after).toHaveLength(3);
  });

  it('records -no-shutdown-delay with the migration mark', async () => {
    await run(job('quick', 'service', 1));
    const [victim] = await allocsOf('quick');
    await waitEval((await stop(victim.ID, { no_shutdown_delay: true })).EvalID);
    expect((await alloc(victim.ID)).DesiredTransition).toMatchObject({ Migrate: true, NoShutdownDelay: true });
  });

  it('takes PUT as well as POST', async () => {
    await run(job('put', 'service', 1));
    const [victim] = await allocsOf('put');
    const answer = (await c().scheduler<{ EvalID: string }>('PUT', `/v1/allocation/${victim.ID}/stop`)).body;
    expect(await waitEval(answer.EvalID)).toMatchObject({ Status: 'complete', TriggeredBy: 'alloc-stop' });
    expect(await alloc(victim.ID)).toMatchObject({ DesiredStatus: 'stop' });
  });

  it('replaces an unfinished batch allocation', async () => {
    await run(job('crunch', 'batch', 1));
    const [victim] = await allocsOf('crunch');
    await reportRunning([victim]);
    await waitEval((await stop(victim.ID)).EvalID);
    const old = await alloc(victim.ID);
    expect(old).toMatchObject({ DesiredStatus: 'stop', DesiredDescription: 'alloc is being migrated' });
    expect(await alloc(old.NextAllocation)).toMatchObject({ Name: victim.Name, DesiredStatus: 'run', PreviousAllocation: victim.ID });
  });

  it("evaluates a purged job's allocation from the job version it runs", async () => {
    await run(job('gone', 'service', 1));
    const [victim] = await allocsOf('gone');
    await waitEval((await c().scheduler<{ EvalID: string }>('DELETE', '/v1/job/gone', { query: { purge: true } })).body.EvalID);
    const answer = await stop(victim.ID);
    expect(await waitEval(answer.EvalID)).toMatchObject({ Status: 'complete', TriggeredBy: 'alloc-stop' });
    expect(await alloc(victim.ID)).toMatchObject({ DesiredStatus: 'stop' });
  });

  it('stops a system job allocation without replacing it', async () => {
    await run(job('everywhere', 'system', 1));
    const before = await allocsOf('everywhere');
    expect(before).toHaveLength(2);
    await reportRunning(before);
    const victim = before[0];

    const evaluation = await waitEval((await stop(victim.ID)).EvalID);
    expect(evaluation).toMatchObject({ Status: 'complete', TriggeredBy: 'alloc-stop' });
    const old = await alloc(victim.ID);
    expect(old).toMatchObject({ DesiredStatus: 'stop', DesiredDescription: 'alloc not needed as node is tainted' });
    // The full allocation leaves out empty fields, as Nomad's omitempty encoding does.
    expect(old.NextAllocation).toBeUndefined();
    const after = await allocsOf('everywhere');
    expect(after).toHaveLength(2);
    expect(after.find((a) => a.ID !== victim.ID)).toMatchObject({ DesiredStatus: 'run' });
  });

  it("needs alloc-lifecycle in the allocation's namespace", async () => {
    await run(job('guarded', 'service', 1));
    const [target] = await allocsOf('guarded');
    await c().secrets('PUT', 'sys/policies/acl/stop-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    await c().secrets('PUT', 'sys/policies/acl/stop-lifecycle', { body: { policy: 'namespace "default" { capabilities = ["alloc-lifecycle"] }' } });
    const token = async (policy: string) => String((await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } }))?.auth?.client_token);
    const stopAs = (client: ApiClient) => statusOf(client.scheduler('POST', `/v1/allocation/${target.ID}/stop`));

    expect((await stopAs(srv.client(''))).code).toBe(403);
    expect((await stopAs(srv.client(await token('stop-reader')))).code).toBe(403);
    expect(await alloc(target.ID)).toMatchObject({ DesiredStatus: 'run' });
    expect((await stopAs(srv.client(await token('stop-lifecycle')))).code).toBe(200);
  });
});
