import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixture } from './bundle-fixture.js';
import { createDatabase, startPostgres, type Postgres } from './postgres.js';
import { until } from './wait.js';

/*
 * The harness later PostgreSQL storage tests run on: a real server from the npm package's binaries, one
 * private instance per call, that nothing outlives, not even a test process killed with SIGKILL.
 */

let holder: string;
let server: Postgres;
const clients: pg.Client[] = [];

beforeAll(async () => {
  holder = await bundleFixture('test/support/fixtures/postgres-holder.ts', 'postgres-holder');
  server = await startPostgres();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  await server?.stop();
  fs.rmSync(holder, { force: true });
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // Servers are stopped under open sessions, which then report the lost connection.
  client.on('error', () => {});
  clients.push(client);
  await client.connect();
  return client;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The processes whose working directory is inside `dir`: postgres and every one of its children chdir to the data directory. */
function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readlinkSync(`/proc/${name}/cwd`).startsWith(`${dir}/`)) pids.push(Number(name));
    } catch {
      // it exited while we looked
    }
  }
  return pids;
}

describe('startPostgres', () => {
  it('starts PostgreSQL 18 with fsync on, answering through pg at its URL', async () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    const client = await connect(server.url);
    const { rows } = await client.query<{ version: string; fsync: string }>("SELECT version(), current_setting('fsync') AS fsync");
    expect(rows[0].version).toMatch(/^PostgreSQL 18\./);
    expect(rows[0].fsync).toBe('on');
  });

  it('shows a committed write to a second connection', async () => {
    const writer = await connect(server.url);
    await writer.query('CREATE TABLE kv (k text PRIMARY KEY, v text)');
    await writer.query("INSERT INTO kv VALUES ('a', 'one')");
    const reader = await connect(server.url);
    const { rows } = await reader.query('SELECT v FROM kv WHERE k = $1', ['a']);
    expect(rows).toEqual([{ v: 'one' }]);
  });

  it('delivers NOTIFY from one connection to a LISTEN on another', async () => {
    const listener = await connect(server.url);
    await listener.query('LISTEN changes');
    const received = new Promise<pg.Notification>((resolve) => listener.once('notification', resolve));
    const notifier = await connect(server.url);
    await notifier.query("SELECT pg_notify('changes', 'index 7')");
    expect(await received).toMatchObject({ channel: 'changes', payload: 'index 7' });
  });

  it('creates a database and returns its URL', async () => {
    const url = await createDatabase(server.url, 'svc-one');
    expect(url).toBe(`postgres://postgres@127.0.0.1:${server.port}/svc-one`);
    const client = await connect(url);
    const { rows } = await client.query('SELECT current_database() AS db');
    expect(rows).toEqual([{ db: 'svc-one' }]);
  });

  it('runs two instances at once, each with its own port, directory and data', async () => {
    const [a, b] = await Promise.all([startPostgres(), startPostgres()]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.dir).not.toBe(b.dir);
      await (await connect(a.url)).query('CREATE TABLE only_in_a (x int)');
      const inA = await (await connect(a.url)).query("SELECT to_regclass('only_in_a') AS t");
      const inB = await (await connect(b.url)).query("SELECT to_regclass('only_in_a') AS t");
      expect(inA.rows).toEqual([{ t: 'only_in_a' }]);
      expect(inB.rows).toEqual([{ t: null }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('stop() ends open sessions, removes the directory and closes the port', async () => {
    const pgServer = await startPostgres();
    const client = await connect(pgServer.url);
    expect(fs.existsSync(path.join(pgServer.dir, 'data/PG_VERSION'))).toBe(true);
    expect(processesIn(pgServer.dir).length).toBeGreaterThan(0);
    await pgServer.stop();
    expect(fs.existsSync(pgServer.dir)).toBe(false);
    expect(processesIn(pgServer.dir)).toEqual([]);
    expect(await listening(pgServer.port)).toBe(false);
    await expect(client.query('SELECT 1')).rejects.toThrow();
  });

  it('leaves no process and no directory behind when the test process is killed with SIGKILL', async () => {
    const child = spawn(process.execPath, [holder], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const started = await new Promise<{ url: string; port: number; dir: string }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out));
      });
      child.on('close', (code) => reject(new Error(`holder exited with ${code}: ${err}`)));
    });
    const exited = new Promise((resolve) => child.on('close', resolve));
    const { rows } = await (await connect(started.url)).query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
    expect(processesIn(started.dir).length).toBeGreaterThan(0);

    child.kill('SIGKILL');
    await exited;
    await until(async () => ({ pids: processesIn(started.dir), dir: fs.existsSync(started.dir) }), (s) => s.pids.length === 0 && !s.dir, 'the orphaned instance to be gone');
    expect(await listening(started.port)).toBe(false);
  });
});
