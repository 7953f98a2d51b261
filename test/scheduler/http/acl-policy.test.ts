/**
 * GET /v1/acl/policies and /v1/acl/policy/:name answer svc's policies in Nomad's ACLPolicy shape: a
 * management token reads every one, any other token only those its ACL is made of (its entity's
 * included); RulesJSON holds the Nomad rules, the namespace shortcuts expanded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let srv: InProcessServer;
let limited: string;

const tokenWith = async (policies: string[]) =>
  ((await srv.request('POST', '/v1/auth/token/create', { body: { policies, ttl: '1h' } })).body as { auth: { client_token: string } }).auth.client_token;

beforeAll(async () => {
  srv = await startInProcessServer();
  await srv.request('PUT', '/v1/sys/policies/acl/readers', {
    body: { policy: 'namespace "default" { policy = "read" }\nnamespace "web-*" { capabilities = ["submit-job"] }\nnode { policy = "write" }\npath "secret/*" { capabilities = ["read"] }' },
  });
  await srv.request('PUT', '/v1/sys/policies/acl/other', { body: { policy: 'agent { policy = "read" }' } });
  limited = await tokenWith(['readers']);
});

afterAll(async () => srv?.close());

describe('ACL policies in Nomad\'s shape', () => {
  it('lists every policy to a management token, and only its own to another', async () => {
    const all = await srv.request('GET', '/v1/acl/policies');
    expect(all.status).toBe(200);
    expect((all.body as Array<{ Name: string }>).map((p) => p.Name)).toEqual(['default', 'other', 'readers', 'root']);
    expect(Object.keys((all.body as object[])[1]).sort()).toEqual(['CreateIndex', 'Description', 'ModifyIndex', 'Name']);
    const own = await srv.request('GET', '/v1/acl/policies', { token: limited });
    expect((own.body as Array<{ Name: string }>).map((p) => p.Name)).toEqual(['default', 'readers']);
    const prefixed = await srv.request('GET', '/v1/acl/policies?prefix=re');
    expect((prefixed.body as Array<{ Name: string }>).map((p) => p.Name)).toEqual(['readers']);
  });

  it('reads a policy with its text and its Nomad rules parsed, shortcuts expanded', async () => {
    const res = await srv.request('GET', '/v1/acl/policy/readers', { token: limited });
    expect(res.status).toBe(200);
    const policy = res.body as { Name: string; Rules: string; RulesJSON: { Namespaces: Array<{ Name: string; Capabilities: string[] }>; Node: unknown; Agent: unknown } };
    expect(policy.Name).toBe('readers');
    expect(policy.Rules).toContain('path "secret/*"');
    expect(policy.RulesJSON.Namespaces.map((n) => n.Name)).toEqual(['default', 'web-*']);
    expect(policy.RulesJSON.Namespaces[0].Capabilities).toEqual(expect.arrayContaining(['list-jobs', 'read-job']));
    expect(policy.RulesJSON.Namespaces[0].Capabilities).not.toContain('submit-job');
    expect(policy.RulesJSON.Namespaces[1].Capabilities).toEqual(['submit-job']);
    expect(policy.RulesJSON.Node).toEqual({ Policy: 'write' });
    expect(policy.RulesJSON.Agent).toBeNull();
  });

  it('refuses a policy the token does not hold, whether or not it exists, and answers 404 to management for a missing one', async () => {
    for (const name of ['other', 'no-such-policy']) {
      const res = await srv.request('GET', `/v1/acl/policy/${name}`, { token: limited });
      expect([res.status, String(res.body).trim()]).toEqual([403, 'Permission denied']);
    }
    const missing = await srv.request('GET', '/v1/acl/policy/no-such-policy');
    expect([missing.status, String(missing.body).trim()]).toEqual([404, 'ACL policy not found']);
    const anonymous = await srv.request('GET', '/v1/acl/policies', { token: '' });
    expect(anonymous.status).toBe(403);
  });
});

describe('ACL policies of a token\'s entity', () => {
  it('are listed and readable to the token, as its ACL holds them', async () => {
    await srv.request('PUT', '/v1/sys/policies/acl/from-entity', { body: { policy: 'namespace "ops" { policy = "write" }' } });
    const entity = (await srv.request('POST', '/v1/identity/entity', { body: { name: 'builder', policies: ['from-entity'] } })).body as { data: { id: string } };
    const { secret } = await srv.server.services.tokens.create({
      policies: ['readers'],
      entityId: entity.data.id,
      path: 'auth/token/create',
      mountAccessor: srv.server.services.mounts.get('auth/token/')!.accessor,
      orphan: true,
    });
    const own = await srv.request('GET', '/v1/acl/policies', { token: secret });
    expect((own.body as Array<{ Name: string }>).map((p) => p.Name)).toEqual(['default', 'from-entity', 'readers']);
    const read = await srv.request('GET', '/v1/acl/policy/from-entity', { token: secret });
    expect(read.status).toBe(200);
    expect((read.body as { RulesJSON: { Namespaces: Array<{ Name: string; Capabilities: string[] }> } }).RulesJSON.Namespaces[0]).toMatchObject({ Name: 'ops', Capabilities: expect.arrayContaining(['submit-job']) });
  });
});

describe('ACL policies, blocking', () => {
  it('a blocking listing answers once a policy is written, and again once one is deleted', async () => {
    const first = await srv.request('GET', '/v1/acl/policies');
    const index = Number(first.headers['x-nomad-index']);
    expect(index).toBeGreaterThan(0);
    const waiting = srv.request('GET', `/v1/acl/policies?index=${index}&wait=30s`);
    await srv.request('PUT', '/v1/sys/policies/acl/later', { body: { policy: 'node { policy = "read" }' } });
    const woken = await waiting;
    expect((woken.body as Array<{ Name: string }>).map((p) => p.Name)).toContain('later');
    const afterWrite = Number(woken.headers['x-nomad-index']);
    expect(afterWrite).toBeGreaterThan(index);

    const again = srv.request('GET', `/v1/acl/policies?index=${afterWrite}&wait=30s`);
    await srv.request('DELETE', '/v1/sys/policies/acl/later');
    const gone = await again;
    expect((gone.body as Array<{ Name: string }>).map((p) => p.Name)).not.toContain('later');
    expect(Number(gone.headers['x-nomad-index'])).toBeGreaterThan(afterWrite);
  });
});
