/**
 * sys/audit as Vault's: list, enable and disable file audit devices through the API. A device enabled
 * here logs every request beside the one the server's configuration names, is kept in the store and
 * opened again at the next start; the configured device keeps working and is changed only where it is
 * configured. Everything under sys/audit needs sudo.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';

let dir: string;
let dataDir: string;
let configured: string;
let ts: TestServer;
/** made at the first start; a restart on the same data dir makes none */
let root: string;

type Body = Record<string, unknown>;

async function call(method: string, p: string, opts: { body?: unknown; token?: string } = {}): Promise<{ status: number; body: any }> {
  const answer = await ts.client(opts.token ?? root).request(method, p, opts.body === undefined ? {} : { body: opts.body });
  const text = answer.body.toString('utf8');
  return { status: answer.status, body: text ? JSON.parse(text) : '' };
}

async function linesOf(file: string): Promise<Array<{ type: string; request: { path: string } }>> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function tokenWith(policy: string): Promise<string> {
  const name = `p${Math.random().toString(16).slice(2, 10)}`;
  expect((await call('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy } })).status).toBe(204);
  return (await call('POST', '/v1/auth/token/create', { body: { policies: [name] } })).body.auth.client_token;
}

beforeAll(async () => {
  dir = await makeTempDir('svc-audit-api-');
  dataDir = path.join(dir, 'data');
  configured = path.join(dir, 'configured.log');
  ts = await startTestServer({ dataDir, auditFile: configured, client: false });
  root = ts.rootToken;
});
afterAll(async () => {
  await ts?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sys/audit', () => {
  it("lists the configured device at file/ in Vault's shape, in data and at the top level", async () => {
    const a = await call('GET', '/v1/sys/audit');
    expect(a.status).toBe(200);
    const device = { type: 'file', description: '', options: { file_path: configured }, local: false, path: 'file/' };
    expect(a.body.data).toEqual({ 'file/': device });
    expect(a.body['file/']).toEqual(device);
  });

  it('enables a file device that logs every request beside the configured one, kept across a restart', async () => {
    const extra = path.join(dir, 'extra.log');
    const enabled = await call('PUT', '/v1/sys/audit/extra', {
      body: { type: 'file', description: 'second copy', local: true, options: { file_path: extra } },
    });
    expect(enabled.status).toBe(204);
    const listed = (await call('GET', '/v1/sys/audit')).body.data as Body;
    expect(listed['extra/']).toEqual({ type: 'file', description: 'second copy', options: { file_path: extra }, local: true, path: 'extra/' });
    await call('GET', '/v1/auth/token/lookup-self');
    for (const file of [configured, extra]) {
      expect((await linesOf(file)).filter((l) => l.request.path === 'auth/token/lookup-self').map((l) => l.type)).toEqual(['request', 'response']);
    }
    // The same key hashes for every device.
    const hashes = await Promise.all(['file', 'extra'].map(async (p) => (await call('POST', `/v1/sys/audit-hash/${p}`, { body: { input: 'x' } })).body.data.hash));
    expect(hashes[0]).toBe(hashes[1]);

    await ts.close();
    ts = await startTestServer({ dataDir, auditFile: configured, client: false });
    expect(Object.keys((await call('GET', '/v1/sys/audit')).body.data).sort()).toEqual(['extra/', 'file/']);
    await call('GET', '/v1/sys/policies/acl/default');
    expect((await linesOf(extra)).some((l) => l.request.path === 'sys/policies/acl/default')).toBe(true);
    expect((await linesOf(configured)).some((l) => l.request.path === 'sys/policies/acl/default')).toBe(true);
  });

  it('disables an API device (its file is no longer written); a missing path is not an error', async () => {
    const gone = path.join(dir, 'gone.log');
    expect((await call('PUT', '/v1/sys/audit/gone', { body: { type: 'file', options: { file_path: gone } } })).status).toBe(204);
    expect((await call('DELETE', '/v1/sys/audit/gone')).status).toBe(204);
    const before = (await linesOf(gone)).length;
    await call('GET', '/v1/auth/token/lookup-self');
    expect((await linesOf(gone)).length).toBe(before);
    expect(Object.keys((await call('GET', '/v1/sys/audit')).body.data)).not.toContain('gone/');
    expect((await call('DELETE', '/v1/sys/audit/never-was')).status).toBe(204);
  });

  it('the configured device is neither replaced nor disabled through the API', async () => {
    const again = await call('PUT', '/v1/sys/audit/file', { body: { type: 'file', options: { file_path: path.join(dir, 'other.log') } } });
    expect(again).toMatchObject({ status: 400, body: { errors: ['path already in use'] } });
    const disabled = await call('DELETE', '/v1/sys/audit/file');
    expect(disabled.status).toBe(400);
    expect(disabled.body.errors[0]).toContain('-audit-file');
    expect(Object.keys((await call('GET', '/v1/sys/audit')).body.data)).toContain('file/');
  });

  it('refuses another type, a missing file_path, or a file that cannot be opened, storing nothing', async () => {
    expect((await call('PUT', '/v1/sys/audit/sys', { body: { type: 'syslog' } })).status).toBe(400);
    const noPath = await call('PUT', '/v1/sys/audit/nopath', { body: { type: 'file' } });
    expect(noPath).toMatchObject({ status: 400, body: { errors: ['file_path is required'] } });
    const nowhere = path.join(dir, 'no-such-dir', 'a.log');
    const bad = await call('PUT', '/v1/sys/audit/bad', { body: { type: 'file', options: { file_path: nowhere } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toContain(nowhere);
    expect((await call('PUT', '/v1/sys/audit/typed', { body: { type: 'file', local: 'sometimes' } })).body.errors[0]).toContain('local');
    expect(Object.keys((await call('GET', '/v1/sys/audit')).body.data).sort()).toEqual(['extra/', 'file/']);
  });

  it('needs sudo, for the listing too', async () => {
    const rules = (caps: string) => `path "sys/audit" { capabilities = [${caps}] }\npath "sys/audit/*" { capabilities = [${caps}] }`;
    const plain = await tokenWith(rules('"read", "update", "delete"'));
    expect((await call('GET', '/v1/sys/audit', { token: plain })).status).toBe(403);
    expect((await call('PUT', '/v1/sys/audit/x', { token: plain, body: { type: 'file', options: { file_path: path.join(dir, 'x.log') } } })).status).toBe(403);
    expect((await call('DELETE', '/v1/sys/audit/extra', { token: plain })).status).toBe(403);
    const sudo = await tokenWith(rules('"read", "update", "delete", "sudo"'));
    expect((await call('GET', '/v1/sys/audit', { token: sudo })).status).toBe(200);
  });
});
