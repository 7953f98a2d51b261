/**
 * GET /v1/agent/self answers Nomad's `config` and `member` beside `stats`: Nomad's client reads its
 * NodeName() from member.Name and its Datacenter() and Region() from config. The datacenter is the one
 * the server's node is given; the route needs node read, as it did.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { VERSION } from '../../../src/version.js';

interface AgentSelf {
  config: Record<string, unknown> & { Version: { Version: string }; Client: { Enabled: boolean }; Ports: { HTTP: number } };
  member: { Name: string; Addr: string; Port: number; Status: string; Tags: Record<string, string> };
  stats: Record<string, Record<string, string>>;
}

describe('GET /v1/agent/self without a node', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  it('answers config and member in Nomad\'s shapes, with the stats kept', async () => {
    const res = await srv.request('GET', '/v1/agent/self');
    expect(res.status).toBe(200);
    const self = res.body as AgentSelf;
    expect(self.config).toMatchObject({
      Region: 'global',
      Datacenter: 'dc1',
      NodeName: hostname(),
      ACL: { Enabled: true },
      Server: { Enabled: true },
      Client: { Enabled: false },
      Version: { Version: VERSION },
    });
    expect(self.member).toMatchObject({ Name: `${hostname()}.global`, Status: 'alive', Tags: { role: 'nomad', region: 'global', dc: 'dc1', build: VERSION } });
    expect(self.stats.nomad.server).toBe('true');
    expect(self.stats.client).toBeUndefined();
  });

  it("needs Nomad's agent read: a token without it is refused, node read is not enough", async () => {
    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['default'] } });
    const token = (created.body as { auth: { client_token: string } }).auth.client_token;
    expect((await srv.request('GET', '/v1/agent/self', { token })).status).toBe(403);
    await srv.request('PUT', '/v1/sys/policies/acl/node-reader', { body: { policy: 'node { policy = "read" }' } });
    const reader = ((await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['node-reader'] } })).body as { auth: { client_token: string } }).auth.client_token;
    expect((await srv.request('GET', '/v1/agent/self', { token: reader })).status).toBe(403);
    await srv.request('PUT', '/v1/sys/policies/acl/agent-reader', { body: { policy: 'agent { policy = "read" }' } });
    const agent = ((await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['agent-reader'] } })).body as { auth: { client_token: string } }).auth.client_token;
    expect((await srv.request('GET', '/v1/agent/self', { token: agent })).status).toBe(200);
    await srv.request('PUT', '/v1/sys/policies/acl/agent-denied', { body: { policy: 'agent { policy = "deny" }' } });
    const denied = ((await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['agent-denied'] } })).body as { auth: { client_token: string } }).auth.client_token;
    expect((await srv.request('GET', '/v1/agent/self', { token: denied })).status).toBe(403);
  });
});

describe('GET /v1/agent/self with the server\'s node', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ client: { datacenter: 'east', name: 'worker-1', nodeClass: 'gpu', stopTasksOnShutdown: true } });
  });
  afterAll(async () => srv?.close());

  it('reports the node\'s datacenter and name, the bound port, and the member\'s address', async () => {
    const self = (await srv.client().scheduler<AgentSelf>('GET', '/v1/agent/self')).body;
    const port = Number(new URL(srv.url).port);
    expect(self.config).toMatchObject({ Datacenter: 'east', NodeName: 'worker-1', Client: { Enabled: true, NodeClass: 'gpu' }, Ports: { HTTP: port, RPC: port, Serf: port } });
    expect(self.member).toMatchObject({ Addr: '127.0.0.1', Port: port, Tags: { dc: 'east', region: 'global' } });
    expect(self.stats.client.node_id).toBe(srv.server.node()?.ID);
  });
});
