/**
 * sys/health over real HTTP, as load balancers use it: HEAD and GET, on two servers sharing one
 * PostgreSQL database. The leader is the active node (200); the other is a standby, which answers 429
 * unless the query says standbyok=true or gives its own standbycode, as Vault's standbys do.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';

let postgres: Postgres;
let work: string;
let leader: TestServer;
let standby: TestServer;

/** One request through node:http, the body read in full (a HEAD answer has none). */
function send(server: TestServer, method: string, p: string): Promise<{ status: number; type?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${p}`, { method }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  postgres = await startPostgres();
  const storageUrl = await createDatabase(postgres.url, 'health_standby');
  work = await makeTempDir('svc-health-');
  const dirs = [path.join(work, 'a'), path.join(work, 'b')];
  leader = await startTestServer({ dataDir: dirs[0], storageUrl, client: false });
  // The servers of a cluster share the keyring, as they share the state it seals.
  await mkdir(dirs[1], { recursive: true, mode: 0o700 });
  await copyFile(path.join(dirs[0], 'keyring.json'), path.join(dirs[1], 'keyring.json'));
  standby = await startTestServer({ dataDir: dirs[1], storageUrl, client: false });
}, 120_000);

afterAll(async () => {
  await standby?.close();
  await leader?.close();
  await postgres?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('HEAD /v1/sys/health', () => {
  it('answers the active server 200 with no body', async () => {
    expect(leader.server.services.leadership.isLeader()).toBe(true);
    const a = await send(leader, 'HEAD', '/v1/sys/health');
    expect(a).toMatchObject({ status: 200, type: 'application/json', body: '' });
  });

  it('answers a standby 429, or 200 with standbyok, or the standbycode given', async () => {
    expect(standby.server.services.leadership.isLeader()).toBe(false);
    expect((await send(standby, 'HEAD', '/v1/sys/health')).status).toBe(429);
    expect((await send(standby, 'HEAD', '/v1/sys/health?standbyok=true')).status).toBe(200);
    expect((await send(standby, 'HEAD', '/v1/sys/health?standbycode=299')).status).toBe(299);
    // The active code is for the active node: a standby does not answer it.
    expect((await send(standby, 'HEAD', '/v1/sys/health?activecode=204')).status).toBe(429);
    expect((await send(leader, 'HEAD', '/v1/sys/health?standbycode=299')).status).toBe(200);
  });
});

describe('GET /v1/sys/health', () => {
  it('a standby says so in the body, with the status code of a standby', async () => {
    const a = await send(standby, 'GET', '/v1/sys/health');
    expect(a.status).toBe(429);
    expect(JSON.parse(a.body)).toMatchObject({ initialized: true, sealed: false, standby: true, performance_standby: false });
    const active = JSON.parse((await send(leader, 'GET', '/v1/sys/health')).body) as { standby: boolean; cluster_id: string };
    expect(active.standby).toBe(false);
    // One cluster, one ID, whichever server answers.
    expect(JSON.parse(a.body).cluster_id).toBe(active.cluster_id);
  });

  it('a bad code is a 400 naming the parameter, from either server', async () => {
    for (const server of [leader, standby]) {
      const a = await send(server, 'GET', '/v1/sys/health?sealedcode=sealed');
      expect(a.status).toBe(400);
      expect(a.body).toContain('sealedcode');
      expect((await send(server, 'HEAD', '/v1/sys/health?sealedcode=sealed')).status).toBe(400);
    }
  });
});
