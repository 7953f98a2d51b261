/**
 * Service registrations over HTTP, against what the real scheduler placed on nodes that joined through
 * the node API: registration on placement, removal when the allocation stops, Nomad's registration ID,
 * both path prefixes, blocking queries, and the 404 and empty answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import type { ApiError } from '../../../src/shared/errors.js';
import type { ServiceRegistration } from '../../../src/scheduler/state/services.js';

type Registration = ServiceRegistration;

interface Stub {
  ID: string;
  NodeID: string;
  AllocatedResources?: { Shared: { Ports: Array<{ Label: string; Value: number; HostIP: string }> } };
}

const task = (services?: unknown[]) => ({ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 }, ...(services ? { Services: services } : {}) });

const serviceJob = (id: string) => ({
  ID: id,
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'g',
      Count: 1,
      Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
      // No provider: Consul upstream; svc registers it in its own registry.
      Services: [{ Name: `${id}-web`, PortLabel: 'http', Tags: ['b', 'a'] }],
      Tasks: [task([{ Name: `${id}-api`, Provider: 'nomad', PortLabel: 'http', Tags: ['api'] }])],
    },
  ],
});

describe('service registrations', () => {
  let srv: InProcessServer;
  let node: FakeNode;
  const c = () => srv.client();

  async function run(job: Record<string, unknown>, namespace?: string): Promise<Stub> {
    const reg = await c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job }, query: namespace ? { namespace } : {} });
    for (let i = 0; i < 200; i++) {
      const e = (await c().scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`)).body;
      if (e.Status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const allocs = (await c().scheduler<Stub[]>('GET', `/v1/job/${job.ID as string}/allocations`, { query: namespace ? { namespace } : {} })).body;
    expect(allocs).toHaveLength(1);
    return (await c().scheduler<Stub>('GET', `/v1/allocation/${allocs[0].ID}`)).body;
  }

  const status = async (path: string, query: Record<string, string> = {}) => {
    try {
      await c().scheduler('GET', path, { query });
      return 200;
    } catch (e) {
      return (e as ApiError).statusCode;
    }
  };

  beforeAll(async () => {
    srv = await startInProcessServer({ heartbeatTtlMs: 600_000 });
    node = fakeNode();
    await registerFakeNode(c(), node);
    await c().scheduler('PUT', '/v1/namespace/other', { body: { Name: 'other' } });
  });
  afterAll(async () => srv?.close());

  it('registers group and task services on placement, a plain service block included, with Nomad IDs and the allocated port', async () => {
    const alloc = await run(serviceJob('reg'));
    const port = alloc.AllocatedResources!.Shared.Ports.find((p) => p.Label === 'http')!;
    const regs = (await c().scheduler<Registration[]>('GET', `/v1/allocation/${alloc.ID}/services`)).body;
    expect(regs.map((r) => r.ID)).toEqual([`_nomad-task-${alloc.ID}-group-reg-web-http`, `_nomad-task-${alloc.ID}-t-reg-api-http`]);
    expect(regs[0]).toMatchObject({
      ServiceName: 'reg-web',
      Namespace: 'default',
      NodeID: node.node.ID,
      Datacenter: 'dc1',
      JobID: 'reg',
      AllocID: alloc.ID,
      Tags: ['b', 'a'],
      Address: port.HostIP,
      Port: port.Value,
    });
    expect(regs[0].CreateIndex).toBeGreaterThan(0);
    expect(port.Value).toBeGreaterThan(0);
  });

  it('serves the allocation and job services with and without /v1', async () => {
    const alloc = await run(serviceJob('prefix'));
    const withV1 = (await c().scheduler<Registration[]>('GET', `/v1/allocation/${alloc.ID}/services`)).body;
    const bare = (await c().scheduler<Registration[]>('GET', `/allocation/${alloc.ID}/services`)).body;
    expect(bare).toEqual(withV1);
    const job = (await c().scheduler<Registration[]>('GET', '/job/prefix/services')).body;
    expect((await c().scheduler<Registration[]>('GET', '/v1/job/prefix/services')).body).toEqual(job);
    expect(job.map((r) => r.ServiceName).sort()).toEqual(['prefix-api', 'prefix-web']);
  });

  it('lists services per namespace with their tags, and one service by name', async () => {
    await run(serviceJob('listed'));
    await run(serviceJob('elsewhere'), 'other');
    const list = (await c().scheduler<Array<{ Namespace: string; Services: Array<{ ServiceName: string; Tags: string[] }> }>>('GET', '/v1/services')).body;
    expect(list.map((n) => n.Namespace)).toEqual(['default']);
    expect(list[0].Services).toContainEqual({ ServiceName: 'listed-web', Tags: ['a', 'b'] });
    expect(list[0].Services.some((s) => s.ServiceName === 'elsewhere-web')).toBe(false);
    const all = (await c().scheduler<Array<{ Namespace: string }>>('GET', '/v1/services', { query: { namespace: '*' } })).body;
    expect(all.map((n) => n.Namespace)).toEqual(['default', 'other']);
    const one = (await c().scheduler<Registration[]>('GET', '/v1/service/listed-api')).body;
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ ServiceName: 'listed-api', JobID: 'listed', Tags: ['api'] });
    expect((await c().scheduler<Registration[]>('GET', '/v1/service/nothing-here')).body).toEqual([]);
  });

  it('removes the registrations when the allocation stops, waking a blocking query', async () => {
    const alloc = await run(serviceJob('stopped'));
    const before = await c().scheduler<Registration[]>('GET', '/job/stopped/services');
    expect(before.body).toHaveLength(2);
    const blocked = c().scheduler<Registration[]>('GET', '/job/stopped/services', { query: { index: String(before.index), wait: '30s' } });
    const allocBefore = await c().scheduler<Registration[]>('GET', `/allocation/${alloc.ID}/services`);
    const allocBlocked = c().scheduler<Registration[]>('GET', `/allocation/${alloc.ID}/services`, { query: { index: String(allocBefore.index), wait: '30s' } });
    // Without blocking, both answers would come back now, at the index they were asked past.
    await new Promise((r) => setTimeout(r, 200));
    await c().scheduler('DELETE', '/v1/job/stopped');
    const after = await blocked;
    expect(after.index).toBeGreaterThan(before.index);
    expect(after.body).toEqual([]);
    const allocAfter = await allocBlocked;
    expect(allocAfter.index).toBeGreaterThan(allocBefore.index);
    expect(allocAfter.body).toEqual([]);
  });

  it('answers 404 for an unknown job or allocation, or one in another namespace, and [] when there are none', async () => {
    const alloc = await run({ ID: 'plain', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [task()] }] });
    expect((await c().scheduler('GET', '/job/plain/services')).body).toEqual([]);
    expect((await c().scheduler('GET', `/allocation/${alloc.ID}/services`)).body).toEqual([]);
    for (const path of ['/job/nope/services', '/v1/job/nope/services', '/job/plain/services']) {
      expect(await status(path, path === '/job/plain/services' ? { namespace: 'other' } : {})).toBe(404);
    }
    expect(await status(`/allocation/${alloc.ID}/services`, { namespace: 'other' })).toBe(404);
    expect(await status('/v1/allocation/00000000-0000-0000-0000-000000000000/services')).toBe(404);
    await expect(c().scheduler('GET', '/job/nope/services')).rejects.toMatchObject({ statusCode: 404, errors: ['job not found'] });
    await expect(c().scheduler('GET', '/allocation/nope/services')).rejects.toMatchObject({ statusCode: 404, errors: ['allocation not found'] });
  });
  it('needs read-job in the namespace (403 with list-jobs only), and lists only readable namespaces for *', async () => {
    const alloc = await run(serviceJob('guarded'));
    await run(serviceJob('hidden'), 'other');
    const tokenWith = async (name: string, caps: string[]) => {
      await c().request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      const env = await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } });
      return srv.client(String(env!.auth!.client_token));
    };
    const lister = await tokenWith('services-list-only', ['list-jobs']);
    const reader = await tokenWith('services-read-job', ['read-job']);
    for (const path of [`/allocation/${alloc.ID}/services`, '/v1/job/guarded/services', '/v1/services', '/v1/service/guarded-web']) {
      await expect(lister.scheduler('GET', path)).rejects.toMatchObject({ statusCode: 403 });
      await expect(reader.scheduler('GET', path)).resolves.toBeDefined();
    }
    const all = (await reader.scheduler<Array<{ Namespace: string }>>('GET', '/v1/services', { query: { namespace: '*' } })).body;
    expect(all.map((n) => n.Namespace)).toEqual(['default']);
  });
});
