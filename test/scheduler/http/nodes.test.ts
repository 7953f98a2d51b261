/**
 * The node API and node reads: joining, proving identity, heartbeats and what a missed one sets off
 * (allocations lost and replaced), and system jobs following nodes as they join.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/http/client.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

interface Stub {
  ID: string;
  NodeID: string;
  DesiredStatus: string;
  ClientStatus: string;
}

describe('node API', () => {
  let srv: TestServer;
  beforeAll(async () => {
    // A short TTL and grace so that a node that stops heartbeating is marked down within the test.
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600, heartbeatGraceMs: 400 });
  });
  afterAll(async () => srv?.close());
  const c = () => srv.client();

  it('registration needs a management token and a well-formed node', async () => {
    const n = fakeNode();
    await c().secrets('PUT', 'sys/policies/acl/writer', { body: { policy: 'namespace "*" { policy = "write" }' } });
    const token = String((await c().secrets('POST', 'auth/token/create', { body: { policies: ['writer'] } }))?.auth?.client_token);
    expect((await statusOf(srv.client(token).scheduler('PUT', '/v1/node/register', { body: { Node: n.node, SecretID: n.secret } }))).code).toBe(403);
    const badId = await statusOf(c().scheduler('PUT', '/v1/node/register', { body: { Node: { ...n.node, ID: 'x' }, SecretID: n.secret } }));
    expect(badId).toMatchObject({ code: 400 });
    expect(badId.message).toMatch(/Node\.ID/);
    const badResources = await statusOf(c().scheduler('PUT', '/v1/node/register', { body: { Node: { ...n.node, NodeResources: { Cpu: {} } }, SecretID: n.secret } }));
    expect(badResources.message).toMatch(/NodeResources/);
    expect((await statusOf(c().scheduler('PUT', '/v1/node/register', { body: { Node: n.node, SecretID: 'short' } }))).message).toMatch(/SecretID/);
    const badEligibility = await statusOf(c().scheduler('PUT', '/v1/node/register', { body: { Node: { ...n.node, SchedulingEligibility: 'maybe' }, SecretID: n.secret } }));
    expect(badEligibility.message).toMatch(/SchedulingEligibility/);
    // Left out, a node is eligible, as Nomad registers it.
    const unsaid = fakeNode();
    const { SchedulingEligibility: _omitted, ...withoutEligibility } = unsaid.node;
    await c().scheduler('PUT', '/v1/node/register', { body: { Node: withoutEligibility, SecretID: unsaid.secret } });
    expect((await c().scheduler<{ SchedulingEligibility: string }>('GET', `/v1/node/${unsaid.node.ID}`)).body.SchedulingEligibility).toBe('eligible');
    const ok = await c().scheduler<{ HeartbeatTTL: number }>('PUT', '/v1/node/register', { body: { Node: n.node, SecretID: n.secret } });
    expect(ok.body.HeartbeatTTL).toBe(600 * 1_000_000);
    const taken = await statusOf(c().scheduler('PUT', '/v1/node/register', { body: { Node: n.node, SecretID: fakeNode().secret } }));
    expect(taken.code).toBe(409);
    // A known node re-registers itself with its own secret; an unknown one, or a wrong secret, cannot.
    const self = new ApiClient({ address: srv.url, token: n.secret });
    const again = await self.scheduler<{ HeartbeatTTL: number }>('PUT', '/v1/node/register', { body: { Node: { ...n.node, Meta: { rack: 'r9' } }, SecretID: n.secret } });
    expect(again.body.HeartbeatTTL).toBeGreaterThan(0);
    expect((await c().scheduler<{ Meta: Record<string, string> }>('GET', `/v1/node/${n.node.ID}`)).body.Meta).toEqual({ rack: 'r9' });
    const stranger = fakeNode();
    expect((await statusOf(new ApiClient({ address: srv.url, token: stranger.secret }).scheduler('PUT', '/v1/node/register', { body: { Node: stranger.node, SecretID: stranger.secret } }))).code).toBe(403);
    expect((await statusOf(new ApiClient({ address: srv.url, token: stranger.secret }).scheduler('PUT', '/v1/node/register', { body: { Node: n.node, SecretID: stranger.secret } }))).code).toBe(403);
    const node = (await c().scheduler<{ Status: string; Name: string }>('GET', `/v1/node/${n.node.ID}`)).body;
    expect(node).toMatchObject({ Status: 'ready', Name: n.node.Name });
    expect(JSON.stringify(node)).not.toContain(n.secret);
    const list = (await c().scheduler<Array<{ ID: string; Status: string; NodeResources: unknown }>>('GET', '/v1/nodes')).body;
    expect(list.find((x) => x.ID === n.node.ID)).toMatchObject({ Status: 'ready', NodeResources: null });
    expect((await statusOf(c().scheduler('GET', '/v1/node/00000000-0000-0000-0000-000000000000'))).code).toBe(404);
  });

  it('a node that misses heartbeats goes down: its allocations are lost and replaced elsewhere', async () => {
    // Their own datacenter: other tests' nodes go silent too, and must not take part.
    const a = fakeNode({ Datacenter: 'dc-hb' });
    const b = fakeNode({ Datacenter: 'dc-hb' });
    await registerFakeNode(c(), a);
    // Only b stays alive: it heartbeats every 150ms.
    const beat = setInterval(() => void new ApiClient({ address: srv.url, token: b.secret }).scheduler('PUT', `/v1/node/${b.node.ID}/heartbeat`).catch(() => undefined), 150);
    try {
      await registerFakeNode(c(), b);
      const job = { ID: 'spread', Datacenters: ['dc-hb'], TaskGroups: [{ Name: 'g', Count: 4, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 100, MemoryMB: 64 } }] }] };
      await c().scheduler('POST', '/v1/jobs', { body: { Job: job } });
      const placed = await until(() => c().scheduler<Stub[]>('GET', '/v1/job/spread/allocations').then((r) => r.body), (l) => l.length === 4, '4 allocations');
      const onA = placed.filter((x) => x.NodeID === a.node.ID);
      const down = await until(() => c().scheduler<{ Status: string }>('GET', `/v1/node/${a.node.ID}`).then((r) => r.body), (n) => n.Status === 'down', 'node a down');
      expect(down.Status).toBe('down');
      // Job anti-affinity spreads the group over both nodes.
      expect(onA.length).toBeGreaterThan(0);
      {
        const after = await until(
          () => c().scheduler<Stub[]>('GET', '/v1/job/spread/allocations').then((r) => r.body),
          (l) => l.filter((x) => x.DesiredStatus === 'run' && x.ClientStatus !== 'lost').length === 4 && l.filter((x) => x.ClientStatus === 'lost').length === onA.length,
          'lost allocations replaced',
        );
        expect(after.filter((x) => x.DesiredStatus === 'run' && x.ClientStatus !== 'lost').every((x) => x.NodeID === b.node.ID)).toBe(true);
      }
    } finally {
      clearInterval(beat);
    }
  });

  it('a job that fits nowhere waits in a blocked evaluation, and is placed when a node that fits joins', async () => {
    const late = fakeNode({ Datacenter: 'dc-late' });
    const beat = setInterval(() => void new ApiClient({ address: srv.url, token: late.secret }).scheduler('PUT', `/v1/node/${late.node.ID}/heartbeat`).catch(() => undefined), 150);
    try {
      const job = { ID: 'patient', Datacenters: ['dc-late'], TaskGroups: [{ Name: 'g', Count: 2, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 100, MemoryMB: 64 } }] }] };
      const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job } });
      const first = await until(() => c().scheduler<{ Status: string; BlockedEval?: string; QueuedAllocations?: Record<string, number> }>('GET', `/v1/evaluation/${reg.body.EvalID}`).then((r) => r.body), (e) => e.Status !== 'pending', 'the evaluation');
      expect(first).toMatchObject({ Status: 'complete', QueuedAllocations: { g: 2 } });
      expect((await c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${first.BlockedEval}`)).body.Status).toBe('blocked');
      expect((await c().scheduler<{ Summary: Record<string, { Queued: number }> }>('GET', '/v1/job/patient/summary')).body.Summary.g.Queued).toBe(2);
      expect((await c().scheduler<Stub[]>('GET', '/v1/job/patient/allocations')).body).toEqual([]);

      await registerFakeNode(c(), late);
      const placed = await until(() => c().scheduler<Stub[]>('GET', '/v1/job/patient/allocations').then((r) => r.body), (l) => l.length === 2, 'the placements');
      expect(placed.every((a) => a.NodeID === late.node.ID)).toBe(true);
      expect((await c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${first.BlockedEval}`)).body.Status).toBe('complete');
      expect((await c().scheduler<{ Summary: Record<string, { Queued: number; Starting: number }> }>('GET', '/v1/job/patient/summary')).body.Summary.g).toMatchObject({ Queued: 0, Starting: 2 });
    } finally {
      clearInterval(beat);
    }
  });

  it('a system job runs one allocation on every node, including nodes that join later', async () => {
    const job = { ID: 'agent', Type: 'system', Datacenters: ['*'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 50, MemoryMB: 32 } }] }] };
    const late = fakeNode();
    const alive = [late];
    const beat = setInterval(() => {
      for (const n of alive) void new ApiClient({ address: srv.url, token: n.secret }).scheduler('PUT', `/v1/node/${n.node.ID}/heartbeat`).catch(() => undefined);
    }, 150);
    try {
      const ready = async () => (await c().scheduler<Array<{ ID: string; Status: string; Drivers: Record<string, unknown> }>>('GET', '/v1/nodes')).body.filter((n) => n.Status === 'ready' && n.Drivers.mock);
      await c().scheduler('POST', '/v1/jobs', { body: { Job: job } });
      const before = await ready();
      const first = await until(() => c().scheduler<Stub[]>('GET', '/v1/job/agent/allocations').then((r) => r.body), (l) => l.length === before.length, 'one per ready node');
      expect(new Set(first.map((x) => x.NodeID)).size).toBe(first.length);
      await registerFakeNode(c(), late);
      const after = await until(() => c().scheduler<Stub[]>('GET', '/v1/job/agent/allocations').then((r) => r.body), (l) => l.some((x) => x.NodeID === late.node.ID), 'placement on the new node');
      expect(after.filter((x) => x.NodeID === late.node.ID).length).toBe(1);
    } finally {
      clearInterval(beat);
    }
  });
});
