/**
 * The state's database failing under a server: unreachable, or its connection lost while a write commits.
 * Both sides answer 503 in their own format (Vault's {"errors": [...]}, Nomad's plain text) with
 * Retry-After and a message that says whether the write may have applied, never the driver's words; a
 * client that retries an idempotent request after the 503 gets no second write. The database sits behind
 * a TCP proxy that can refuse connections (the database down) or cut the connection that carries a
 * COMMIT right after handing it on (the answer lost, the commit made); and the database ends the server's
 * sessions in the middle of a write, as a shutdown or restart does.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { startInProcessServer, type InProcessAnswer, type InProcessServer } from '../support/in-process.js';

let postgres: Postgres;
let databases = 0;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  postgres = await startPostgres();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await postgres?.stop();
});

interface Proxy {
  url: string;
  /** closes every connection and refuses new ones, as a database that is down */
  down(): Promise<void>;
  up(): Promise<void>;
  /** the next write's COMMIT reaches the database, then its connection is cut before the answer */
  cutAfterNextCommit(): Promise<void>;
}

/** Every write batch commits with this statement (pg-queries.ts), and nothing else sends it. */
const COMMIT_OF_A_WRITE = Buffer.from('NOTIFY svc_store');

async function proxy(dbUrl: string): Promise<Proxy> {
  const target = new URL(dbUrl);
  const sockets = new Set<net.Socket>();
  let cutting: (() => void) | undefined;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (cutting && chunk.includes(COMMIT_OF_A_WRITE)) {
        // Handed on whole, then the way back is gone: the database commits, the server never hears.
        upstream.end(chunk);
        client.destroy();
        const done = cutting;
        cutting = undefined;
        done();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(dbUrl);
  url.port = String(port);
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  });
  return {
    url: url.toString(),
    down: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    up: () => listen(port),
    cutAfterNextCommit: () => new Promise<void>((resolve) => (cutting = resolve)),
  };
}

async function serverOn(): Promise<{ svc: InProcessServer; db: Proxy; dbUrl: string }> {
  const dbUrl = await createDatabase(postgres.url, `svc_outage_${++databases}`);
  const db = await proxy(dbUrl);
  const svc = await startInProcessServer({ memoryStorage: false, storageUrl: db.url });
  cleanups.push(() => svc.close());
  return { svc, db, dbUrl };
}

const DRIVER_WORDS = /ECONNREFUSED|ECONNRESET|Connection terminated|postmaster|not queryable|timeout exceeded/;

const DOWN = "The cluster's state database cannot be reached, so this write was not made. Retry the request; the server reconnects on its own.";
/** A write on a connection the pool still held when the database went: it broke before COMMIT. */
const LOST = "The connection to the cluster's state database failed during this write. Nothing of it was written. Retry the request; the server reconnects on its own.";
const MAYBE =
  "The connection to the cluster's state database failed while this write was committing, so it may or may not have been applied. Retrying is safe for an idempotent request (a job registered with EnforceIndex, a dispatch with an idempotency token, a secret or policy written by name); read the state first otherwise.";

function expectUnavailable(res: InProcessAnswer, side: 'secrets' | 'scheduler', ...messages: string[]): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('2');
  if (side === 'secrets') {
    expect(res.body).toEqual({ errors: [expect.any(String)] });
    expect(messages).toContain((res.body as { errors: string[] }).errors[0]);
  } else {
    expect(messages).toContain(res.body);
  }
  expect(JSON.stringify(res.body)).not.toMatch(DRIVER_WORDS);
}

const job = (id: string, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Type: 'batch',
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 } }] }],
  ...extra,
});

describe('the state database failing under a server', () => {
  it('down: writes on both sides answer 503 in their format with Retry-After; reads go on; once it is back the same requests succeed', async () => {
    const { svc, db } = await serverOn();
    expect((await svc.request('PUT', '/v1/sys/policy/before', { body: { policy: 'path "a" { capabilities = ["read"] }' } })).status).toBe(204);
    await db.down();

    // Either message says nothing was written: a write finds the database gone as it connects, or on a
    // connection the pool held from before.
    expectUnavailable(await svc.request('PUT', '/v1/sys/policy/during', { body: { policy: 'path "b" { capabilities = ["read"] }' } }), 'secrets', DOWN, LOST);
    expectUnavailable(await svc.request('POST', '/v1/jobs', { body: { Job: job('during') } }), 'scheduler', DOWN, LOST);
    // Each failed write closes its connection; once the pool's three from before are gone, every write
    // says the database cannot be reached.
    for (let i = 0; i < 3; i++) await svc.request('POST', '/v1/jobs', { body: { Job: job('during') } });
    expectUnavailable(await svc.request('POST', '/v1/jobs', { body: { Job: job('during') } }), 'scheduler', DOWN);
    // Reads answer from the server's own copy of the state.
    expect((await svc.request('GET', '/v1/sys/policy/before')).status).toBe(200);
    expect((await svc.request('GET', '/v1/jobs')).status).toBe(200);

    await db.up();
    expect((await svc.request('PUT', '/v1/sys/policy/during', { body: { policy: 'path "b" { capabilities = ["read"] }' } })).status).toBe(204);
    expect((await svc.request('POST', '/v1/jobs', { body: { Job: job('during') } })).status).toBe(200);
    expect((await svc.request('GET', '/v1/job/during')).status).toBe(200);
  });

  it('a commit whose answer is lost is a 503 that says it may have applied; retrying an idempotent request writes nothing twice', async () => {
    const { svc, db } = await serverOn();

    // A job registered only if it does not exist yet (EnforceIndex with index 0).
    let cut = db.cutAfterNextCommit();
    const first = await svc.request('POST', '/v1/jobs', { body: { Job: job('once'), EnforceIndex: true, JobModifyIndex: 0 } });
    await cut;
    expectUnavailable(first, 'scheduler', MAYBE);
    const retried = await svc.request('POST', '/v1/jobs', { body: { Job: job('once'), EnforceIndex: true, JobModifyIndex: 0 } });
    expect(retried.status).toBe(409);
    expect(retried.body).toMatch(/^Enforcing job modify index 0: job already exists/);
    const versions = (await svc.request('GET', '/v1/job/once/versions')).body as { Versions: Array<{ Version: number }> };
    expect(versions.Versions.map((v) => v.Version)).toEqual([0]);

    // A dispatch with an idempotency token.
    expect((await svc.request('POST', '/v1/jobs', { body: { Job: job('batch-param', { ParameterizedJob: { Payload: 'optional' } }) } })).status).toBe(200);
    cut = db.cutAfterNextCommit();
    const dispatched = await svc.request('POST', '/v1/job/batch-param/dispatch', { body: { IdempotencyToken: 'retry-me' } });
    await cut;
    expectUnavailable(dispatched, 'scheduler', MAYBE);
    const again = await svc.request('POST', '/v1/job/batch-param/dispatch', { body: { IdempotencyToken: 'retry-me' } });
    expect(again.status).toBe(200);
    const children = ((await svc.request('GET', '/v1/jobs?prefix=batch-param/dispatch-')).body as Array<{ ID: string }>).map((j) => j.ID);
    expect(children).toEqual([(again.body as { DispatchedJobID: string }).DispatchedJobID]);

    // A policy written by name: the retry writes the same policy, once.
    cut = db.cutAfterNextCommit();
    const policy = await svc.request('PUT', '/v1/sys/policy/by-name', { body: { policy: 'path "c" { capabilities = ["read"] }' } });
    await cut;
    expectUnavailable(policy, 'secrets', MAYBE);
    expect((await svc.request('PUT', '/v1/sys/policy/by-name', { body: { policy: 'path "c" { capabilities = ["read"] }' } })).status).toBe(204);
    const listed = (await svc.request('GET', '/v1/sys/policy')).body as { policies: string[] };
    expect(listed.policies.filter((p) => p === 'by-name')).toEqual(['by-name']);
    expect((await svc.request('GET', '/v1/sys/policy/by-name')).body).toMatchObject({ rules: 'path "c" { capabilities = ["read"] }' });
  });

  it("sessions the database ends (as a restart does) while a write waits for the lock, or idle in the pool, are replaced: the write commits once, not answered 503", async () => {
    const { svc, dbUrl } = await serverOn();
    // An operator's session holds the writers' lock, so the server's write waits inside its transaction.
    const admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    await admin.query('BEGIN');
    await admin.query('SELECT 1 FROM svc_meta WHERE id = 1 FOR UPDATE');
    const write = svc.request('PUT', '/v1/sys/policy/mid-restart', { body: { policy: 'path "d" { capabilities = ["read"] }' } });
    const waiting = async () =>
      (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")).rows;
    for (let rows = await waiting(); rows.length === 0; rows = await waiting()) await new Promise((r) => setImmediate(r));
    const before = Number((await admin.query<{ index: string }>('SELECT index FROM svc_meta WHERE id = 1')).rows[0].index);
    // What a shutdown does to every session, the waiting one and the pool's idle ones: "terminating
    // connection due to administrator command".
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    await admin.query('ROLLBACK');
    expect((await write).status).toBe(204);
    // The next write finds the pool's other sessions ended too, and commits all the same.
    expect((await svc.request('PUT', '/v1/sys/policy/after-restart', { body: { policy: 'path "e" { capabilities = ["read"] }' } })).status).toBe(204);
    expect((await svc.request('GET', '/v1/sys/policy/mid-restart')).status).toBe(200);
    // Each committed once: one entry of the log holds each.
    const entries = async (name: string) => Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM svc_log WHERE index > $1 AND changes::text LIKE $2', [before, `%${name}%`])).rows[0].n);
    expect([await entries('mid-restart'), await entries('after-restart')]).toEqual([1, 1]);
  });
});
