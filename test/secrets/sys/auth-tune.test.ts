import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { ApiError } from '../../../src/shared/errors.js';

let ts: InProcessServer;

beforeAll(async () => {
  ts = await startInProcessServer();
  await ts.client().secrets('POST', 'sys/auth/ci', { body: { type: 'cloud', description: 'CI machines' } });
});

afterAll(async () => {
  await ts?.close();
});

const tune = async (path: string) => (await ts.client().secrets('GET', `sys/auth/${path}/tune`))!.data;
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as ApiError);

describe('sys/auth/<path>/tune', () => {
  it('reads the settings in force: the system TTLs where the mount has none', async () => {
    expect(await tune('ci')).toEqual({ description: 'CI machines', default_lease_ttl: 2764800, max_lease_ttl: 2764800, force_no_cache: false, token_type: 'default-service' });
  });

  it('changes only what is given, and shows it in sys/auth too', async () => {
    await ts.client().secrets('POST', 'sys/auth/ci/tune', { body: { default_lease_ttl: '1h', listing_visibility: 'unauth', token_type: 'default-batch' } });
    expect(await tune('ci')).toEqual({ description: 'CI machines', default_lease_ttl: 3600, max_lease_ttl: 2764800, force_no_cache: false, token_type: 'default-batch', listing_visibility: 'unauth' });
    await ts.client().secrets('POST', 'sys/auth/ci/tune', { body: { description: 'builders', max_lease_ttl: 7200, default_lease_ttl: 'system' } });
    const mount = (await ts.client().secrets('GET', 'sys/auth'))!.data!['ci/'] as Record<string, unknown>;
    expect(mount).toMatchObject({ description: 'builders', config: { default_lease_ttl: 0, max_lease_ttl: 7200, token_type: 'default-batch' } });
    // Without a default of its own, the system's capped at the mount's maximum.
    expect(await tune('ci')).toMatchObject({ default_lease_ttl: 7200, max_lease_ttl: 7200 });
  });

  it('refuses a default above the maximum, a bad visibility, token_type on the token method, and a missing mount', async () => {
    const above = await failure(ts.client().secrets('POST', 'sys/auth/ci/tune', { body: { default_lease_ttl: '3h' } }));
    expect(above?.statusCode).toBe(400);
    expect(above?.errors[0]).toContain('less than backend default lease TTL');
    expect((await failure(ts.client().secrets('POST', 'sys/auth/ci/tune', { body: { listing_visibility: 'public' } })))?.statusCode).toBe(400);
    const tokenType = await failure(ts.client().secrets('POST', 'sys/auth/token/tune', { body: { token_type: 'batch' } }));
    expect(tokenType?.errors).toEqual(["token_type cannot be set for 'token' auth mount"]);
    const missing = await failure(ts.client().secrets('GET', 'sys/auth/nothing/tune'));
    expect(missing?.errors).toEqual(['cannot fetch mount entry on "auth/nothing/"']);
  });

  it('needs sudo, as everything under sys/auth/ does', async () => {
    await ts.client().secrets('PUT', 'sys/policies/acl/tuner', { body: { policy: 'path "sys/auth/*" {\n  capabilities = ["read", "update"]\n}\n' } });
    const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['tuner'] } });
    const denied = await failure(ts.client(created!.auth!.client_token as string).secrets('GET', 'sys/auth/ci/tune'));
    expect(denied?.statusCode).toBe(403);
  });

  it("applies the token method's tuned TTLs to tokens it issues afterwards", async () => {
    await ts.client().secrets('POST', 'sys/auth/token/tune', { body: { default_lease_ttl: '1h', max_lease_ttl: '2h' } });
    try {
      const plain = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } });
      expect(plain!.auth!.lease_duration).toBe(3600);
      const long = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'], ttl: '5h' } });
      expect(long!.auth!.lease_duration).toBe(7200);
      // A root token asked for without a TTL still never expires.
      const root = await ts.client().secrets('POST', 'auth/token/create', { body: {} });
      expect(root!.auth!.lease_duration).toBe(0);
    } finally {
      await ts.client().secrets('POST', 'sys/auth/token/tune', { body: { default_lease_ttl: 'system', max_lease_ttl: 'system' } });
    }
    const after = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } });
    expect(after!.auth!.lease_duration).toBe(2764800);
  });
});
