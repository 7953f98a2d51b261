/**
 * GET /v1/acl/token/self answers the caller's own token in Nomad's ACLToken shape: the root token as a
 * management token, any other as a client token with its policies and expiry; no token, or an unknown
 * one, is refused as Nomad refuses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

interface AclToken {
  AccessorID: string;
  SecretID: string;
  Name: string;
  Type: string;
  Policies: string[] | null;
  Roles: unknown[];
  Global: boolean;
  Hash: string;
  CreateTime: string;
  ExpirationTime: string | null;
  ExpirationTTL: number;
  CreateIndex: number;
  ModifyIndex: number;
}

describe('GET /v1/acl/token/self', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  const lookupSelf = async (token: string) => ((await srv.request('GET', '/v1/auth/token/lookup-self', { token })).body as { data: { accessor: string; display_name: string } }).data;

  it('answers the root token as a management token, with its secret and accessor', async () => {
    const before = Date.now();
    const res = await srv.request('GET', '/v1/acl/token/self');
    expect(res.status).toBe(200);
    const token = res.body as AclToken;
    const looked = await lookupSelf(srv.rootToken);
    expect(token).toMatchObject({ SecretID: srv.rootToken, AccessorID: looked.accessor, Name: looked.display_name, Type: 'management', Policies: null, Roles: [], Global: false, ExpirationTime: null, ExpirationTTL: 0 });
    expect(Date.parse(token.CreateTime)).toBeLessThanOrEqual(before);
    expect(token.Hash).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Object.keys(token).sort()).toEqual(['AccessorID', 'CreateIndex', 'CreateTime', 'ExpirationTTL', 'ExpirationTime', 'Global', 'Hash', 'ModifyIndex', 'Name', 'Policies', 'Roles', 'SecretID', 'Type']);
  });

  it('answers any other token as a client token with its policies and expiry', async () => {
    await srv.request('PUT', '/v1/sys/policies/acl/readers', { body: { policy: 'namespace "default" { policy = "read" }' } });
    const created = await srv.request('POST', '/v1/auth/token/create', { body: { policies: ['readers'], ttl: '1h', display_name: 'ci' } });
    const secret = (created.body as { auth: { client_token: string } }).auth.client_token;
    const before = Date.now();
    const res = await srv.request('GET', '/v1/acl/token/self', { token: secret });
    expect(res.status).toBe(200);
    const token = res.body as AclToken;
    expect(token).toMatchObject({ SecretID: secret, AccessorID: (await lookupSelf(secret)).accessor, Type: 'client', ExpirationTTL: 3600e9 });
    expect(token.Policies).toEqual(expect.arrayContaining(['readers']));
    const expires = Date.parse(token.ExpirationTime ?? '');
    expect(expires).toBeGreaterThan(before + 3500_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3600_000);
    // Another token's answer differs in its hash: it covers the token's own fields.
    expect(token.Hash).not.toBe(((await srv.request('GET', '/v1/acl/token/self')).body as AclToken).Hash);
  });

  it('refuses a request without a token, or with an unknown one', async () => {
    expect(await srv.request('GET', '/v1/acl/token/self', { token: '' })).toMatchObject({ status: 403, body: 'Permission denied' });
    expect(await srv.request('GET', '/v1/acl/token/self', { token: 'not-a-token' })).toMatchObject({ status: 403, body: 'ACL token not found' });
  });

  it('answers only GET', async () => {
    expect((await srv.request('POST', '/v1/acl/token/self')).status).toBe(405);
  });
});
