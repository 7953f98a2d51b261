/**
 * The secrets envelope as Vault's framework and HTTP layer answer it: a handler that answers nothing is a
 * 204 whatever the request held (the "ignored parameters" warning goes only on an answer there is), a
 * deprecated path alias answers as its current path does, and the sys/ routes Vault injects at the top
 * level repeat `data`'s keys beside the envelope's, those routes only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let srv: InProcessServer;

beforeAll(async () => {
  srv = await startInProcessServer();
  expect((await srv.request('POST', '/v1/sys/auth/cloud', { body: { type: 'cloud' } })).status).toBe(204);
  expect((await srv.request('PUT', '/v1/sys/policies/acl/envelope', { body: { policy: 'path "x" { capabilities = ["read"] }' } })).status).toBe(204);
});
afterAll(async () => {
  await srv?.close();
});

type Body = Record<string, unknown>;

describe('warnings never turn a 204 into a 200', () => {
  it('a write that answers nothing is a 204 with no body, unknown parameters or not', async () => {
    const a = await srv.request('PUT', '/v1/sys/policies/acl/envelope', { body: { policy: 'path "y" { capabilities = ["read"] }', bogus: 1 } });
    expect(a.status).toBe(204);
    expect(a.body).toBe('');
  });

  it('a delete that answers nothing is a 204, unknown query parameters or not', async () => {
    await srv.request('PUT', '/v1/sys/policies/acl/gone', { body: { policy: 'path "x" { capabilities = ["read"] }' } });
    const a = await srv.request('DELETE', '/v1/sys/policies/acl/gone?surprise=1');
    expect(a.status).toBe(204);
    expect(a.body).toBe('');
  });

  it('an answer there is still carries the warning', async () => {
    const a = await srv.request('GET', '/v1/sys/policies/acl/envelope?surprise=1');
    expect(a.status).toBe(200);
    expect((a.body as Body).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [surprise]']);
  });

  it('a deprecated path alias answers as its current path, without a warning of its own', async () => {
    const body = { safety_buffer: '1h' };
    const old = await srv.request('POST', '/v1/auth/cloud/config/tidy/identity-whitelist', { body });
    expect(old.status).toBe(204);
    const read = await srv.request('GET', '/v1/auth/cloud/config/tidy/identity-whitelist');
    const current = await srv.request('GET', '/v1/auth/cloud/config/tidy/identity-accesslist');
    expect(read.status).toBe(200);
    expect((read.body as Body).warnings).toBeNull();
    expect((read.body as Body).data).toEqual((current.body as Body).data);
  });
});

describe("data at the top level, on Vault's routes only", () => {
  const envelopeKeys = ['request_id', 'lease_id', 'renewable', 'lease_duration', 'data', 'wrap_info', 'warnings', 'auth'];

  async function topLevel(method: string, p: string, body?: unknown): Promise<{ data: Body; extra: string[] }> {
    const a = await srv.request(method, p, { body });
    expect(a.status, p).toBe(200);
    const json = a.body as Body;
    return { data: json.data as Body, extra: Object.keys(json).filter((k) => !envelopeKeys.includes(k)) };
  }

  it.each([
    ['GET', '/v1/sys/auth', undefined],
    ['GET', '/v1/sys/auth/token', undefined],
    ['GET', '/v1/sys/auth/cloud/tune', undefined],
    ['GET', '/v1/sys/policy', undefined],
    ['GET', '/v1/sys/policy/envelope', undefined],
    ['POST', '/v1/sys/capabilities-self', { path: 'x' }],
    ['GET', '/v1/sys/mounts', undefined],
    ['GET', '/v1/sys/mounts/sys', undefined],
    ['GET', '/v1/sys/audit', undefined],
    ['GET', '/v1/sys/ha-status', undefined],
  ])('%s %s repeats data at the top level', async (method, p, body) => {
    const { data, extra } = await topLevel(method, p, body);
    expect(extra.sort()).toEqual(Object.keys(data ?? {}).filter((k) => !envelopeKeys.includes(k)).sort());
    if (p !== '/v1/sys/audit') expect(extra.length).toBeGreaterThan(0);
  });

  it('sys/capabilities and sys/capabilities-accessor are among them', async () => {
    const token = ((await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['envelope'] } })).body as { auth: Body }).auth;
    const byToken = await topLevel('POST', '/v1/sys/capabilities', { token: token.client_token, path: 'x' });
    expect(byToken.extra.sort()).toEqual(['capabilities', 'x']);
    const byAccessor = await topLevel('POST', '/v1/sys/capabilities-accessor', { accessor: token.accessor, path: 'x' });
    expect(byAccessor.extra.sort()).toEqual(['capabilities', 'x']);
  });

  it('the newer policy paths and other routes do not', async () => {
    for (const p of ['/v1/sys/policies/acl/envelope', '/v1/auth/token/lookup-self', '/v1/sys/auth-nothing']) {
      const a = await srv.request('GET', p);
      if (a.status !== 200) continue;
      expect(Object.keys(a.body as Body).filter((k) => !envelopeKeys.includes(k)), p).toEqual([]);
    }
    const listed = await srv.request('LIST', '/v1/sys/policies/acl');
    expect(Object.keys(listed.body as Body).sort()).toEqual([...envelopeKeys].sort());
  });
});
