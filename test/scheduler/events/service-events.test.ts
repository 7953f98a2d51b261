/**
 * The event stream's Service topic: an allocation placed with a group service registers it
 * (ServiceRegistration, keyed by the registration's ID, filterable by job and service name), stopping
 * the job deregisters it in the same write that stops the allocation, a job without services sends no
 * Service event, and the topic takes read-job in the namespace as Nomad's does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream, type StreamEvent } from '../../../src/api/events.js';
import type { ApiClient } from '../../../src/api/http/client.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

function subscribe(client: ApiClient, topics: string[]) {
  const events: StreamEvent[] = [];
  const abort = new AbortController();
  const done = (async () => {
    for await (const frame of await eventStream(client, { topics, signal: abort.signal })) events.push(...frame.Events);
  })();
  return {
    events,
    async stop() {
      abort.abort();
      await done.catch(() => undefined);
    },
  };
}

const job = (id: string, services: Array<{ Name: string; PortLabel?: string; Tags?: string[] }>) => ({
  ID: id,
  Type: 'service',
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'web',
      Count: 1,
      Services: services.map((s) => ({ Provider: 'nomad', PortLabel: '', ...s })),
      Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 16 } }],
    },
  ],
});

describe('the Service topic', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    await registerFakeNode(srv.client(), fakeNode());
  });
  afterAll(async () => srv?.close());
  const c = () => srv.client();

  it('registers a service with its placement and deregisters it when the job stops', async () => {
    const all = subscribe(c(), ['Service']);
    const byName = subscribe(c(), ['Service:api']);
    const byJob = subscribe(c(), ['Service:quiet']);
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('quiet', []) } });
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('front', [{ Name: 'api', Tags: ['v1'] }, { Name: 'metrics' }]) } });
    const registered = await until(async () => all.events.filter((e) => e.Type === 'ServiceRegistration'), (e) => e.length === 2, 'two registrations');
    const [alloc] = (await c().scheduler<Array<{ ID: string }>>('GET', '/v1/job/front/allocations')).body;
    const api = registered.find((e) => (e.Payload.Service as { ServiceName: string }).ServiceName === 'api')!;
    expect(api).toMatchObject({
      Topic: 'Service',
      Key: `_nomad-task-${alloc.ID}-group-api-`,
      Namespace: 'default',
      FilterKeys: ['front', 'api'],
      Payload: { Service: { ID: `_nomad-task-${alloc.ID}-group-api-`, ServiceName: 'api', JobID: 'front', AllocID: alloc.ID, Tags: ['v1'], Datacenter: 'dc1' } },
    });
    // The registry answers what the event announced.
    const listed = (await c().scheduler<Array<{ ID: string }>>('GET', '/v1/service/api')).body;
    expect(listed.map((r) => r.ID)).toEqual([api.Key]);

    await c().scheduler('DELETE', '/v1/job/front');
    const gone = await until(async () => all.events.filter((e) => e.Type === 'ServiceDeregistration'), (e) => e.length === 2, 'two deregistrations');
    expect(new Set(gone.map((e) => e.Key))).toEqual(new Set(registered.map((e) => e.Key)));
    expect(gone[0].Index).toBeGreaterThan(api.Index);
    expect((await c().scheduler<unknown[]>('GET', '/v1/service/api')).body).toEqual([]);

    // A key filters by the registration's job and service name; the job without services sent none.
    await until(async () => byName.events.length, (k) => k === 2, "api's registration and deregistration");
    expect(byName.events.map((e) => e.Type)).toEqual(['ServiceRegistration', 'ServiceDeregistration']);
    expect(byJob.events).toEqual([]);
    expect(all.events.every((e) => e.Topic === 'Service' && e.FilterKeys?.[0] === 'front')).toBe(true);
    await Promise.all([all.stop(), byName.stop(), byJob.stop()]);
  });

  it('takes read-job in the namespace', async () => {
    await c().secrets('PUT', 'sys/policies/acl/nodes-only', { body: { policy: 'node { policy = "read" }' } });
    await c().secrets('PUT', 'sys/policies/acl/jobs-reader', { body: { policy: 'namespace "default" { capabilities = ["read-job"] }' } });
    const token = async (policy: string) => String((await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } }))?.auth?.client_token);
    expect((await statusOf(eventStream(srv.client(await token('nodes-only')), { topics: ['Service'] }))).code).toBe(403);
    const reader = subscribe(srv.client(await token('jobs-reader')), ['Service']);
    await c().scheduler('POST', '/v1/jobs', { body: { Job: job('seen', [{ Name: 'seen' }]) } });
    await until(async () => reader.events.filter((e) => e.FilterKeys?.[0] === 'seen').length, (k) => k === 1, 'the registration');
    await reader.stop();
  });
});
