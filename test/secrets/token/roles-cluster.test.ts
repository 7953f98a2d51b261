/**
 * Token roles live in the shared store: on servers sharing a PostgreSQL database, a role one server
 * writes is read, and created against, on another.
 */
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type SvcServer } from '../../../src/server/app.js';
import { makeTempDir } from '../../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../../support/postgres.js';
import { until } from '../../support/wait.js';

let postgres: Postgres;
const servers: SvcServer[] = [];
const dirs: string[] = [];

async function request(server: SvcServer, method: string, p: string, token: string, body?: unknown): Promise<{ status: number; body: { data?: Record<string, unknown>; auth?: Record<string, unknown> } }> {
  const answer = await server.handle({
    method,
    path: `/v1/${p}`,
    query: new URLSearchParams(),
    headers: { 'x-svc-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
    remoteAddress: '127.0.0.1',
  });
  const text = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8');
  return { status: answer.status, body: text ? JSON.parse(text) : {} };
}

beforeAll(async () => {
  postgres = await startPostgres();
});

afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
  await postgres?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('token roles in a cluster', () => {
  it('a role written on one server is read and used on another', async () => {
    const storageUrl = await createDatabase(postgres.url, 'token_roles');
    const [a, b] = [await makeTempDir('svc-roles-a-'), await makeTempDir('svc-roles-b-')];
    dirs.push(a, b);
    const first = await buildServer({ dev: false, dataDir: a, storageUrl, client: false, logWrite: () => undefined });
    servers.push(first);
    await copyFile(path.join(a, 'keyring.json'), path.join(b, 'keyring.json'));
    const second = await buildServer({ dev: false, dataDir: b, storageUrl, client: false, logWrite: () => undefined });
    servers.push(second);
    const root = first.rootToken!;

    expect((await request(first, 'POST', 'auth/token/roles/shared', root, { orphan: true, token_period: '1h' })).status).toBe(204);
    const read = await until(() => request(second, 'GET', 'auth/token/roles/shared', root), (r) => r.status === 200, 'the role on the second server');
    expect(read.body.data).toMatchObject({ name: 'shared', orphan: true, token_period: 3600 });
    const created = await request(second, 'POST', 'auth/token/create/shared', root, {});
    expect(created.status).toBe(200);
    expect(created.body.auth).toMatchObject({ orphan: true, lease_duration: 3600 });
  });
});
