import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
  await ts.client().secrets('POST', 'sys/auth/ci', { body: { type: 'cloud' } });
});

afterAll(async () => {
  await ts?.close();
});

describe('svc auth tune', () => {
  it("changes the given settings with Vault's flags and says so", async () => {
    const run = await ts.cli(['auth', 'tune', '-default-lease-ttl=30m', '-max-lease-ttl=1h', '-description=builders', '-listing-visibility=hidden', 'ci']);
    expect(run).toMatchObject({ code: 0, stdout: 'Success! Tuned the auth method at: ci/\n' });
    const read = await ts.cli(['read', '-format=json', 'sys/auth/ci/tune']);
    expect(JSON.parse(read.stdout).data).toMatchObject({ default_lease_ttl: 1800, max_lease_ttl: 3600, description: 'builders', listing_visibility: 'hidden' });
  });

  it('tunes the token method so that `svc token create` gets the new default TTL', async () => {
    expect((await ts.cli(['auth', 'tune', '-default-lease-ttl=45m', 'token'])).code).toBe(0);
    const created = await ts.cli(['token', 'create', '-policy=default', '-format=json']);
    expect(JSON.parse(created.stdout).auth.lease_duration).toBe(2700);
  });

  it('exits 2 with the server error for a mount that does not exist', async () => {
    const run = await ts.cli(['auth', 'tune', '-description=x', 'nothing']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot fetch mount entry on "auth/nothing/"');
  });
});
