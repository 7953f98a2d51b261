import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;
let reader: { secret: string; accessor: string };

beforeAll(async () => {
  ts = await startTestServer();
  await ts.client().secrets('PUT', 'sys/policies/acl/writer', { body: { policy: 'path "secret/*" {\n  capabilities = ["update", "read", "create"]\n}\n' } });
  const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['writer'] } });
  reader = { secret: created!.auth!.client_token as string, accessor: created!.auth!.accessor as string };
});

afterAll(async () => {
  await ts?.close();
});

describe('svc token capabilities', () => {
  it("prints the token in use's capabilities sorted and comma-separated (sys/capabilities-self)", async () => {
    expect(await ts.cli(['token', 'capabilities', 'secret/app'], { token: reader.secret })).toMatchObject({ code: 0, stdout: 'create, read, update\n' });
    expect(await ts.cli(['token', 'capabilities', 'secret/app'])).toMatchObject({ code: 0, stdout: 'root\n' });
  });

  it('checks another token given first, or with -accessor its accessor', async () => {
    expect(await ts.cli(['token', 'capabilities', reader.secret, 'sys/auth'])).toMatchObject({ code: 0, stdout: 'deny\n' });
    expect(await ts.cli(['token', 'capabilities', '-accessor', reader.accessor, 'secret/x'])).toMatchObject({ code: 0, stdout: 'create, read, update\n' });
  });

  it('prints one line per path for several, and the list or the map with -format=json', async () => {
    const table = await ts.cli(['token', 'capabilities', reader.secret, 'secret/a', 'sys/auth']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n').map((l) => l.trim().split(/\s{2,}/))).toEqual([['Path', 'Capabilities'], ['----', '------------'], ['secret/a', 'create, read, update'], ['sys/auth', 'deny'], ['']]);
    const one = await ts.cli(['token', 'capabilities', '-format=json', reader.secret, 'secret/a']);
    expect(JSON.parse(one.stdout)).toEqual(['create', 'read', 'update']);
    const many = await ts.cli(['token', 'capabilities', '-format=json', reader.secret, 'secret/a', 'sys/auth']);
    expect(JSON.parse(many.stdout)).toEqual({ 'secret/a': ['create', 'read', 'update'], 'sys/auth': ['deny'] });
  });

  it('exits 1 on a usage error and 2 on an unknown token', async () => {
    const usage = await ts.cli(['token', 'capabilities', '-accessor', reader.accessor]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Not enough arguments with -accessor');
    const unknown = await ts.cli(['token', 'capabilities', 'svc.nope', 'secret/a']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('invalid token');
  });
});
