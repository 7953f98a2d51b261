/**
 * Nomad's one-time tokens: a token makes a code, the code is exchanged once, within ten minutes, for
 * that token (secret included); a second exchange, a late one, or one for a token revoked meanwhile is
 * refused; a request without a code names the field; the code is not the token and is stored hashed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

interface OneTime {
  OneTimeToken: { OneTimeSecretID: string; AccessorID: string; ExpiresAt: string; CreateIndex: number; ModifyIndex: number };
}
interface Exchanged {
  Token: { SecretID: string; AccessorID: string; Type: string; Policies: string[] | null };
}

describe('POST /v1/acl/token/onetime and .../exchange', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());
  afterEach(() => vi.useRealTimers());

  const make = async (token?: string) => {
    const res = await srv.request('POST', '/v1/acl/token/onetime', { token });
    expect(res.status).toBe(200);
    return (res.body as OneTime).OneTimeToken;
  };
  const exchange = (code: unknown) => srv.request('POST', '/v1/acl/token/onetime/exchange', { token: '', body: { OneTimeSecretID: code } });

  it('trades a code once for the token that made it, in ACLToken shape', async () => {
    const before = Date.now();
    const ott = await make();
    const self = (await srv.request('GET', '/v1/acl/token/self')).body as { AccessorID: string };
    expect(ott.AccessorID).toBe(self.AccessorID);
    expect(ott.OneTimeSecretID).not.toBe(srv.rootToken);
    expect(Date.parse(ott.ExpiresAt) - before).toBeGreaterThanOrEqual(10 * 60 * 1000);
    expect(Date.parse(ott.ExpiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);

    const first = await exchange(ott.OneTimeSecretID);
    expect(first.status).toBe(200);
    expect((first.body as Exchanged).Token).toMatchObject({ SecretID: srv.rootToken, AccessorID: self.AccessorID, Type: 'management' });

    const second = await exchange(ott.OneTimeSecretID);
    expect(second.status).toBe(403);
    expect(second.body).toMatch(/one-time token is unknown, already used or expired/);
  });

  it('hands a client token back as a client token, and nothing once that token is revoked', async () => {
    await srv.request('PUT', '/v1/sys/policies/acl/readers', { body: { policy: 'namespace "default" { policy = "read" }' } });
    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['readers'] } });
    const secret = (created.body as { auth: { client_token: string } }).auth.client_token;
    const kept = await make(secret);
    const exchanged = await exchange(kept.OneTimeSecretID);
    expect((exchanged.body as Exchanged).Token).toMatchObject({ SecretID: secret, Type: 'client', Policies: ['default', 'readers'] });

    const orphaned = await make(secret);
    expect((await srv.request('POST', '/v1/auth/token/revoke', { body: { token: secret } })).status).toBe(204);
    expect((await exchange(orphaned.OneTimeSecretID)).status).toBe(403);
  });

  it('refuses a code past its ten minutes', async () => {
    const ott = await make();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(ott.ExpiresAt) + 1);
    const late = await exchange(ott.OneTimeSecretID);
    expect(late.status).toBe(403);
  });

  it('needs a token to make a code, and names the field an exchange lacks', async () => {
    expect((await srv.request('POST', '/v1/acl/token/onetime', { token: '' })).status).toBe(403);
    for (const body of [{}, { OneTimeSecretID: '' }, { OneTimeSecretID: 7 }]) {
      const res = await srv.request('POST', '/v1/acl/token/onetime/exchange', { token: '', body });
      expect(res.status).toBe(400);
      expect(res.body).toMatch(/OneTimeSecretID/);
    }
    const notJson = await srv.request('POST', '/v1/acl/token/onetime/exchange', { token: '', body: ['x'] });
    expect(notJson.status).toBe(400);
    expect((await exchange('no-such-code')).status).toBe(403);
  });

  it('keeps neither the code nor the token in the store in the clear', async () => {
    const ott = await make();
    const rows = srv.server.services.store.list<Record<string, unknown>>('acl-onetime-tokens');
    expect(rows.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(ott.OneTimeSecretID);
    expect(stored).not.toContain(srv.rootToken);
  });
});
