/**
 * sys/internal/ui/mounts as Vault answers it: the mount a path is under, with its KV version, for a
 * token with any capability under that mount (not only read on sys/mounts); the same 403 for a mount
 * out of reach and for a path under no mount; the listing limited to what the token reaches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let srv: InProcessServer;
let appReader: string;

type Body = Record<string, unknown>;

async function tokenWith(policy: string): Promise<string> {
  const name = `p${Math.random().toString(16).slice(2, 10)}`;
  expect((await srv.request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } })).status).toBe(204);
  const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: [name], no_default_policy: true } });
  return ((created.body as Body).auth as Body).client_token as string;
}

const refusal = (path: string) => ({
  status: 403,
  body: { errors: [`preflight capability check returned 403, please ensure client's policies grant access to path "${path}"`] },
});

beforeAll(async () => {
  srv = await startInProcessServer();
  srv.server.ready();
  expect((await srv.request('POST', '/v1/sys/mounts/secret', { body: { type: 'kv', options: { version: '2' }, description: 'app secrets' } })).status).toBe(204);
  expect((await srv.request('POST', '/v1/sys/mounts/kv1', { body: { type: 'kv' } })).status).toBe(204);
  appReader = await tokenWith('path "secret/data/app/*" { capabilities = ["read"] }');
});
afterAll(async () => {
  await srv?.close();
});

describe('sys/internal/ui/mounts/<path>', () => {
  it('answers the mount, its version and its settings to a token with only read on secret/data/app/*', async () => {
    const a = await srv.request('GET', '/v1/sys/internal/ui/mounts/secret/app/x', { token: appReader });
    expect(a.status).toBe(200);
    const mounts = (await srv.request('GET', '/v1/sys/mounts')).body as Body;
    const listed = (mounts.data as Body)['secret/'] as Body;
    expect((a.body as Body).data).toEqual({ ...listed, path: 'secret/' });
    expect((a.body as Body).data).toMatchObject({ path: 'secret/', type: 'kv', description: 'app secrets', options: { version: '2' }, local: false, seal_wrap: false });
    // That token may not read sys/mounts: the preflight is what lets it find the mount.
    expect((await srv.request('GET', '/v1/sys/mounts', { token: appReader })).status).toBe(403);
  });

  it('refuses a mount the token has nothing under, and a path under no mount, alike', async () => {
    expect(await srv.request('GET', '/v1/sys/internal/ui/mounts/kv1/app', { token: appReader })).toEqual(expect.objectContaining(refusal('kv1/app/')));
    expect(await srv.request('GET', '/v1/sys/internal/ui/mounts/nowhere/x', { token: appReader })).toEqual(expect.objectContaining(refusal('nowhere/x/')));
    expect(await srv.request('GET', '/v1/sys/internal/ui/mounts/nowhere/x')).toEqual(expect.objectContaining(refusal('nowhere/x/')));
  });

  it('needs a token', async () => {
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/secret/app/x', { token: '' })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/secret/app/x', { token: 'not-a-token' })).status).toBe(403);
  });

  it('a deny under the mount reaches nothing; a capability on the mount path itself or a + segment does', async () => {
    const denied = await tokenWith('path "secret/data/app/*" { capabilities = ["deny"] }');
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/secret/app', { token: denied })).status).toBe(403);
    const onMount = await tokenWith('path "kv1/" { capabilities = ["list"] }');
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/kv1', { token: onMount })).body).toMatchObject({ data: { path: 'kv1/', type: 'kv', options: null } });
    const segment = await tokenWith('path "+/data/shared" { capabilities = ["read"] }');
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/secret/shared', { token: segment })).status).toBe(200);
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/kv1/shared', { token: segment })).status).toBe(200);
  });

  it('answers the same at sys/mounts-all/<path>, where the newer Vault CLI asks', async () => {
    const ui = await srv.request('GET', '/v1/sys/internal/ui/mounts/secret/app/x', { token: appReader });
    const all = await srv.request('GET', '/v1/sys/mounts-all/secret/app/x', { token: appReader });
    expect(all.status).toBe(200);
    expect((all.body as Body).data).toEqual((ui.body as Body).data);
    expect(await srv.request('GET', '/v1/sys/mounts-all/kv1/app', { token: appReader })).toEqual(expect.objectContaining(refusal('kv1/app/')));
  });

  it('answers auth mounts by their path relative to auth/', async () => {
    const tokenSelf = await tokenWith('path "auth/token/lookup-self" { capabilities = ["read"] }');
    const a = await srv.request('GET', '/v1/sys/internal/ui/mounts/auth/token/lookup-self', { token: tokenSelf });
    expect(a).toMatchObject({ status: 200, body: { data: { path: 'token/', type: 'token' } } });
    expect((await srv.request('GET', '/v1/sys/internal/ui/mounts/auth/token', { token: appReader })).status).toBe(403);
  });
});

describe('sys/internal/ui/mounts', () => {
  it('lists only the mounts the token reaches', async () => {
    const a = await srv.request('GET', '/v1/sys/internal/ui/mounts', { token: appReader });
    expect(a.status).toBe(200);
    const data = (a.body as Body).data as { secret: Body; auth: Body };
    expect(Object.keys(data.secret)).toEqual(['secret/']);
    expect(data.secret['secret/']).toMatchObject({ type: 'kv', options: { version: '2' } });
    expect(data.auth).toEqual({});
    const root = ((await srv.request('GET', '/v1/sys/internal/ui/mounts')).body as Body).data as { secret: Body; auth: Body };
    expect(Object.keys(root.secret).sort()).toEqual(['identity/', 'kv1/', 'secret/', 'sys/']);
    expect(Object.keys(root.auth)).toContain('token/');
  });

  it('without a token, only auth mounts tuned to listing_visibility "unauth", with type, description and options', async () => {
    const before = ((await srv.request('GET', '/v1/sys/internal/ui/mounts', { token: '' })).body as Body).data;
    expect(before).toEqual({ secret: {}, auth: {} });
    expect((await srv.request('POST', '/v1/sys/auth/token/tune', { body: { listing_visibility: 'unauth' } })).status).toBe(204);
    const after = ((await srv.request('GET', '/v1/sys/internal/ui/mounts', { token: '' })).body as Body).data as { auth: Body };
    expect(after.auth).toEqual({ 'token/': { type: 'token', description: expect.any(String), options: null } });
  });
});
