/**
 * Node reads and eligibility under Nomad's `node` rule: `read` reads, `write` also changes eligibility,
 * namespace rules alone grant nothing on nodes, and a `deny` in any policy of the token wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { statusOf, until } from '../../support/wait.js';

describe('node ACL rule', () => {
  let srv: InProcessServer;
  let node: FakeNode;
  const tokens: Record<string, string> = {};

  async function policy(name: string, text: string): Promise<void> {
    await srv.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
  }

  async function token(...policies: string[]): Promise<string> {
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies } });
    return String(created?.auth?.client_token);
  }

  const reads = (t: string) => [
    srv.client(t).scheduler('GET', '/v1/nodes'),
    srv.client(t).scheduler('GET', `/v1/node/${node.node.ID}`),
    srv.client(t).scheduler('GET', `/v1/node/${node.node.ID}/allocations`),
  ];
  const setEligibility = (t: string, eligibility: 'eligible' | 'ineligible') =>
    srv.client(t).scheduler('POST', `/v1/node/${node.node.ID}/eligibility`, { body: { Eligibility: eligibility } });

  beforeAll(async () => {
    srv = await startInProcessServer();
    node = fakeNode();
    await registerFakeNode(srv.client(), node);
    await policy('node-read', 'node {\n  policy = "read"\n}\n');
    await policy('node-write', JSON.stringify({ node: { policy: 'write' } }));
    await policy('node-deny', 'node { policy = "deny" }\n');
    await policy('ns-write', 'namespace "*" {\n  policy = "write"\n}\n');
    tokens.read = await token('node-read');
    tokens.write = await token('node-write');
    tokens.namespaceOnly = await token('ns-write');
    tokens.denyAndWrite = await token('node-deny', 'node-write');
    tokens.readAndWrite = await token('node-read', 'node-write');
  });
  afterAll(async () => srv?.close());

  it('node:read lists and reads nodes but cannot change eligibility', async () => {
    const list = (await srv.client(tokens.read).scheduler<Array<{ ID: string }>>('GET', '/v1/nodes')).body;
    expect(list.map((n) => n.ID)).toContain(node.node.ID);
    const one = (await srv.client(tokens.read).scheduler<{ ID: string; SecretID?: string }>('GET', `/v1/node/${node.node.ID}`)).body;
    expect(one.ID).toBe(node.node.ID);
    expect((await srv.client(tokens.read).scheduler<unknown[]>('GET', `/v1/node/${node.node.ID}/allocations`)).body).toEqual([]);
    expect(await statusOf(setEligibility(tokens.read, 'ineligible'))).toEqual({ code: 403, message: 'Permission denied' });
  });

  it('node:write reads nodes and changes eligibility', async () => {
    for (const r of await Promise.all(reads(tokens.write).map(statusOf))) expect(r.code).toBe(200);
    await setEligibility(tokens.write, 'ineligible');
    const after = (await srv.client(tokens.write).scheduler<{ SchedulingEligibility: string }>('GET', `/v1/node/${node.node.ID}`)).body;
    expect(after.SchedulingEligibility).toBe('ineligible');
    await setEligibility(tokens.write, 'eligible');
  });

  it('the most permissive of several node rules applies', async () => {
    expect((await statusOf(setEligibility(tokens.readAndWrite, 'eligible'))).code).toBe(200);
  });

  it("a node's allocations are shown only in the namespaces the token may read", async () => {
    await srv.client().scheduler('POST', '/v1/jobs', {
      body: { Job: { ID: 'on-node', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }] } },
    });
    await until(() => srv.client().scheduler<unknown[]>('GET', `/v1/node/${node.node.ID}/allocations`).then((r) => r.body), (l) => l.length === 1, 'the placement');
    await policy('default-read', 'namespace "default" { policy = "read" }');
    const both = await token('node-read', 'default-read');
    expect((await srv.client(both).scheduler<Array<{ JobID: string }>>('GET', `/v1/node/${node.node.ID}/allocations`)).body.map((a) => a.JobID)).toEqual(['on-node']);
    expect((await srv.client(tokens.read).scheduler<unknown[]>('GET', `/v1/node/${node.node.ID}/allocations`)).body).toEqual([]);
  });

  it('namespace rules alone grant nothing on nodes', async () => {
    for (const r of await Promise.all([...reads(tokens.namespaceOnly), setEligibility(tokens.namespaceOnly, 'eligible')].map(statusOf))) {
      expect(r).toEqual({ code: 403, message: 'Permission denied' });
    }
  });

  it('a deny in one policy beats write in another', async () => {
    for (const r of await Promise.all([...reads(tokens.denyAndWrite), setEligibility(tokens.denyAndWrite, 'eligible')].map(statusOf))) {
      expect(r).toEqual({ code: 403, message: 'Permission denied' });
    }
  });

  it('the node rule opens only node reads and eligibility, not registration', async () => {
    const other = fakeNode();
    const r = await statusOf(srv.client(tokens.write).scheduler('PUT', '/v1/node/register', { body: { Node: other.node, SecretID: other.secret } }));
    expect(r.code).toBe(403);
  });

  it('policy reads return the node rule as written', async () => {
    const read = await srv.client().secrets('GET', 'sys/policies/acl/node-read');
    expect(read?.data?.policy).toBe('node {\n  policy = "read"\n}\n');
  });
});
