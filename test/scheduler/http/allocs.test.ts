/**
 * Allocations over HTTP, end to end through the real broker, scheduler and plan applier: nodes join
 * through the node API and report task states as a node would; the API's list, read, stop, signal and
 * restart rules are checked against what the scheduler really placed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { ApiClient } from '../../../src/api/http/client.js';
import { statusOf, until } from '../../support/wait.js';

interface Stub {
  ID: string;
  Name: string;
  NodeID: string;
  JobID: string;
  JobType: string;
  TaskGroup: string;
  Namespace: string;
  DesiredStatus: string;
  ClientStatus: string;
  TaskStates: Record<string, { State: string }> | null;
  AllocatedResources?: unknown;
  CreateIndex: number;
  ModifyIndex: number;
}

const mockJob = (id: string, count: number, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }] }],
  ...extra,
});

describe('allocations', () => {
  let srv: TestServer;
  let nodes: FakeNode[];
  const c = () => srv.client();

  /** Registers a job and waits until its evaluation is no longer pending. */
  async function run(job: Record<string, unknown>, namespace?: string): Promise<string> {
    const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job }, query: namespace ? { namespace } : {} });
    await waitEval(reg.body.EvalID);
    return reg.body.EvalID;
  }

  async function waitEval(id: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const e = (await c().scheduler<Record<string, unknown>>('GET', `/v1/evaluation/${id}`)).body;
      if (e.Status !== 'pending') return e;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`evaluation ${id} still pending`);
  }

  const allocsOf = async (job: string, namespace?: string) =>
    (await c().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`, { query: namespace ? { namespace } : {} })).body;

  function nodeClient(n: FakeNode): ApiClient {
    return new ApiClient({ address: srv.url, token: n.secret });
  }

  async function report(n: FakeNode, allocs: Array<{ ID: string; ClientStatus: string; task?: string; state?: string; failed?: boolean }>) {
    await nodeClient(n).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, {
      body: {
        Allocs: allocs.map((a) => ({
          ID: a.ID,
          ClientStatus: a.ClientStatus,
          ClientDescription: '',
          TaskStates: { [a.task ?? 't']: { State: a.state ?? 'running', Failed: a.failed ?? false, Restarts: 0, LastRestart: '0001-01-01T00:00:00Z', StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z', Events: [], Paused: '' } },
        })),
      },
    });
  }

  beforeAll(async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
    nodes = [fakeNode(), fakeNode()];
    for (const n of nodes) await registerFakeNode(c(), n);
    await c().scheduler('PUT', '/v1/namespace/other', { body: { Name: 'other' } });
  });
  afterAll(async () => srv?.close());

  it('places count allocations named <job>.<group>[i] on nodes with the driver', async () => {
    await run(mockJob('web', 3));
    const allocs = await allocsOf('web');
    expect(allocs.map((a) => a.Name).sort()).toEqual(['web.g[0]', 'web.g[1]', 'web.g[2]']);
    expect(allocs.every((a) => nodes.some((n) => n.node.ID === a.NodeID))).toBe(true);
    expect(allocs.every((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'pending' && a.JobType === 'service')).toBe(true);
    const summary = (await c().scheduler<{ Summary: Record<string, { Starting: number }> }>('GET', '/v1/job/web/summary')).body;
    expect(summary.Summary.g.Starting).toBe(3);
  });

  it('lists chronologically, pages with X-Svc-NextToken = <CreateIndex>.<ID> of the next item, and reverses', async () => {
    await run(mockJob('paged', 5));
    const all = (await c().scheduler<Stub[]>('GET', '/v1/allocations')).body;
    const sorted = [...all].sort((a, b) => a.CreateIndex - b.CreateIndex || (a.ID < b.ID ? -1 : 1));
    expect(all.map((a) => a.ID)).toEqual(sorted.map((a) => a.ID));
    const first = await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { per_page: 3 } });
    expect(first.body.map((a) => a.ID)).toEqual(sorted.slice(0, 3).map((a) => a.ID));
    expect(first.nextToken).toBe(`${sorted[3].CreateIndex}.${sorted[3].ID}`);
    const second = await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { per_page: 3, next_token: first.nextToken } });
    expect(second.body[0].ID).toBe(sorted[3].ID);
    const everything: string[] = [...first.body.map((a) => a.ID)];
    let token = first.nextToken;
    while (token) {
      const page = await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { per_page: 3, next_token: token } });
      everything.push(...page.body.map((a) => a.ID));
      token = page.nextToken;
    }
    expect(everything).toEqual(sorted.map((a) => a.ID));
    const reversed = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { reverse: true } })).body;
    expect(reversed.map((a) => a.ID)).toEqual(sorted.map((a) => a.ID).reverse());
    // per_page 0 is the default: no paging, and no next token.
    const unpaged = await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { per_page: 0 } });
    expect(unpaged.body.map((a) => a.ID)).toEqual(sorted.map((a) => a.ID));
    expect(unpaged.nextToken).toBeUndefined();
  });

  it('prefix must be an even number of hex characters; with it the order is by ID', async () => {
    const all = (await c().scheduler<Stub[]>('GET', '/v1/allocations')).body;
    const odd = await statusOf(c().scheduler('GET', '/v1/allocations', { query: { prefix: all[0].ID.slice(0, 3) } }));
    expect(odd.code).toBe(400);
    expect(odd.message).toMatch(/even number/);
    expect((await statusOf(c().scheduler('GET', '/v1/allocations', { query: { prefix: 'zz' } }))).code).toBe(400);
    const hit = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { prefix: all[0].ID.slice(0, 2) } })).body;
    expect(hit.length).toBeGreaterThan(0);
    expect(hit.every((a) => a.ID.startsWith(all[0].ID.slice(0, 2)))).toBe(true);
    // Past the first dash: the prefix is hex digits, the stored IDs have dashes.
    const long = all[0].ID.replace(/-/g, '').slice(0, 10);
    const exact = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { prefix: long } })).body;
    expect(exact.map((a) => a.ID)).toContain(all[0].ID);
    const byId = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { prefix: '' } })).body;
    expect(byId.length).toBe(all.length);
    const twoPages = await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { prefix: all[0].ID.slice(0, 2), per_page: 1 } });
    if (hit.length > 1) expect(twoPages.nextToken).toBe([...hit].sort((a, b) => (a.ID < b.ID ? -1 : 1))[1].ID);
  });

  it('filters, and includes AllocatedResources only with resources=true and TaskStates unless task_states=false', async () => {
    const filtered = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { filter: 'JobID == "paged"' } })).body;
    expect(filtered.length).toBe(5);
    expect(filtered.every((a) => a.JobID === 'paged')).toBe(true);
    const bad = await statusOf(c().scheduler('GET', '/v1/allocations', { query: { filter: 'JobID ==' } }));
    expect(bad.code).toBe(400);
    const plain = (await c().scheduler<Stub[]>('GET', '/v1/allocations')).body[0];
    expect(plain.AllocatedResources).toBeUndefined();
    const withResources = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { resources: true } })).body[0];
    expect(withResources.AllocatedResources).toBeTruthy();
    const web = (await allocsOf('web'))[0];
    await report(nodes.find((n) => n.node.ID === web.NodeID)!, [{ ID: web.ID, ClientStatus: 'running' }]);
    const states = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { filter: `ID == "${web.ID}"` } })).body[0];
    expect(states.TaskStates?.t.State).toBe('running');
    const noStates = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { filter: `ID == "${web.ID}"`, task_states: false } })).body[0];
    expect(noStates.TaskStates).toBeNull();
  });

  it('lists one namespace, or every namespace the token may read with *', async () => {
    await run(mockJob('elsewhere', 1), 'other');
    const dflt = (await c().scheduler<Stub[]>('GET', '/v1/allocations')).body;
    expect(dflt.some((a) => a.Namespace === 'other')).toBe(false);
    const every = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { namespace: '*' } })).body;
    expect(every.some((a) => a.Namespace === 'other')).toBe(true);
    await c().secrets('PUT', 'sys/policies/acl/default-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    const token = String((await c().secrets('POST', 'auth/token/create', { body: { policies: ['default-reader'] } }))?.auth?.client_token);
    const limited = (await srv.client(token).scheduler<Stub[]>('GET', '/v1/allocations', { query: { namespace: '*' } })).body;
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((a) => a.Namespace === 'default')).toBe(true);
    const foreign = (await allocsOf('elsewhere', 'other'))[0];
    expect((await statusOf(srv.client(token).scheduler('GET', `/v1/allocation/${foreign.ID}`))).code).toBe(403);
    expect((await statusOf(srv.client(token).scheduler('GET', '/v1/allocations', { query: { namespace: 'other' } }))).code).toBe(403);
  });

  it('reads one allocation by its full UUID, with its job, zero fields omitted', async () => {
    const stub = (await allocsOf('web'))[0];
    const full = await c().scheduler<Record<string, unknown>>('GET', `/v1/allocation/${stub.ID}`);
    expect(full.body.ID).toBe(stub.ID);
    expect((full.body.Job as { ID: string }).ID).toBe('web');
    expect(full.body).not.toHaveProperty('PreviousAllocation');
    expect(full.body).not.toHaveProperty('JobModifyIndex');
    expect(full.index).toBeGreaterThan(0);
    const short = await statusOf(c().scheduler('GET', `/v1/allocation/${stub.ID.slice(0, 8)}`));
    expect(short.code).toBe(400);
    expect(short.message).toMatch(/full allocation UUID/);
    const missing = await statusOf(c().scheduler('GET', '/v1/allocation/00000000-0000-0000-0000-000000000000'));
    expect(missing).toEqual({ code: 404, message: 'alloc not found' });
  });

  it('a blocking read returns when the allocation changes past the index', async () => {
    const stub = (await allocsOf('web'))[1];
    const before = await c().scheduler<Stub>('GET', `/v1/allocation/${stub.ID}`);
    const started = Date.now();
    const blocked = c().scheduler<Stub>('GET', `/v1/allocation/${stub.ID}`, { query: { index: before.index, wait: '10s' } });
    await new Promise((r) => setTimeout(r, 100));
    await report(nodes.find((n) => n.node.ID === stub.NodeID)!, [{ ID: stub.ID, ClientStatus: 'running' }]);
    const after = await blocked;
    expect(after.body.ClientStatus).toBe('running');
    expect(after.index).toBeGreaterThan(before.index);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a node speaks only for its own allocations, and only with its own secret', async () => {
    const stub = (await allocsOf('web'))[2];
    const other = nodes.find((n) => n.node.ID !== stub.NodeID)!;
    await report(other, [{ ID: stub.ID, ClientStatus: 'failed' }]);
    expect((await c().scheduler<Stub>('GET', `/v1/allocation/${stub.ID}`)).body.ClientStatus).toBe('pending');
    const wrong = await statusOf(new ApiClient({ address: srv.url, token: other.secret }).scheduler('PUT', `/v1/node/${stub.NodeID}/heartbeat`));
    expect(wrong.code).toBe(403);
    const root = await statusOf(c().scheduler('PUT', `/v1/node/${stub.NodeID}/heartbeat`));
    expect(root.code).toBe(403);
    const bad = await statusOf(
      nodeClient(other).scheduler('POST', `/v1/node/${other.node.ID}/client-allocations`, { body: { Allocs: [{ ID: stub.ID, ClientStatus: 'sleeping', ClientDescription: '', TaskStates: {} }] } }),
    );
    expect(bad.code).toBe(400);
    expect(bad.message).toMatch(/Allocs\[0\]\.ClientStatus/);
  });

  it('a failed allocation waits for its reschedule delay, and ForceReschedule replaces it at once', async () => {
    const group = { Name: 'g', Count: 1, ReschedulePolicy: { Delay: 60_000_000_000, Unlimited: true, DelayFunction: 'constant' }, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 100, MemoryMB: 64 } }] };
    await run(mockJob('flaky', 1, { TaskGroups: [group] }));
    const [first] = await allocsOf('flaky');
    await report(nodes.find((n) => n.node.ID === first.NodeID)!, [{ ID: first.ID, ClientStatus: 'failed', state: 'dead', failed: true }]);
    // The failure is evaluated; with a 60s delay the evaluation schedules a follow-up instead of replacing now.
    const failed = await until(
      () => c().scheduler<Record<string, unknown>>('GET', `/v1/allocation/${first.ID}`).then((r) => r.body),
      (a) => typeof a.FollowupEvalID === 'string',
      'a follow-up evaluation on the failed allocation',
    );
    const followup = (await c().scheduler<Record<string, unknown>>('GET', `/v1/evaluation/${failed.FollowupEvalID as string}`)).body;
    expect(followup).toMatchObject({ Status: 'pending', JobID: 'flaky' });
    expect(Date.parse(followup.WaitUntil as string)).toBeGreaterThan(Date.now() + 30_000);
    expect((await allocsOf('flaky')).length).toBe(1);
    const evals = (await c().scheduler<Array<{ TriggeredBy: string }>>('GET', '/v1/job/flaky/evaluations')).body;
    expect(evals.some((e) => e.TriggeredBy === 'alloc-failure')).toBe(true);

    const forced = await c().scheduler<{ EvalID: string }>('POST', '/v1/job/flaky/evaluate', { body: { JobID: 'flaky', EvalOptions: { ForceReschedule: true } } });
    await waitEval(forced.body.EvalID);
    const allocs = await allocsOf('flaky');
    const replacement = allocs.find((a) => a.ID !== first.ID)!;
    expect(replacement).toBeTruthy();
    const full = (await c().scheduler<Record<string, unknown>>('GET', `/v1/allocation/${replacement.ID}`)).body;
    expect(full.PreviousAllocation).toBe(first.ID);
    expect((await c().scheduler<Record<string, unknown>>('GET', `/v1/allocation/${first.ID}`)).body.NextAllocation).toBe(replacement.ID);
    const badOptions = await statusOf(c().scheduler('POST', '/v1/job/flaky/evaluate', { body: { JobID: 'flaky', EvalOptions: { ForceReschedule: 'yes' } } }));
    expect(badOptions.code).toBe(400);
    expect(badOptions.message).toMatch(/ForceReschedule/);
  });

  it('stop marks the allocation to stop and a replacement keeps the count', async () => {
    const [victim] = await allocsOf('paged');
    const stop = await c().scheduler<{ EvalID: string; Index: number }>('POST', `/v1/allocation/${victim.ID}/stop`);
    expect(stop.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    await waitEval(stop.body.EvalID);
    const allocs = await allocsOf('paged');
    expect(allocs.find((a) => a.ID === victim.ID)?.DesiredStatus).toBe('stop');
    expect(allocs.filter((a) => a.DesiredStatus === 'run').length).toBe(5);
    const unknown = await statusOf(c().scheduler('POST', '/v1/allocation/00000000-0000-0000-0000-000000000000/stop'));
    expect(unknown.code).toBe(404);
  });

  it('restart refuses TaskName with AllTasks, unknown tasks and nodes it cannot reach; signal needs a body', async () => {
    const [a] = await allocsOf('web');
    const both = await statusOf(c().scheduler('POST', `/v1/client/allocation/${a.ID}/restart`, { body: { TaskName: 't', AllTasks: true } }));
    expect(both.code).toBe(400);
    expect(both.message).toMatch(/TaskName and AllTasks/);
    const unknownTask = await statusOf(c().scheduler('POST', `/v1/client/allocation/${a.ID}/restart`, { body: { TaskName: 'nope' } }));
    expect(unknownTask.code).toBe(400);
    expect(unknownTask.message).toMatch(/TaskName.*nope/);
    const unreachable = await statusOf(c().scheduler('POST', `/v1/client/allocation/${a.ID}/restart`, { body: {} }));
    expect(unreachable.code).toBe(400);
    expect(unreachable.message).toMatch(/is not connected to any server/);
    const noBody = await statusOf(c().scheduler('POST', `/v1/client/allocation/${a.ID}/signal`));
    expect(noBody.code).toBe(400);
    const badSignal = await statusOf(c().scheduler('POST', `/v1/client/allocation/${a.ID}/signal`, { body: { Signal: 'HUP!' } }));
    expect(badSignal.code).toBe(400);
  });

  it('signal and restart need alloc-lifecycle in the allocation\'s namespace, by POST or PUT', async () => {
    const [a] = await allocsOf('web');
    const tokenWith = async (name: string, policy: string) => {
      await c().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy } });
      return srv.client(String((await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))?.auth?.client_token));
    };
    const reader = await tokenWith('lifecycle-reader', 'namespace "default" { policy = "read" }');
    const elsewhere = await tokenWith('lifecycle-elsewhere', 'namespace "other" { capabilities = ["alloc-lifecycle"] }');
    const lifecycle = await tokenWith('lifecycle-default', 'namespace "default" { capabilities = ["alloc-lifecycle"] }');
    for (const method of ['POST', 'PUT']) {
      const signal = (client: ApiClient) => statusOf(client.scheduler(method, `/v1/client/allocation/${a.ID}/signal`, { body: { Signal: 'SIGHUP' } }));
      const restart = (client: ApiClient) => statusOf(client.scheduler(method, `/v1/client/allocation/${a.ID}/restart`, { body: {} }));
      for (const refused of [srv.client(''), reader, elsewhere]) {
        expect((await signal(refused)).code).toBe(403);
        expect((await restart(refused)).code).toBe(403);
      }
      // Allowed: the request gets as far as the node, which these fake nodes do not serve.
      expect(await signal(lifecycle)).toEqual({ code: 400, message: expect.stringContaining(a.NodeID) });
      expect(await restart(lifecycle)).toEqual({ code: 400, message: expect.stringContaining(a.NodeID) });
    }
  });

  it('job status follows its allocations: running while any is live, dead once all stopped', async () => {
    await run(mockJob('life', 1));
    expect((await c().scheduler<{ Status: string }>('GET', '/v1/job/life')).body.Status).toBe('running');
    const stop = await c().scheduler<{ EvalID: string }>('DELETE', '/v1/job/life');
    await waitEval(stop.body.EvalID);
    const job = (await c().scheduler<{ Status: string; Stop: boolean }>('GET', '/v1/job/life')).body;
    expect(job).toMatchObject({ Status: 'dead', Stop: true });
    expect((await allocsOf('life')).every((a) => a.DesiredStatus === 'stop')).toBe(true);
  });

  it('a plan too big for one transaction is written in chunks under one deployment', async () => {
    const count = 4500;
    // Room for them all, in a datacenter of their own.
    for (let i = 0; i < 2; i++) {
      const big = fakeNode({ Datacenter: 'dc-big' });
      big.node.NodeResources = { ...big.node.NodeResources, Cpu: { ...big.node.NodeResources.Cpu, CpuShares: 100_000 }, Memory: { MemoryMB: 100_000 }, Disk: { DiskMB: 10_000_000 } };
      await registerFakeNode(c(), big);
    }
    const job = mockJob('huge', count, {
      Datacenters: ['dc-big'],
      TaskGroups: [{ Name: 'g', Count: count, Update: { MaxParallel: 1 }, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }],
    });
    const evaluation = await waitEval(await run(job));
    expect(evaluation.Status).toBe('complete');
    const deployments = (await c().scheduler<Array<{ ID: string; TaskGroups: Record<string, { PlacedAllocs: number; DesiredTotal: number }> }>>('GET', '/v1/job/huge/deployments')).body;
    expect(deployments.length).toBe(1);
    expect(deployments[0].TaskGroups.g).toMatchObject({ PlacedAllocs: count, DesiredTotal: count });
    const placed = (await c().scheduler<Array<{ ID: string }>>('GET', `/v1/deployment/allocations/${deployments[0].ID}`)).body;
    expect(placed.length).toBe(count);
    const summary = (await c().scheduler<{ Summary: Record<string, { Starting: number }> }>('GET', '/v1/job/huge/summary')).body;
    expect(summary.Summary.g.Starting).toBe(count);
    await c().scheduler('DELETE', '/v1/job/huge', { query: { purge: true } });
  });

  it('an unknown job has no allocations and no summary', async () => {
    expect((await c().scheduler<Stub[]>('GET', '/v1/job/ghost/allocations')).body).toEqual([]);
    expect((await statusOf(c().scheduler('GET', '/v1/job/ghost/summary'))).code).toBe(404);
  });

  it("a job registered again after a purge lists its own allocations and deployments; all=true adds its predecessor's", async () => {
    type Deployment = { ID: string; JobCreateIndex: number };
    const deploymentsOf = async (query: Record<string, boolean> = {}) => (await c().scheduler<Deployment[]>('GET', '/v1/job/again/deployments', { query })).body;
    await run(mockJob('again', 1));
    const [old] = await allocsOf('again');
    const [oldDeployment] = await deploymentsOf();
    await waitEval((await c().scheduler<{ EvalID: string }>('DELETE', '/v1/job/again', { query: { purge: true } })).body.EvalID);
    await run(mockJob('again', 1));
    const current = await allocsOf('again');
    expect(current).toHaveLength(1);
    expect(current[0].ID).not.toBe(old.ID);
    const all = (await c().scheduler<Stub[]>('GET', '/v1/job/again/allocations', { query: { all: true } })).body;
    expect(all.map((a) => a.ID).sort()).toEqual([old.ID, current[0].ID].sort());

    const [latest] = await deploymentsOf();
    expect((await deploymentsOf()).map((d) => d.ID)).toEqual([latest.ID]);
    expect(latest.ID).not.toBe(oldDeployment.ID);
    expect((await deploymentsOf({ all: true })).map((d) => d.ID).sort()).toEqual([oldDeployment.ID, latest.ID].sort());
    expect((await c().scheduler<Deployment>('GET', '/v1/job/again/deployment')).body.ID).toBe(latest.ID);
  });

  it('reads of a job and of allocations block until a write moves them past the index given', async () => {
    await run(mockJob('watched', 1));
    const paths = [
      '/v1/allocations',
      '/v1/job/watched',
      '/v1/job/watched/versions',
      '/v1/job/watched/allocations',
      '/v1/job/watched/evaluations',
      '/v1/job/watched/deployments',
      '/v1/job/watched/deployment',
      '/v1/job/watched/summary',
      '/v1/job/watched/scale',
    ];
    const before = await Promise.all(paths.map((p) => c().scheduler('GET', p)));
    const blocked = paths.map((p, i) => c().scheduler('GET', p, { query: { index: before[i].index, wait: '30s' } }));
    // Without blocking, each answer would come back now, at the index it was asked past.
    await new Promise((r) => setTimeout(r, 200));
    await run(mockJob('watched', 2));
    const after = await Promise.all(blocked);
    expect(paths.filter((_, i) => !(after[i].index > before[i].index))).toEqual([]);
  });

  it('with a prefix, allocations come in ID order (reversed with reverse), whatever order they were created in', async () => {
    // Two jobs of many small allocations, placed in two plans: each two-digit prefix holds several from both.
    const small = (id: string) => mockJob(id, 60, { TaskGroups: [{ Name: 'g', Count: 60, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 } }] }] });
    await run(small('early'));
    await run(small('late'));
    const mine = [...(await allocsOf('early')), ...(await allocsOf('late'))];
    const prefixes = [...new Set(mine.map((a) => a.ID.slice(0, 2)))].filter((p) => mine.filter((a) => a.ID.startsWith(p)).length > 1);
    expect(prefixes.length).toBeGreaterThan(0);
    for (const prefix of prefixes) {
      const ids = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { prefix } })).body.map((a) => a.ID);
      expect(ids, prefix).toEqual([...ids].sort());
      expect(ids, prefix).toEqual(expect.arrayContaining(mine.filter((a) => a.ID.startsWith(prefix)).map((a) => a.ID)));
      const reversed = (await c().scheduler<Stub[]>('GET', '/v1/allocations', { query: { prefix, reverse: true } })).body.map((a) => a.ID);
      expect(reversed, prefix).toEqual([...ids].reverse());
    }
  });
});
