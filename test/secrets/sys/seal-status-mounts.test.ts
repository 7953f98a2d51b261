/**
 * sys/init, sys/seal-status and sys/mounts in Vault's shapes, with this server's real values, and the
 * sys/auth enable fields Vault also takes (local, seal_wrap, external_entropy_access, options).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

let srv: InProcessServer;
let reader: string;

type Body = Record<string, unknown>;

async function tokenWith(policy: string): Promise<string> {
  const name = `p${Math.random().toString(16).slice(2, 10)}`;
  expect((await srv.request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } })).status).toBe(204);
  const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: [name] } });
  return ((created.body as Body).auth as Body).client_token as string;
}

beforeAll(async () => {
  srv = await startInProcessServer();
  srv.server.ready();
  reader = await tokenWith('path "sys/mounts" { capabilities = ["read"] }\npath "sys/mounts/*" { capabilities = ["read"] }');
});
afterAll(async () => {
  await srv?.close();
});

describe('sys/init and sys/seal-status', () => {
  it('sys/init answers initialized, with no token', async () => {
    const a = await srv.request('GET', '/v1/sys/init', { token: '' });
    expect(a).toMatchObject({ status: 200, body: { initialized: true } });
  });

  it("sys/seal-status answers Vault's shape with this server's values, with no token", async () => {
    const a = await srv.request('GET', '/v1/sys/seal-status', { token: '' });
    expect(a.status).toBe(200);
    const health = (await srv.request('GET', '/v1/sys/health', { token: '' })).body as Body;
    expect(a.body).toEqual({
      type: 'shamir',
      initialized: true,
      sealed: false,
      t: 1,
      n: 1,
      progress: 0,
      nonce: '',
      version: srv.server.services.version,
      build_date: '',
      migration: false,
      cluster_name: 'svc',
      cluster_id: health.cluster_id,
      recovery_seal: false,
      storage_type: 'inmem',
    });
  });

  it('with an external seal key the seal is "static", and an LMDB store is "lmdb"', async () => {
    const { makeTempDir } = await import('../../support/server.js');
    const { buildServer } = await import('../../../src/server/app.js');
    const { rm } = await import('node:fs/promises');
    const dataDir = await makeTempDir('svc-seal-');
    const key = Buffer.alloc(32, 7).toString('base64');
    const server = await buildServer({ dev: false, dataDir, client: false, logWrite: () => undefined, sealKey: { env: key } });
    try {
      const answer = await server.handle({ method: 'GET', path: '/v1/sys/seal-status', query: new URLSearchParams(), headers: {}, body: Buffer.alloc(0), remoteAddress: '127.0.0.1' });
      expect(JSON.parse(String(answer.body))).toMatchObject({ type: 'static', sealed: false, storage_type: 'lmdb' });
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('sys/mounts', () => {
  const mountShape = (type: string, description: string) => ({
    accessor: expect.stringMatching(new RegExp(`^${type}_[0-9a-f]{8}$`)),
    config: { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false },
    description,
    external_entropy_access: false,
    local: false,
    options: null,
    plugin_version: '',
    running_plugin_version: `v${srv.server.services.version}+builtin.svc`,
    running_sha256: '',
    seal_wrap: false,
    type,
    uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
  });

  it('lists the engines this server mounts, sys/ and identity/, in data and at the top level', async () => {
    const a = await srv.request('GET', '/v1/sys/mounts', { token: reader });
    expect(a.status).toBe(200);
    const body = a.body as Body;
    expect(body.data).toEqual({
      'identity/': mountShape('identity', 'identity store'),
      'sys/': mountShape('system', 'system endpoints used for control, policy and debugging'),
    });
    expect(body['sys/']).toEqual((body.data as Body)['sys/']);
  });

  it('reads one engine by its path, with or without the slash; a missing one is a 400 as in Vault', async () => {
    const all = ((await srv.request('GET', '/v1/sys/mounts')).body as Body).data as Body;
    for (const p of ['identity', 'identity/']) {
      const one = await srv.request('GET', `/v1/sys/mounts/${p}`, { token: reader });
      expect(one.status).toBe(200);
      expect((one.body as Body).data).toEqual(all['identity/']);
    }
    const missing = await srv.request('GET', '/v1/sys/mounts/kv');
    expect(missing).toMatchObject({ status: 400, body: { errors: ['No secret engine mount at kv/'] } });
  });

  it('keeps accessors and UUIDs across reads', async () => {
    const first = ((await srv.request('GET', '/v1/sys/mounts')).body as Body).data;
    const second = ((await srv.request('GET', '/v1/sys/mounts')).body as Body).data;
    expect(second).toEqual(first);
  });

  it('needs read on the path', async () => {
    const none = await tokenWith('path "sys/auth" { capabilities = ["read"] }');
    expect((await srv.request('GET', '/v1/sys/mounts', { token: none })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/mounts/sys', { token: none })).status).toBe(403);
    expect((await srv.request('GET', '/v1/sys/mounts', { token: '' })).status).toBe(403);
  });
});

describe('sys/auth enable: the mount fields Vault takes', () => {
  it('stores local, seal_wrap, external_entropy_access and options, answered in reads, with no warning', async () => {
    const a = await srv.request('POST', '/v1/sys/auth/flagged', {
      body: { type: 'cloud', local: true, seal_wrap: true, external_entropy_access: true, options: { version: '1' } },
    });
    expect(a.status).toBe(204);
    const one = ((await srv.request('GET', '/v1/sys/auth/flagged')).body as Body).data as Body;
    expect(one).toMatchObject({ local: true, seal_wrap: true, external_entropy_access: true, options: { version: '1' } });
    const listed = ((await srv.request('GET', '/v1/sys/auth')).body as Body)['flagged/'] as Body;
    expect(listed).toMatchObject({ local: true, seal_wrap: true, external_entropy_access: true, options: { version: '1' } });
  });

  it('without them the mount is not local, not seal-wrapped, and has no options', async () => {
    await srv.request('POST', '/v1/sys/auth/plain', { body: { type: 'cloud' } });
    const one = ((await srv.request('GET', '/v1/sys/auth/plain')).body as Body).data as Body;
    expect(one).toMatchObject({ local: false, seal_wrap: false, external_entropy_access: false, options: null });
  });

  it('a field of the wrong type is a 400 naming it, and nothing is mounted', async () => {
    const a = await srv.request('POST', '/v1/sys/auth/wrong', { body: { type: 'cloud', local: 'perhaps' } });
    expect(a.status).toBe(400);
    expect(JSON.stringify(a.body)).toContain('local');
    const b = await srv.request('POST', '/v1/sys/auth/wrong', { body: { type: 'cloud', options: { nested: { no: 1 } } } });
    expect(b.status).toBe(400);
    expect(JSON.stringify(b.body)).toContain('options');
    expect(((await srv.request('GET', '/v1/sys/auth')).body as Body)['wrong/']).toBeUndefined();
  });
});
