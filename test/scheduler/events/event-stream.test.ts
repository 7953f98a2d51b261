/**
 * GET /v1/event/stream on a listening server (LMDB): what Nomad's stream carries for a job registration,
 * a placement and a node that misses its heartbeats, to subscribers with different filters, in index
 * order; resuming from an index; the ACL per topic; and a client that stops reading cut off while writes
 * go on.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream, type EventFrame, type StreamEvent } from '../../../src/api/events.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

/** A subscriber collecting what it is sent, until stopped. */
function subscribe(client: ApiClient, opts: { topics?: string[]; namespace?: string; index?: number }) {
  const frames: EventFrame[] = [];
  const abort = new AbortController();
  const done = (async () => {
    for await (const frame of await eventStream(client, { ...opts, signal: abort.signal })) frames.push(frame);
  })();
  return {
    frames,
    events: (): StreamEvent[] => frames.flatMap((f) => f.Events),
    async stop() {
      abort.abort();
      await done.catch(() => undefined);
    },
  };
}

const job = (id: string, meta: Record<string, string> = {}) => ({
  ID: id,
  Type: 'service',
  Datacenters: ['dc1'],
  Meta: meta,
  TaskGroups: [{ Name: 'web', Count: 1, Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }] }],
});

const increasing = (frames: EventFrame[]) => frames.every((f, i) => i === 0 || f.Index > frames[i - 1].Index) && frames.every((f) => f.Events.every((e) => e.Index === f.Index));

describe('event stream', () => {
  let srv: TestServer;
  const logs: string[] = [];
  beforeAll(async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600, heartbeatGraceMs: 400, eventBacklogBytes: 2 * 1024 * 1024, logWrite: (l) => logs.push(l) });
    await srv.client().scheduler('PUT', '/v1/namespace/other', { body: { Name: 'other' } });
  });
  afterAll(async () => srv?.close());
  const c = () => srv.client();

  it('delivers a registration, a placement and a node going down, in index order, to subscribers with different filters', async () => {
    const jobs = subscribe(c(), { topics: ['Job', 'Allocation'] });
    const nodes = subscribe(c(), { topics: ['Node'] });
    const other = subscribe(c(), { topics: ['Job:db'], namespace: 'other' });
    const n = fakeNode();
    await registerFakeNode(c(), n);
    const self = srv.client(n.secret);
    // Heartbeat until the placement is seen, then let the node miss its TTL.
    let beating = true;
    const heartbeats = (async () => {
      while (beating) {
        await self.scheduler('PUT', `/v1/node/${n.node.ID}/heartbeat`).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('web') } });
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('db') }, query: { namespace: 'other' } });
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('cache') }, query: { namespace: 'other' } });
    const placed = await until(async () => jobs.events().find((e) => e.Topic === 'Allocation' && e.Type === 'PlanResult'), (e) => e !== undefined, 'the placement event');
    beating = false;
    await heartbeats;
    const down = await until(async () => nodes.events().find((e) => (e.Payload.Node as { Status: string }).Status === 'down'), (e) => e !== undefined, 'the node-down event');
    await until(async () => other.events().length, (k) => k >= 1, "the other namespace's job");

    const registered = jobs.events().find((e) => e.Topic === 'Job')!;
    expect(registered).toMatchObject({ Topic: 'Job', Type: 'JobRegistered', Key: 'web', Namespace: 'default', FilterKeys: null, Payload: { Job: { ID: 'web', Namespace: 'default' } } });
    expect(placed).toMatchObject({ Type: 'PlanResult', Namespace: 'default', Payload: { Allocation: { JobID: 'web', NodeID: n.node.ID, ClientStatus: 'pending' } } });
    expect(placed!.FilterKeys).toEqual(['web', (placed!.Payload.Allocation as { DeploymentID?: string }).DeploymentID ?? '']);
    // Nomad strips the job from an allocation's event.
    expect(placed!.Payload.Allocation).not.toHaveProperty('Job');
    expect(registered.Index).toBeLessThan(placed!.Index);
    expect(placed!.Index).toBeLessThan(down!.Index);
    expect(down).toMatchObject({ Topic: 'Node', Type: 'NodeStreamEvent', Key: n.node.ID, Namespace: '', Payload: { Node: { ID: n.node.ID, Status: 'down' } } });
    expect(nodes.events()[0]).toMatchObject({ Topic: 'Node', Type: 'NodeRegistration', Key: n.node.ID });

    // Each subscriber sees only its topics and namespace, frame by frame in index order.
    expect(increasing(jobs.frames) && increasing(nodes.frames) && increasing(other.frames)).toBe(true);
    expect(new Set(jobs.events().map((e) => e.Topic))).toEqual(new Set(['Job', 'Allocation']));
    expect(jobs.events().every((e) => e.Namespace === 'default')).toBe(true);
    expect(nodes.events().every((e) => e.Topic === 'Node')).toBe(true);
    expect(other.events().length).toBeGreaterThan(0);
    expect(other.events().every((e) => e.Topic === 'Job' && e.Key === 'db' && e.Namespace === 'other')).toBe(true);
    // No node's secret in anything sent.
    const everything = JSON.stringify([jobs.frames, nodes.frames, other.frames]);
    expect(everything).not.toContain(n.secret);
    expect(everything).not.toContain('SecretID');

    // Resuming after the registration starts right after it, from the buffer.
    const resumed = subscribe(c(), { topics: ['*'], index: registered.Index });
    await until(async () => resumed.frames.length, (k) => k >= 2, 'the resumed frames');
    expect(resumed.frames[0].Index).toBeGreaterThan(registered.Index);
    expect(resumed.events().some((e) => e.Key === placed!.Key && e.Index === placed!.Index)).toBe(true);
    await Promise.all([jobs.stop(), nodes.stop(), other.stop(), resumed.stop()]);
  });

  it('namespace * for a management token covers a namespace made after the stream opened', async () => {
    const all = subscribe(c(), { topics: ['Job'], namespace: '*' });
    try {
      await c().scheduler('PUT', '/v1/namespace/later', { body: { Name: 'later' } });
      await c().scheduler('POST', '/v1/jobs', { body: { Job: { ...job('late'), Namespace: 'later' } }, query: { namespace: 'later' } });
      const seen = await until(async () => all.events().find((e) => e.Key === 'late'), (e) => e !== undefined, 'the later namespace\'s job');
      expect(seen).toMatchObject({ Topic: 'Job', Type: 'JobRegistered', Namespace: 'later' });
    } finally {
      await all.stop();
    }
  });

  it('checks the ACL per topic: read-job in the namespace, node read, management for *', async () => {
    await c().secrets('PUT', 'sys/policies/acl/default-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    const token = String((await c().secrets('POST', 'auth/token/create', { body: { policies: ['default-reader'] } }))?.auth?.client_token);
    const reader = srv.client(token);
    const open = async (topics: string[], namespace?: string) => {
      const abort = new AbortController();
      try {
        await eventStream(reader, { topics, namespace, signal: abort.signal });
        return 200;
      } catch (err) {
        return (await statusOf(Promise.reject(err))).code;
      } finally {
        abort.abort();
      }
    };
    expect(await open(['Job:web', 'Allocation', 'Evaluation', 'Deployment'])).toBe(200);
    expect(await open(['Node'])).toBe(403);
    expect(await open(['*'])).toBe(403);
    expect(await open([])).toBe(403);
    expect(await open(['Job'], 'other')).toBe(403);
    expect(await open(['Job'], '*')).toBe(403);
    const bad = await statusOf(eventStream(c(), { topics: ['Job:a:b'] }));
    expect(bad.code).toBe(400);
    expect(bad.message).toContain('Job:a:b');
    expect((await statusOf(eventStream(c(), { topics: ['Nope'] }))).message).toContain('unknown topic "Nope"');
  });

  it('cuts off a client that does not read while writes go on, and keeps serving the others', async () => {
    const reading = subscribe(c(), { topics: ['Job'] });
    // A client that reads nothing after the headers.
    const url = new URL('/v1/event/stream?topic=Job', srv.url);
    const stalled = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(url, { headers: { 'x-svc-token': srv.rootToken } }, resolve).on('error', reject);
    });
    stalled.pause();
    const ended = new Promise<string>((resolve) => {
      stalled.on('error', (e) => resolve(`error: ${e.message}`));
      stalled.on('aborted', () => resolve('aborted'));
      stalled.on('end', () => resolve('end'));
      stalled.on('close', () => resolve('close'));
    });
    const broker = srv.server.services.events!;
    await until(async () => broker.subscriberCount, (k) => k === 2, 'both subscribers served');
    // Large jobs: far more than the sockets' buffers and the server's backlog bound hold.
    const big = 'x'.repeat(400_000);
    let written = 0;
    while (broker.subscriberCount === 2) {
      await c().scheduler('POST', '/v1/jobs', { body: { Job: job(`big-${written++}`, { blob: big }) } });
      if (written > 400) throw new Error('the stalled client was never cut off');
    }
    // The writes went on: a later one is registered and the reading client hears of it.
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('after-cut') } });
    await until(async () => reading.events().some((e) => e.Key === 'after-cut'), (x) => x, 'the reading client hears the later write');
    stalled.resume();
    // The stalled client's body stops short of its end: the server closed the connection.
    expect(await ended).not.toBe('end');
    expect(logs.filter((l) => l.includes('fell too far behind'))).toHaveLength(1);
    expect(logs.some((l) => l.includes(big.slice(0, 50)))).toBe(false);
    await reading.stop();
  }, 120_000);
});
