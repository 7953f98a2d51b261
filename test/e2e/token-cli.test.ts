import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let home: string;

beforeAll(async () => {
  srv = await startTestServer();
  home = await makeTempDir('svc-login-home-');
});

afterAll(async () => {
  await srv?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** Runs as a user with no SVC_TOKEN, so only the token file in `home` authenticates. */
const asUser = (args: string[], input?: string) => srv.cli(args, { token: '', env: { HOME: home }, input });

describe('svc token and svc login', () => {
  let token = '';
  let accessor = '';

  it('token create prints the auth block as JSON', async () => {
    const res = await srv.cli(['token', 'create', '-policy=default', '-ttl=1h', '-metadata', 'team=ops', '-format=json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body.auth).toMatchObject({ policies: ['default'], lease_duration: 3600, metadata: { team: 'ops' }, orphan: false });
    token = body.auth.client_token;
    accessor = body.auth.accessor;
    expect(token).toMatch(/^svc\./);
  });

  it('token create -field=token prints only the token', async () => {
    const res = await srv.cli(['token', 'create', '-policy=default', '-orphan', '-field=token']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^svc\.[0-9A-Za-z]{24}$/);
  });

  it('token create shows the token table by default', async () => {
    const res = await srv.cli(['token', 'create', '-policy=default', '-use-limit=3']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^token\s+svc\./m);
    expect(res.stdout).toMatch(/^token_policies\s+\["default"\]$/m);
  });

  it('token create reports server refusals with exit code 2 and flag errors with 1', async () => {
    const refused = await srv.cli(['token', 'create', '-type=batch', '-use-limit=2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('batch tokens cannot have "num_uses" set');
    const bad = await srv.cli(['token', 'create', '-use-limit=many']);
    expect(bad.code).toBe(1);
  });

  it('token lookup TOKEN shows the token', async () => {
    const res = await srv.cli(['token', 'lookup', token]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^id\\s+${token.replace('.', '\\.')}$`, 'm'));
    expect(res.stdout).toMatch(/^policies\s+\[default\]$/m);
    expect(res.stdout).toMatch(/^meta\s+map\[team:ops\]$/m);
  });

  it('token lookup -accessor finds the token without showing it', async () => {
    const res = await srv.cli(['token', 'lookup', '-format=json', '-accessor', accessor]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).data).toMatchObject({ id: '', accessor });
  });

  it('login TOKEN stores the token in the token file, mode 0600', async () => {
    const res = await asUser(['login', token]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Success! You are now authenticated.');
    expect(res.stdout).toMatch(new RegExp(`^token\\s+${token.replace('.', '\\.')}$`, 'm'));
    const file = path.join(home, '.svc-token');
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('later commands use the stored token', async () => {
    const res = await asUser(['token', 'lookup', '-format=json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).data).toMatchObject({ id: token, accessor });
  });

  it('login - reads the token from stdin; -no-store leaves the file alone', async () => {
    const other = (await srv.cli(['token', 'create', '-policy=default', '-field=token'])).stdout;
    const res = await asUser(['login', '-no-store', '-field=token_accessor', '-'], `${other}\n`);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^[0-9A-Za-z]{24}$/);
    expect((await readFile(path.join(home, '.svc-token'), 'utf8')).trim()).toBe(token);
  });

  it('login with an invalid token fails with exit code 2 and stores nothing', async () => {
    const res = await asUser(['login', 'svc.not-a-real-token']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('403');
    expect((await readFile(path.join(home, '.svc-token'), 'utf8')).trim()).toBe(token);
  });

  it('token renew renews the stored token', async () => {
    const res = await asUser(['token', 'renew', '-increment=2h', '-format=json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).auth.lease_duration).toBe(7200);
  });

  it('token revoke revokes it; the stored token then stops working', async () => {
    const res = await srv.cli(['token', 'revoke', token]);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe('Success! Revoked token (if it existed)');
    const after = await asUser(['token', 'lookup']);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('permission denied');
  });

  it('token revoke checks its arguments', async () => {
    expect((await srv.cli(['token', 'revoke'])).code).toBe(1);
    const both = await srv.cli(['token', 'revoke', '-self', 'svc.x']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Too many arguments with -self');
    expect((await srv.cli(['token', 'revoke', '-accessor', '-mode=orphan', 'abc'])).code).toBe(1);
  });
});
