/**
 * `svc service list` and `svc service info` against a real server, with services registered by
 * allocations the scheduler placed on a node that joined through the node API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { until } from '../support/wait.js';

interface Registration {
  ID: string;
  AllocID: string;
  NodeID: string;
  Address: string;
  Port: number;
}

const job = (id: string, services: Array<Record<string, unknown>>) => ({
  ID: id,
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'g',
      Count: 1,
      Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
      Services: services,
      Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }],
    },
  ],
});

describe('svc service', () => {
  let srv: TestServer;
  const c = () => srv.client();

  async function place(body: Record<string, unknown>, namespace = 'default'): Promise<Registration[]> {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: body }, query: { namespace } });
    return until(
      async () => (await c().scheduler<Registration[]>('GET', `/v1/job/${body.ID as string}/services`, { query: { namespace } })).body,
      (regs) => regs.length > 0,
      `services of ${body.ID as string}`,
    );
  }

  beforeAll(async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
    await registerFakeNode(c(), fakeNode());
    await c().scheduler('PUT', '/v1/namespace/other', { body: { Name: 'other' } });
  });
  afterAll(async () => srv?.close());

  it('says when nothing is registered', async () => {
    const r = await srv.cli(['service', 'list']);
    expect(r).toMatchObject({ code: 0, stdout: 'No service registrations found\n' });
  });

  it('lists services with sorted tags, with a Namespace column for -namespace=*', async () => {
    await place(job('api', [{ Name: 'api-web', PortLabel: 'http', Tags: ['z', 'a'] }, { Name: 'api-admin', PortLabel: 'http' }]));
    await place(job('far', [{ Name: 'far-web', PortLabel: 'http', Tags: ['x'] }]), 'other');
    const r = await srv.cli(['service', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Service Name  Tags\napi-admin     []\napi-web       [a,z]\n');
    const all = await srv.cli(['service', 'list', '-namespace', '*']);
    expect(all.stdout).toBe('Service Name  Namespace  Tags\napi-admin     default    []\napi-web       default    [a,z]\nfar-web       other      [x]\n');
    const json = await srv.cli(['service', 'list', '-json']);
    expect(JSON.parse(json.stdout)).toEqual([{ Namespace: 'default', Services: [{ ServiceName: 'api-admin', Tags: [] }, { ServiceName: 'api-web', Tags: ['a', 'z'] }] }]);
  });

  it('shows a service by name or unique prefix, and in full with -verbose', async () => {
    const regs = await place(job('info', [{ Name: 'info-web', PortLabel: 'http', Tags: ['v1'] }]));
    const reg = regs[0];
    const r = await srv.cli(['service', 'info', 'info-w']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['Job ID', 'Address', 'Tags', 'Node ID', 'Alloc ID']);
    expect(lines[1].split(/\s{2,}/)).toEqual(['info', `${reg.Address}:${reg.Port}`, '[v1]', reg.NodeID.slice(0, 8), reg.AllocID.slice(0, 8)]);
    const v = await srv.cli(['service', 'info', '-verbose', 'info-web']);
    expect(v.stdout).toContain(`ID           = ${reg.ID}\n`);
    expect(v.stdout).toContain(`Address      = ${reg.Address}:${reg.Port}\n`);
    expect(v.stdout).toContain('Datacenter   = dc1\n');
    const json = await srv.cli(['service', 'info', '-json', 'info-web']);
    expect((JSON.parse(json.stdout) as Registration[]).map((x) => x.ID)).toEqual([reg.ID]);
  });

  it('fails on a name no service has, and on a prefix several share', async () => {
    const none = await srv.cli(['service', 'info', 'nothing']);
    expect(none).toMatchObject({ code: 1, stderr: 'No service registrations with prefix "nothing" found\n' });
    const many = await srv.cli(['service', 'info', 'api-']);
    expect(many.code).toBe(1);
    expect(many.stderr).toBe('Prefix matched multiple services\n\nService Name  Tags\napi-admin     []\napi-web       [a,z]\n');
  });
});
