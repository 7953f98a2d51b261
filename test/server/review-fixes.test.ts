/** Rules found by review: each test fails if its hole reopens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/shared/errors.js';
import { buildServer } from '../../src/server/app.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { ApiClient } from '../../src/api/http/client.js';

const statusOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as ApiError).statusCode;
  }
};

describe('ACL cannot be side-stepped', () => {
  let srv: TestServer;
  let token: string;
  beforeAll(async () => {
    srv = await startTestServer();
    const policy = [
      'path "auth/token/*" { capabilities = ["create", "update", "read"] }',
      'path "auth/token/create-orphan" { capabilities = ["deny"] }',
      'path "sys/*" { capabilities = ["create", "update", "read", "list", "sudo"] }',
      'path "sys/policy/*" { capabilities = ["deny"] }',
      'path "sys/policies/acl/*" { capabilities = ["deny"] }',
      'path "identity/*" { capabilities = ["create", "update", "read"] }',
    ].join('\n');
    await srv.client().secrets('PUT', 'sys/policies/acl/tricky', { body: { policy } });
    token = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['tricky'] } }))?.auth?.client_token);
  });
  afterAll(async () => srv?.close());

  it('refuses paths with empty segments instead of routing them past the rules', async () => {
    const c = srv.client(token);
    expect(await statusOf(c.secrets('POST', 'auth/token/create-orphan', { body: {} }))).toBe(403);
    expect(await statusOf(c.secrets('POST', 'auth/token//create-orphan', { body: {} }))).toBe(400);
    expect(await statusOf(c.secrets('POST', 'auth/token%2F/create-orphan', { body: {} }))).toBe(400);
    expect(await statusOf(c.secrets('PUT', 'sys//policy/evil', { body: { policy: 'path "*" { capabilities = ["sudo"] }' } }))).toBe(400);
    expect(await statusOf(srv.client().secrets('GET', 'sys/policy/evil'))).toBe(404);
  });

  it('keeps a deny on a listed prefix even when a broader glob grants list', async () => {
    expect(await statusOf(srv.client(token).secrets('LIST', 'sys/policies/acl/'))).toBe(403);
    expect(await statusOf(srv.client(token).secrets('GET', 'sys/policies/acl', { query: { list: 'true' } }))).toBe(403);
  });

  it('refuses the root policy on an entity, so writing entities is not a way to root', async () => {
    const answer = srv.client(token).secrets('POST', 'identity/entity', { body: { name: 'evil', policies: ['root'] } });
    await expect(answer).rejects.toMatchObject({ statusCode: 400, errors: ['policies cannot contain root'] });
  });

  it('answers 403, not 405, to a caller who may not use the path at all', async () => {
    expect(await statusOf(srv.client(token).secrets('DELETE', 'auth/token/lookup-self'))).toBe(403);
    expect(await statusOf(srv.client().secrets('DELETE', 'auth/token/lookup-self'))).toBe(405);
  });

  it('counts a use for a refused request and for a help request', async () => {
    const once = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'], num_uses: 2 } }))?.auth?.client_token);
    expect(await statusOf(srv.client(once).secrets('GET', 'sys/policies/acl/default'))).toBe(403);
    expect(await statusOf(srv.client(once).secrets('GET', 'auth/token/lookup-self', { query: { help: '1' } }))).toBe(200);
    expect(await statusOf(srv.client(once).secrets('GET', 'auth/token/lookup-self'))).toBe(403);
  });

  it('answers 400, not 500, to names longer than storage keys allow', async () => {
    expect(await statusOf(srv.client().secrets('PUT', `sys/policies/acl/${'p'.repeat(3000)}`, { body: { policy: '' } }))).toBe(400);
    expect(await statusOf(srv.client().secrets('POST', 'identity/entity', { body: { name: 'n'.repeat(3000) } }))).toBe(400);
  });

  it('answers a badly encoded secrets path in the secrets error shape', async () => {
    await expect(srv.client().secrets('GET', 'sys/%zz')).rejects.toMatchObject({ statusCode: 400, errors: [expect.stringContaining('invalid URL path encoding')] });
  });

  it('refuses "." and ".." as mount path segments', async () => {
    // HTTP clients resolve dot segments themselves, so the mount table is checked directly.
    const { normaliseAuthPath } = await import('../../src/secrets/mounts/mount-table.js');
    expect(() => normaliseAuthPath('a/..')).toThrow(/invalid mount path/);
    expect(() => normaliseAuthPath('..')).toThrow(/invalid mount path/);
    expect(normaliseAuthPath('a.b')).toBe('auth/a.b/');
  });
});

describe('shutdown and restart', () => {
  it('lets a blocking query finish before storage closes', async () => {
    const dataDir = await makeTempDir();
    const server = await buildServer({ dev: false, dataDir, port: 0, logWrite: () => undefined });
    const { port } = await server.listen();
    const client = new ApiClient({ address: `http://127.0.0.1:${port}`, token: server.rootToken });
    const first = await client.scheduler('GET', '/v1/namespaces');
    const blocked = client.scheduler('GET', '/v1/namespaces', { query: { index: first.index, wait: '60s' } });
    await new Promise((r) => setTimeout(r, 200));
    // The query asked for 60 s, twice the test's time limit: it must be answered when shutdown begins.
    await server.close();
    const answer = await blocked;
    expect(answer.index).toBe(first.index);
  });

  it('-dev on a kept data dir reuses a fixed root token, and revokes a random one', async () => {
    const dataDir = await makeTempDir();
    const start = async (devRootTokenId?: string) => {
      const s = await buildServer({ dev: true, dataDir, port: 0, devRootTokenId, logWrite: () => undefined });
      const { port } = await s.listen();
      return { s, url: `http://127.0.0.1:${port}` };
    };
    let { s, url } = await start('fixed-root');
    await s.close();
    ({ s, url } = await start('fixed-root'));
    expect(s.rootToken).toBe('fixed-root');
    expect(await statusOf(new ApiClient({ address: url, token: 'fixed-root' }).secrets('GET', 'auth/token/lookup-self'))).toBe(200);
    await s.close();
    ({ s, url } = await start());
    const firstRandom = s.rootToken!;
    await s.close();
    ({ s, url } = await start());
    expect(await statusOf(new ApiClient({ address: url, token: firstRandom }).secrets('GET', 'auth/token/lookup-self'))).toBe(403);
    expect(await statusOf(new ApiClient({ address: url, token: s.rootToken }).secrets('GET', 'auth/token/lookup-self'))).toBe(200);
    await s.close();
  });
});

describe('tokens of a disabled auth mount', () => {
  it('are refused even if the clean-up missed them', async () => {
    const srv = await startTestServer();
    try {
      const { services } = srv.server;
      const mount = await services.mounts.enable('racy', 'cloud');
      const { secret } = await services.tokens.create({ policies: ['default'], path: 'auth/racy/login', mountAccessor: mount.accessor });
      expect(await statusOf(srv.client(secret).secrets('GET', 'auth/token/lookup-self'))).toBe(200);
      // As if a login had finished after the disable hooks ran: the mount is gone, the token is not.
      await services.store.write((tx) => tx.delete('mounts', mount.path));
      expect(await statusOf(srv.client(secret).secrets('GET', 'auth/token/lookup-self'))).toBe(403);
      expect(await statusOf(srv.client(secret).scheduler('GET', '/v1/namespaces'))).toBe(403);
    } finally {
      await srv.close();
    }
  });
});
