import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
  await ts.client().secrets('POST', 'identity/entity', { body: { name: 'builder', policies: ['a'], metadata: { team: 'x' } } });
});

afterAll(async () => {
  await ts?.close();
});

describe('svc patch', () => {
  it('changes the given fields and keeps the others', async () => {
    const run = await ts.cli(['patch', 'identity/entity/name/builder', 'policies=b', 'policies=c']);
    expect(run).toMatchObject({ code: 0, stdout: 'Success! Data written to: identity/entity/name/builder\n' });
    expect((await ts.client().secrets('GET', 'identity/entity/name/builder'))!.data).toMatchObject({ policies: ['b', 'c'], metadata: { team: 'x' } });
  });

  it('exits 2 with a clear message on a path that takes no PATCH, and 1 without data', async () => {
    const run = await ts.cli(['patch', 'sys/auth/token', 'description=x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('sys/auth/token does not support PATCH');
    expect((await ts.cli(['patch', 'identity/entity/name/builder'])).code).toBe(1);
  });
});
