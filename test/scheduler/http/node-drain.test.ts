/**
 * Node drain through the API (PUT /v1/node/:node_id/drain) and the drainer behind it, against a real
 * server: every field and refusal, the node's transitions (start, update, cancel with and without
 * MarkEligible, completion), eligibility refused while draining, migrations limited by max_parallel over
 * every draining node, batch allocations left to finish, the deadline, a forced drain, system
 * allocations stopped last (or left with IgnoreSystemJobs), a replacement judged healthy by a real node,
 * and a drain carried on by a restarted server.
 *
 * Simulated nodes (test/support/sim-node.ts) stand in for machines; each test keeps its nodes in a
 * datacenter of its own so tests do not place on each other's nodes. The server's own node (dc1) runs
 * the mock driver for the test that needs a real node.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/http/client.js';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { SimNode } from '../../support/sim-node.js';
import { statusOf, until } from '../../support/wait.js';

interface NodeView {
  ID: string;
  SchedulingEligibility: string;
  DrainStrategy: { Deadline: number; IgnoreSystemJobs: boolean; ForceDeadline: string; StartedAt: string } | null;
  LastDrain: { StartedAt: string; UpdatedAt: string; Status: string; AccessorID: string; Meta: Record<string, string> | null } | null;
  Events: Array<{ Message: string; Subsystem: string; Details: Record<string, string> | null }>;
  ModifyIndex: number;
}

interface Stub {
  ID: string;
  NodeID: string;
  JobID: string;
  DesiredStatus: string;
  DesiredDescription: string;
  ClientStatus: string;
  NextAllocation: string;
  DesiredTransition: { Migrate: boolean | null };
  DeploymentStatus: { Healthy: boolean | null } | null;
}

interface DrainAnswer {
  EvalIDs: string[] | null;
  EvalCreateIndex: number;
  NodeModifyIndex: number;
  Index: number;
}

const HOUR = 3600e9;
const ZERO_TIME = '0001-01-01T00:00:00Z';

let srv: TestServer;
const sims: SimNode[] = [];
const c = () => srv.client();

beforeAll(async () => {
  // Heartbeats would only mark the simulated nodes down: one hour is longer than the file runs.
  srv = await startTestServer({ client: { enableMockDriver: true, stopTasksOnShutdown: true }, heartbeatTtlMs: 3_600_000 });
});

afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  await srv?.close();
});

async function simNode(server: TestServer, datacenter: string, opts: { healthy?: boolean } = {}): Promise<SimNode> {
  const fake = fakeNode({ Datacenter: datacenter });
  await registerFakeNode(server.client(), fake);
  const sim = new SimNode(server.url, fake, opts).start();
  sims.push(sim);
  return sim;
}

const nodeOf = async (id: string, server = srv) => (await server.client().scheduler<NodeView>('GET', `/v1/node/${id}`)).body;
const drain = (id: string, body: unknown, token?: string, server = srv) => server.client(token).scheduler<DrainAnswer>('PUT', `/v1/node/${id}/drain`, { body });
const allocsOf = async (job: string, server = srv) => (await server.client().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`)).body;
const marked = (list: Stub[]) => list.filter((a) => a.DesiredTransition?.Migrate === true);
const drained = (id: string, server = srv) => until(() => nodeOf(id, server), (n) => n.LastDrain?.Status === 'complete', `the drain of ${id} to complete`, 60_000);

function job(id: string, datacenter: string, extra: Record<string, unknown> = {}, group: Record<string, unknown> = {}) {
  return {
    ID: id,
    Datacenters: [datacenter],
    ...extra,
    TaskGroups: [{ Name: 'g', Count: 1, ...group, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '0s' }, Resources: { CPU: 20, MemoryMB: 16 } }] }],
  };
}

async function run(spec: Record<string, unknown>, server = srv): Promise<void> {
  await server.client().scheduler('POST', '/v1/jobs', { body: { Job: spec } });
}

/** Waits until the job has `count` allocations that run, and answers them. */
const running = (jobId: string, count: number, server = srv) =>
  until(() => allocsOf(jobId, server), (l) => l.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running').length === count, `${count} running allocations of ${jobId}`);

/** Reports, as the node, the client status of some of its allocations. */
async function report(fake: FakeNode, status: string, ...ids: string[]): Promise<void> {
  const node = new ApiClient({ address: srv.url, token: fake.secret });
  await node.scheduler('POST', `/v1/node/${fake.node.ID}/client-allocations`, {
    body: { Allocs: ids.map((ID) => ({ ID, ClientStatus: status, ClientDescription: '', TaskStates: {} })) },
  });
}

async function tokenWith(policy: string, rules: string): Promise<{ secret: string; accessor: string }> {
  await c().secrets('PUT', `sys/policies/acl/${policy}`, { body: { policy: rules } });
  const auth = (await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } }))!.auth!;
  return { secret: String(auth.client_token), accessor: String(auth.accessor) };
}

describe('PUT /v1/node/:node_id/drain', () => {
  it('checks every field, and the node and token, before changing anything', async () => {
    const sim = await simNode(srv, 'dc-valid');
    const before = await nodeOf(sim.id);
    const reader = await tokenWith('drain-node-read', 'node { policy = "read" }');
    expect(await statusOf(drain('00000000-0000-0000-0000-000000000000', { DrainSpec: null }))).toEqual({ code: 404, message: 'node not found' });
    expect(await statusOf(drain(sim.id, { DrainSpec: { Deadline: HOUR } }, reader.secret))).toEqual({ code: 403, message: 'Permission denied' });
    const refused: Array<[unknown, RegExp]> = [
      [undefined, /body/],
      [[], /body/],
      [{ Drain: true }, /unknown field "Drain"/],
      [{ DrainSpec: 5 }, /"DrainSpec"/],
      [{ DrainSpec: { Deadline: '1h' } }, /"DrainSpec\.Deadline"/],
      [{ DrainSpec: { Deadline: 1.5 } }, /"DrainSpec\.Deadline"/],
      [{ DrainSpec: { IgnoreSystemJobs: 'yes' } }, /"DrainSpec\.IgnoreSystemJobs"/],
      [{ DrainSpec: { Deadline: HOUR, Force: true } }, /unknown field "DrainSpec\.Force"/],
      [{ DrainSpec: null, MarkEligible: 'true' }, /"MarkEligible"/],
      [{ DrainSpec: null, Meta: ['a'] }, /"Meta"/],
      [{ DrainSpec: null, Meta: { a: 1 } }, /"Meta"/],
      [{ NodeID: 7, DrainSpec: null }, /"NodeID"/],
      [{ NodeID: fakeNode().node.ID, DrainSpec: { Deadline: HOUR } }, /"NodeID"/],
    ];
    for (const [body, message] of refused) {
      const r = await statusOf(drain(sim.id, body));
      expect(r.code, JSON.stringify(body)).toBe(400);
      expect(r.message).toMatch(message);
    }
    const after = await nodeOf(sim.id);
    expect(after).toMatchObject({ DrainStrategy: null, LastDrain: null, SchedulingEligibility: 'eligible', ModifyIndex: before.ModifyIndex });
  });

  it('starts, updates and cancels a drain; a draining node cannot be made eligible; reads and blocking queries see it', async () => {
    const sim = await simNode(srv, 'dc-start');
    // A batch allocation keeps the node draining: it may finish until the deadline.
    await run(job('start-batch', 'dc-start', { Type: 'batch' }));
    const [alloc] = await running('start-batch', 1);
    const writer = await tokenWith('drain-node-write', 'node { policy = "write" }');
    const before = await nodeOf(sim.id);
    const woken = c().scheduler<NodeView>('GET', `/v1/node/${sim.id}`, { query: { index: before.ModifyIndex } });

    const started = await drain(sim.id, { NodeID: sim.id, DrainSpec: { Deadline: HOUR, IgnoreSystemJobs: true }, Meta: { message: 'new disks' } }, writer.secret);
    expect(started.body).toEqual({ EvalIDs: null, EvalCreateIndex: 0, NodeModifyIndex: started.body.Index, Index: started.body.Index });
    const seen = await woken;
    expect(seen.index).toBe(started.body.Index);
    expect(seen.body.DrainStrategy).not.toBeNull();

    const node = await nodeOf(sim.id);
    expect(node.SchedulingEligibility).toBe('ineligible');
    expect(node.DrainStrategy).toMatchObject({ Deadline: HOUR, IgnoreSystemJobs: true });
    expect(Date.parse(node.DrainStrategy!.ForceDeadline) - Date.parse(node.DrainStrategy!.StartedAt)).toBe(3_600_000);
    expect(node.LastDrain).toMatchObject({ Status: 'draining', AccessorID: writer.accessor, Meta: { message: 'new disks' } });
    expect(node.LastDrain!.StartedAt).toBe(node.LastDrain!.UpdatedAt);
    expect(node.Events.at(-1)).toMatchObject({ Message: 'Node drain strategy set', Subsystem: 'Drain' });
    const stub = (await c().scheduler<Array<{ ID: string; Drain: boolean; LastDrain: { Status: string } | null }>>('GET', '/v1/nodes')).body.find((n) => n.ID === sim.id);
    expect(stub).toMatchObject({ Drain: true, LastDrain: { Status: 'draining' } });

    const eligible = await statusOf(c().scheduler('PUT', `/v1/node/${sim.id}/eligibility`, { body: { Eligibility: 'eligible' } }));
    expect(eligible).toEqual({ code: 400, message: "can not set node's scheduling eligibility to eligible while it is draining" });
    expect((await statusOf(c().scheduler('PUT', `/v1/node/${sim.id}/eligibility`, { body: { Eligibility: 'ineligible' } }))).code).toBe(200);

    await drain(sim.id, { DrainSpec: { Deadline: 2 * HOUR } });
    const updated = await nodeOf(sim.id);
    expect(updated.DrainStrategy).toMatchObject({ Deadline: 2 * HOUR, IgnoreSystemJobs: false, StartedAt: node.DrainStrategy!.StartedAt });
    expect(updated.Events.at(-1)!.Message).toBe('Node drain strategy updated');
    expect(updated.LastDrain).toMatchObject({ Status: 'draining', StartedAt: node.LastDrain!.StartedAt, Meta: { message: 'new disks' } });

    const cancelled = await drain(sim.id, { DrainSpec: null, MarkEligible: false });
    expect(cancelled.body.EvalIDs).toBeNull();
    const after = await nodeOf(sim.id);
    expect(after).toMatchObject({ DrainStrategy: null, SchedulingEligibility: 'ineligible', LastDrain: { Status: 'canceled', Meta: { message: 'new disks' } } });
    expect(after.Events.at(-1)!.Message).toBe('Node drain disabled');
    const stubAfter = (await c().scheduler<Array<{ ID: string; Drain: boolean }>>('GET', '/v1/nodes')).body.find((n) => n.ID === sim.id);
    expect(stubAfter!.Drain).toBe(false);
    // Cancelled before its deadline: the batch allocation was left alone.
    const [still] = await allocsOf('start-batch');
    expect(still).toMatchObject({ ID: alloc.ID, DesiredStatus: 'run', ClientStatus: 'running' });
    expect(still.DesiredTransition.Migrate).not.toBe(true);
  });

  it('cancelling with MarkEligible makes the node eligible and evaluates its jobs', async () => {
    const sim = await simNode(srv, 'dc-cancel');
    await run(job('cancel-batch', 'dc-cancel', { Type: 'batch' }));
    await running('cancel-batch', 1);
    await drain(sim.id, { DrainSpec: { Deadline: 0 } });
    // No deadline: Go's zero time.
    expect((await nodeOf(sim.id)).DrainStrategy).toMatchObject({ Deadline: 0, ForceDeadline: ZERO_TIME });
    const r = await drain(sim.id, { DrainSpec: null, MarkEligible: true, Meta: { cancel_message: 'not today' } });
    expect(r.body.EvalCreateIndex).toBe(r.body.Index);
    const evals = await Promise.all(r.body.EvalIDs!.map(async (id) => (await c().scheduler<{ JobID: string; TriggeredBy: string; NodeID: string }>('GET', `/v1/evaluation/${id}`)).body));
    expect(evals).toContainEqual(expect.objectContaining({ JobID: 'cancel-batch', TriggeredBy: 'node-update', NodeID: sim.id }));
    expect(await nodeOf(sim.id)).toMatchObject({ SchedulingEligibility: 'eligible', DrainStrategy: null, LastDrain: { Status: 'canceled', Meta: { cancel_message: 'not today' } } });
  });

  it('a node that registers again (a restart) keeps its drain and its eligibility', async () => {
    const sim = await simNode(srv, 'dc-rereg');
    await run(job('rereg-batch', 'dc-rereg', { Type: 'batch' }));
    await running('rereg-batch', 1);
    await drain(sim.id, { DrainSpec: { Deadline: 0 }, Meta: { ticket: '42' } });
    await registerFakeNode(c(), sim.fake);
    expect(await nodeOf(sim.id)).toMatchObject({ SchedulingEligibility: 'ineligible', DrainStrategy: { Deadline: 0 }, LastDrain: { Status: 'draining', Meta: { ticket: '42' } } });
    await drain(sim.id, { DrainSpec: null, MarkEligible: false });
    await registerFakeNode(c(), sim.fake);
    expect(await nodeOf(sim.id)).toMatchObject({ SchedulingEligibility: 'ineligible', DrainStrategy: null, LastDrain: { Status: 'canceled' } });
  });

  it('a node with nothing on it completes its drain at once and stays ineligible', async () => {
    const sim = await simNode(srv, 'dc-empty');
    await drain(sim.id, { DrainSpec: { Deadline: HOUR } });
    const done = await drained(sim.id);
    expect(done).toMatchObject({ DrainStrategy: null, SchedulingEligibility: 'ineligible' });
    expect(done.Events.at(-1)).toMatchObject({ Message: 'Node drain complete', Subsystem: 'Drain', Details: null });
  });
});

describe('the drainer', () => {
  it('migrates at most migrate.max_parallel allocations of a group at a time, counted over every draining node', async () => {
    const a = await simNode(srv, 'dc-mp');
    const b = await simNode(srv, 'dc-mp');
    await run(job('mp', 'dc-mp', {}, { Count: 4, Migrate: { MaxParallel: 2 } }));
    const placed = await running('mp', 4);
    expect(new Set(placed.map((x) => x.NodeID))).toEqual(new Set([a.id, b.id]));
    const targets = [await simNode(srv, 'dc-mp'), await simNode(srv, 'dc-mp')];
    await Promise.all([drain(a.id, { DrainSpec: { Deadline: 0 } }), drain(b.id, { DrainSpec: { Deadline: 0 } })]);

    const first = marked(await until(() => allocsOf('mp'), (l) => marked(l).length >= 2, 'the first migrations'));
    expect(first).toHaveLength(2);
    // Each marked allocation is stopped and replaced on a node that is not draining.
    const replaced = await until(
      () => allocsOf('mp'),
      (l) => first.every((m) => {
        const old = l.find((x) => x.ID === m.ID)!;
        const next = l.find((x) => x.ID === old.NextAllocation);
        return old.ClientStatus === 'complete' && next?.ClientStatus === 'running';
      }),
      'the first replacements running',
    );
    expect(marked(replaced)).toHaveLength(2);
    const replacements = first.map((m) => replaced.find((x) => x.ID === replaced.find((o) => o.ID === m.ID)!.NextAllocation)!);
    expect(replacements.every((r) => targets.some((t) => t.id === r.NodeID))).toBe(true);
    expect(replaced.filter((x) => first.some((m) => m.ID === x.ID)).every((x) => x.DesiredDescription === 'alloc is being migrated')).toBe(true);

    // One replacement healthy: one more may go.
    await targets.find((t) => t.id === replacements[0].NodeID)!.reportHealthy(replacements[0].ID);
    const third = await until(() => allocsOf('mp'), (l) => marked(l).length >= 3, 'a third migration');
    expect(marked(third)).toHaveLength(3);

    // Every replacement healthy, as they come: the drains complete.
    const healthy = new Set([replacements[0].ID]);
    await until(
      async () => {
        const list = await allocsOf('mp');
        for (const x of list) {
          const sim = targets.find((t) => t.id === x.NodeID);
          if (sim && x.ClientStatus === 'running' && !healthy.has(x.ID)) {
            healthy.add(x.ID);
            await sim.reportHealthy(x.ID);
          }
        }
        return Promise.all([nodeOf(a.id), nodeOf(b.id)]);
      },
      (nodes) => nodes.every((n) => n.LastDrain?.Status === 'complete'),
      'both drains to complete',
      60_000,
    );
    const live = (await allocsOf('mp')).filter((x) => x.DesiredStatus === 'run');
    expect(live).toHaveLength(4);
    expect(live.every((x) => targets.some((t) => t.id === x.NodeID))).toBe(true);
    const evals = (await c().scheduler<Array<{ TriggeredBy: string }>>('GET', '/v1/job/mp/evaluations')).body;
    expect(evals.some((e) => e.TriggeredBy === 'node-drain')).toBe(true);
  });

  it('leaves batch allocations to finish, and completes the drain once they have', async () => {
    const sim = await simNode(srv, 'dc-batch');
    await run(job('batch-finish', 'dc-batch', { Type: 'batch' }));
    const [alloc] = await running('batch-finish', 1);
    await drain(sim.id, { DrainSpec: { Deadline: 0 } });
    expect((await nodeOf(sim.id)).LastDrain!.Status).toBe('draining');
    await sim.reportComplete(alloc.ID);
    await drained(sim.id);
    const [after] = await allocsOf('batch-finish');
    expect(after).toMatchObject({ ID: alloc.ID, DesiredStatus: 'run', ClientStatus: 'complete' });
    expect(after.DesiredTransition.Migrate).not.toBe(true);
  });

  it('at the deadline migrates whatever is left and completes the drain', async () => {
    const sim = await simNode(srv, 'dc-deadline');
    await run(job('late-batch', 'dc-deadline', { Type: 'batch' }));
    const [alloc] = await running('late-batch', 1);
    const target = await simNode(srv, 'dc-deadline');
    await drain(sim.id, { DrainSpec: { Deadline: 2e9 } });
    const done = await drained(sim.id);
    expect(done.Events.at(-1)).toMatchObject({ Message: 'Node drain complete', Details: { deadline_reached: 'true' } });
    const list = await until(() => allocsOf('late-batch'), (l) => l.some((x) => x.NodeID === target.id && x.ClientStatus === 'running'), 'the batch allocation replaced');
    expect(list.find((x) => x.ID === alloc.ID)).toMatchObject({ DesiredStatus: 'stop', DesiredTransition: { Migrate: true } });
  });

  it('a forced drain migrates everything at once, system allocations too, and completes', async () => {
    const sim = await simNode(srv, 'dc-force');
    await run(job('force-web', 'dc-force'));
    await run(job('force-batch', 'dc-force', { Type: 'batch' }));
    await run(job('force-agent', 'dc-force', { Type: 'system' }));
    await Promise.all([running('force-web', 1), running('force-batch', 1), running('force-agent', 1)]);
    const target = await simNode(srv, 'dc-force');
    await drain(sim.id, { DrainSpec: { Deadline: -1 } });
    const done = await drained(sim.id);
    expect(done.DrainStrategy).toBeNull();
    expect(done.Events.at(-1)!.Details).toEqual({ deadline_reached: 'true' });
    for (const [jobId, description] of [['force-web', 'alloc is being migrated'], ['force-batch', 'alloc is being migrated'], ['force-agent', 'alloc not needed as node is tainted']]) {
      const list = await until(() => allocsOf(jobId), (l) => l.some((x) => x.NodeID === sim.id && x.DesiredStatus === 'stop'), `${jobId} stopped on the drained node`);
      expect(list.find((x) => x.NodeID === sim.id)).toMatchObject({ DesiredDescription: description, DesiredTransition: { Migrate: true } });
    }
    await until(() => allocsOf('force-web'), (l) => l.some((x) => x.NodeID === target.id && x.ClientStatus === 'running'), 'the service replaced elsewhere');
    // The drained node takes no new work: the system job runs only on the other node.
    const agents = (await allocsOf('force-agent')).filter((x) => x.DesiredStatus === 'run');
    expect(agents.map((x) => x.NodeID)).toEqual([target.id]);
  });

  it('stops system allocations last, once everything else on the node has stopped', async () => {
    // Driven by hand: the service allocation stops only when the test says so.
    const fake = fakeNode({ Datacenter: 'dc-sys' });
    await registerFakeNode(c(), fake);
    await run(job('sys-web', 'dc-sys'));
    await run(job('sys-agent', 'dc-sys', { Type: 'system' }));
    const [web] = await until(() => allocsOf('sys-web'), (l) => l.length === 1, 'the service placed');
    const [agent] = await until(() => allocsOf('sys-agent'), (l) => l.length === 1, 'the system job placed');
    await report(fake, 'running', web.ID, agent.ID);
    await simNode(srv, 'dc-sys');
    await drain(fake.node.ID, { DrainSpec: { Deadline: 0 } });
    await until(() => allocsOf('sys-web'), (l) => l.find((x) => x.ID === web.ID)!.DesiredStatus === 'stop', 'the service allocation stopped');
    // Still running on the node: the system allocation waits.
    expect((await allocsOf('sys-agent')).find((x) => x.ID === agent.ID)).toMatchObject({ DesiredStatus: 'run', DesiredTransition: { Migrate: null } });
    expect((await nodeOf(fake.node.ID)).LastDrain!.Status).toBe('draining');
    await report(fake, 'complete', web.ID);
    await drained(fake.node.ID);
    const stopped = await until(() => allocsOf('sys-agent'), (l) => l.find((x) => x.ID === agent.ID)!.DesiredStatus === 'stop', 'the system allocation stopped');
    expect(stopped.find((x) => x.ID === agent.ID)).toMatchObject({ DesiredDescription: 'alloc not needed as node is tainted', DesiredTransition: { Migrate: true } });
  });

  it('with IgnoreSystemJobs leaves system allocations running and completes without them', async () => {
    const fake = fakeNode({ Datacenter: 'dc-ignore' });
    await registerFakeNode(c(), fake);
    await run(job('ignore-web', 'dc-ignore'));
    await run(job('ignore-agent', 'dc-ignore', { Type: 'system' }));
    const [web] = await until(() => allocsOf('ignore-web'), (l) => l.length === 1, 'the service placed');
    const [agent] = await until(() => allocsOf('ignore-agent'), (l) => l.length === 1, 'the system job placed');
    await report(fake, 'running', web.ID, agent.ID);
    await simNode(srv, 'dc-ignore');
    await drain(fake.node.ID, { DrainSpec: { Deadline: 0, IgnoreSystemJobs: true } });
    await until(() => allocsOf('ignore-web'), (l) => l.find((x) => x.ID === web.ID)!.DesiredStatus === 'stop', 'the service allocation stopped');
    await report(fake, 'complete', web.ID);
    await drained(fake.node.ID);
    expect((await allocsOf('ignore-agent')).find((x) => x.ID === agent.ID)).toMatchObject({ DesiredStatus: 'run', ClientStatus: 'running', DesiredTransition: { Migrate: null } });
  });

  it("a replacement on a real node is judged healthy by its group's migrate block", async () => {
    const self = (await c().scheduler<{ stats: { client: { node_id: string } } }>('GET', '/v1/agent/self')).body;
    const local = self.stats.client.node_id;
    expect((await nodeOf(local)).ID).toBe(local);
    // Placed on the simulated node first: the server's own node takes nothing until it is eligible again.
    await c().scheduler('PUT', `/v1/node/${local}/eligibility`, { body: { Eligibility: 'ineligible' } });
    const sim = await simNode(srv, 'dc1');
    // No rolling updates, so no deployment: the replacement is judged by the migrate block alone.
    await run(job('real', 'dc1', {}, { Update: { MaxParallel: 0 }, Migrate: { MaxParallel: 1, HealthCheck: 'task_states', MinHealthyTime: 100_000_000 } }));
    const [first] = await running('real', 1);
    expect(first.NodeID).toBe(sim.id);
    await c().scheduler('PUT', `/v1/node/${local}/eligibility`, { body: { Eligibility: 'eligible' } });
    await drain(sim.id, { DrainSpec: { Deadline: 0 } });
    const list = await until(
      () => allocsOf('real'),
      (l) => l.some((x) => x.NodeID === local && x.DeploymentStatus?.Healthy === true),
      'the replacement healthy on the real node',
    );
    const replacement = list.find((x) => x.NodeID === local)!;
    expect(replacement).toMatchObject({ DesiredStatus: 'run', ClientStatus: 'running' });
    const full = (await c().scheduler<{ DeploymentID?: string; PreviousAllocation: string }>('GET', `/v1/allocation/${replacement.ID}`)).body;
    expect(full).toMatchObject({ PreviousAllocation: first.ID });
    expect(full.DeploymentID).toBeUndefined();
    await drained(sim.id);
  });

  it("GET /v1/agent/self names the server's own node (what -self drains), for Nomad's agent:read", async () => {
    const reader = await tokenWith('agent-node-read', 'agent { policy = "read" }\nnode { policy = "read" }');
    const self = (await srv.client(reader.secret).scheduler<{ stats: { client: { node_id: string } } }>('GET', '/v1/agent/self')).body;
    expect((await nodeOf(self.stats.client.node_id)).ID).toBe(self.stats.client.node_id);
    const nodeOnly = await tokenWith('agent-node-only', 'node { policy = "write" }');
    expect((await statusOf(srv.client(nodeOnly.secret).scheduler('GET', '/v1/agent/self'))).code).toBe(403);
    const namespaceOnly = await tokenWith('agent-ns', 'namespace "*" { policy = "write" }');
    expect((await statusOf(srv.client(namespaceOnly.secret).scheduler('GET', '/v1/agent/self'))).code).toBe(403);
  });
});

describe('the drainer after a server restart', () => {
  it('carries on with the drains it finds in the state: migrations, then deadlines', async () => {
    const dataDir = await makeTempDir();
    const started: SimNode[] = [];
    let server = await startTestServer({ client: false, heartbeatTtlMs: 3_600_000, dataDir });
    const sim = async (s: TestServer, datacenter: string, fake?: FakeNode) => {
      const f = fake ?? fakeNode({ Datacenter: datacenter });
      if (!fake) await registerFakeNode(s.client(), f);
      const node = new SimNode(s.url, f).start();
      started.push(node);
      return node;
    };
    // The root token is made at the first start only: a restarted server is asked with it.
    const root = server.rootToken;
    const restart = async () => {
      await Promise.all(started.splice(0).map((n) => n.stop()));
      await server.close();
      const again = await startTestServer({ client: false, heartbeatTtlMs: 3_600_000, dataDir });
      server = { ...again, rootToken: root, client: (token = root) => again.client(token) };
    };
    const replacementOf = async (id: string) => {
      const list = await allocsOf('restart-web', server);
      return list.find((x) => x.ID === list.find((o) => o.ID === id)!.NextAllocation);
    };
    try {
      // A server without a node of its own says so.
      expect((await server.client().scheduler<{ stats: Record<string, unknown> }>('GET', '/v1/agent/self')).body.stats).not.toHaveProperty('client');
      const a = await sim(server, 'dc-restart');
      await run(job('restart-web', 'dc-restart', {}, { Count: 2, Migrate: { MaxParallel: 1 } }), server);
      await running('restart-web', 2, server);
      const b = await sim(server, 'dc-restart');
      await drain(a.id, { DrainSpec: { Deadline: 0 } }, undefined, server);
      const [first] = marked(await until(() => allocsOf('restart-web', server), (l) => marked(l).length >= 1, 'the first migration'));
      const firstReplacement = await until(() => replacementOf(first.ID), (r) => r?.ClientStatus === 'running', 'the first replacement running');

      await restart();
      const [a2, b2] = [await sim(server, 'dc-restart', a.fake), await sim(server, 'dc-restart', b.fake)];
      expect((await nodeOf(a2.id, server)).LastDrain!.Status).toBe('draining');
      expect(marked(await allocsOf('restart-web', server)).map((x) => x.ID)).toEqual([first.ID]);
      await b2.reportHealthy(firstReplacement!.ID);
      const [second] = marked(await until(() => allocsOf('restart-web', server), (l) => marked(l).length === 2, 'the second migration, after the restart')).filter((x) => x.ID !== first.ID);
      const secondReplacement = await until(() => replacementOf(second.ID), (r) => r?.ClientStatus === 'running', 'the second replacement running');
      expect(secondReplacement!.NodeID).toBe(b2.id);
      await b2.reportHealthy(secondReplacement!.ID);
      await drained(a2.id, server);

      // A deadline is read back from the node's ForceDeadline, and forces the drain once it passes.
      const d = await sim(server, 'dc-restart-deadline');
      await run(job('restart-batch', 'dc-restart-deadline', { Type: 'batch' }), server);
      const [batch] = await running('restart-batch', 1, server);
      await drain(d.id, { DrainSpec: { Deadline: 2e9 } }, undefined, server);
      await restart();
      await sim(server, 'dc-restart-deadline', d.fake);
      const done = await drained(d.id, server);
      expect(done.Events.at(-1)).toMatchObject({ Message: 'Node drain complete', Details: { deadline_reached: 'true' } });
      expect((await allocsOf('restart-batch', server)).find((x) => x.ID === batch.ID)).toMatchObject({ DesiredTransition: { Migrate: true } });
    } finally {
      await Promise.all(started.map((n) => n.stop()));
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
