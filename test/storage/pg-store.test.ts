/**
 * The PostgreSQL backend on a real PostgreSQL: the same contract as LMDB, then what only several
 * processes on one database show. Two stores opened on one database stand for two server processes;
 * a TCP proxy in front of one of them stalls or cuts its connections, as a paused process or a broken
 * network would.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { NewerSchemaError, type Migration } from '../../src/storage/migrations.js';
import { openPgStore } from '../../src/storage/pg-store.js';
import { compactLog } from '../../src/storage/pg-queries.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import type { RangeOptions, Store, WriteTx } from '../../src/storage/store.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { until } from '../support/wait.js';
import { Unavailable } from '../../src/shared/errors.js';
import { storeContract } from './store-contract.js';

let server: Postgres;
let databases = 0;
const open: Store[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  server = await startPostgres();
});

// Stopping checkpoints and removes a database per test: on a busy machine, longer than a hook's default 30 s.
afterAll(async () => {
  await server?.stop();
}, 180_000);

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new database for one test. */
function database(): Promise<string> {
  return createDatabase(server.url, `store_${++databases}`);
}

async function openStore(url: string, migrations: readonly Migration[] = SCHEMA_MIGRATIONS): Promise<Store> {
  const s = await openPgStore({ url, migrations });
  open.push(s);
  return s;
}

/** Runs SQL on the database directly, beside the stores. */
async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const increment = (table: string, key: string) => (tx: WriteTx) => {
  const n = tx.get<number>(table, key) ?? 0;
  tx.put(table, key, n + 1);
  return n + 1;
};

storeContract('postgres', async () => {
  const url = await database();
  return { open: () => openPgStore({ url, migrations: SCHEMA_MIGRATIONS }) };
});

describe('postgres store: two processes on one database', () => {
  it('a write on one is visible on the other once it has reached that index', async () => {
    const url = await database();
    const [a, b] = [await openStore(url), await openStore(url)];
    const { index } = await a.write((tx) => tx.put('jobs', 'web', { count: 3 }));
    expect(await b.waitForIndex(index - 1, 20_000)).toBeGreaterThanOrEqual(index);
    expect(b.get('jobs', 'web')).toEqual({ count: 3 });
    expect(b.tableIndex('jobs')).toBe(index);
    expect(b.index()).toBe(index);
  });

  it('100 concurrent read-modify-write increments split across both lose nothing and get distinct indexes', async () => {
    const url = await database();
    const [a, b] = [await openStore(url), await openStore(url)];
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).write(increment('counters', 'c'))));
    expect(results.map((r) => r.result).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.index)).size).toBe(100);
    const last = Math.max(...results.map((r) => r.index));
    // The write that counted to 100 was the last.
    expect(results.find((r) => r.result === 100)!.index).toBe(last);
    for (const s of [a, b]) {
      await s.waitForIndex(last - 1, 20_000);
      expect(s.get('counters', 'c')).toBe(100);
    }
  });

  it('waitForCommit on one wakes for a write on the other, to the table it waits on', async () => {
    const url = await database();
    const [a, b] = [await openStore(url), await openStore(url)];
    let woke = false;
    const waiting = b.waitForCommit(b.tableIndex('evals'), 20_000, 'evals').then((i) => ((woke = true), i));
    const other = await a.write((tx) => tx.put('jobs', 'x', 1));
    await b.waitForIndex(other.index - 1, 20_000);
    expect(woke).toBe(false);
    const { index } = await a.write((tx) => tx.put('evals', 'e1', { status: 'pending' }));
    expect(await waiting).toBe(index);
    expect(b.get('evals', 'e1')).toEqual({ status: 'pending' });
  });

  it('applies only the first migration of two processes opening a new database at once', async () => {
    const url = await database();
    const runs: number[] = [];
    const migrations: Migration[] = [1, 2, 3].map((version) => ({
      version,
      description: `step ${version}`,
      up: (tx) => {
        runs.push(version);
        tx.put('things', `v${version}`, (tx.get<number>('things', 'count') ?? 0) + 1);
        tx.put('things', 'count', (tx.get<number>('things', 'count') ?? 0) + 1);
      },
    }));
    const [a, b] = await Promise.all([openStore(url, migrations), openStore(url, migrations)]);
    expect(runs).toEqual([1, 2, 3]);
    const last = Math.max(a.index(), b.index());
    for (const s of [a, b]) {
      await s.waitForIndex(last - 1, 20_000);
      expect(s.get('meta', 'schema_version')).toBe(3);
      expect(s.list('things')).toEqual([
        { key: 'count', value: 3 },
        { key: 'v1', value: 1 },
        { key: 'v2', value: 2 },
        { key: 'v3', value: 3 },
      ]);
    }
  });

  it('one that missed more writes than the log keeps reloads everything, and then writes on top of it', async () => {
    const url = await database();
    const a = await openStore(url);
    const proxy = await stallingProxy(server.port);
    const b = await openStore(proxyUrl(url, proxy.port));
    await a.write((tx) => tx.put('jobs', 'gone', 1));
    await a.write((tx) => tx.put('jobs', 'kept', 'old'));
    await b.waitForIndex(a.index() - 1, 20_000);
    expect(b.get('jobs', 'gone')).toBe(1);

    proxy.stall();
    const seen = b.index();
    // Changes only the pruned part of the log holds, then enough writes to prune it.
    await a.write((tx) => {
      tx.delete('jobs', 'gone');
      tx.put('jobs', 'kept', 'new');
    });
    await Promise.all(Array.from({ length: 20_000 }, () => a.write(increment('counters', 'c'))));
    // Compaction (in the background) brings svc_kv up to the log and prunes it: soon the log no longer
    // reaches back to what b has, and keeps about its last 10,000 entries.
    const log = await until(
      () => sql<{ first: string; count: string }>(url, 'SELECT min(index) AS first, count(*) AS count FROM svc_log').then((rows) => rows[0]),
      (l) => Number(l.first) > seen + 1 && Number(l.count) <= 12_000,
      'the log to be compacted and pruned',
    );
    expect(Number(log.count)).toBeGreaterThanOrEqual(10_000);
    expect(b.get('counters', 'c')).toBeUndefined();

    proxy.resume();
    const { result } = await b.write(increment('counters', 'c'));
    expect(result).toBe(20_001);
    await a.waitForIndex(b.index() - 1, 20_000);
    for (const s of [a, b]) {
      expect(s.get('jobs', 'gone')).toBeUndefined();
      expect(s.get('jobs', 'kept')).toBe('new');
    }
    expect(b.list('jobs')).toEqual(a.list('jobs'));
    expect(b.list('counters')).toEqual(a.list('counters'));
    expect([b.index(), b.tableIndex('counters'), b.tableIndex('jobs')]).toEqual([a.index(), a.tableIndex('counters'), a.tableIndex('jobs')]);

    // A process started now loads the same, from the rows, with the log pruned.
    const c = await openStore(url);
    expect([c.index(), c.tableIndex('counters'), c.tableIndex('jobs')]).toEqual([a.index(), a.tableIndex('counters'), a.tableIndex('jobs')]);
    expect(c.list('jobs')).toEqual(a.list('jobs'));
    expect(c.get('counters', 'c')).toBe(20_001);
  }, 120_000);

  it('follows again after its connections are cut', async () => {
    const url = await database();
    const a = await openStore(url);
    const proxy = await stallingProxy(server.port);
    const b = await openStore(proxyUrl(url, proxy.port));
    await a.write((tx) => tx.put('t', 'before', 1));
    await b.waitForIndex(a.index() - 1, 20_000);

    proxy.cut();
    const { index } = await a.write((tx) => tx.put('t', 'after', 2));
    expect(await b.waitForIndex(index - 1, 20_000)).toBeGreaterThanOrEqual(index);
    expect(b.get('t', 'after')).toBe(2);
    const mine = await b.write((tx) => tx.put('t', 'from-b', 3));
    expect(await a.waitForIndex(mine.index - 1, 20_000)).toBeGreaterThanOrEqual(mine.index);
    expect(a.get('t', 'from-b')).toBe(3);
  });

  it('a write whose connection is cut fails alone; the next write commits', async () => {
    const url = await database();
    const a = await openStore(url);
    const proxy = await stallingProxy(server.port);
    const b = await openStore(proxyUrl(url, proxy.port));
    proxy.stall();
    const cut = b.write((tx) => tx.put('t', 'cut', 1)).then(
      () => 'committed',
      (err: Error) => err,
    );
    await until(async () => proxy.held(), (n) => n > 0, 'the write to reach the proxy');
    proxy.cut();
    proxy.resume();
    // A 503 that says what happened and that nothing was written, not the driver's words.
    const err = await cut;
    expect(err).toBeInstanceOf(Unavailable);
    // (The write was held while its session connected: b's pool had none open yet.)
    expect((err as Error).message).toBe("The cluster's state database cannot be reached, so this write was not made. Retry the request; the server reconnects on its own.");
    const { index } = await b.write((tx) => tx.put('t', 'next', 2));
    expect(await a.waitForIndex(index - 1, 20_000)).toBeGreaterThanOrEqual(index);
    expect([a.get('t', 'cut'), a.get('t', 'next')]).toEqual([undefined, 2]);
  });
});

describe('postgres store: the log and its compaction into svc_kv', () => {
  it('a commit writes its log entry only; a process opening before compaction replays the log over svc_kv', async () => {
    const url = await database();
    const a = await openStore(url);
    const base = a.index();
    await a.write((tx) => tx.put('items', 'x', { v: 1 }));
    await a.write((tx) => tx.put('items', 'y', { v: 2 }));
    await a.write((tx) => tx.delete('items', 'y'));
    expect(await sql(url, `SELECT key FROM svc_kv WHERE tbl = 'items'`)).toEqual([]);
    expect(Number((await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM svc_log WHERE index > $1', [base]))[0].n)).toBe(3);
    const b = await openStore(url);
    expect([b.index(), b.tableIndex('items'), b.list('items')]).toEqual([a.index(), a.tableIndex('items'), [{ key: 'x', value: { v: 1 } }]]);
  });

  it("every 1,000 writes compaction brings svc_kv up to the log with each key's last value, and a process opening then reads the same", async () => {
    const url = await database();
    const a = await openStore(url);
    const base = a.index();
    await Promise.all(Array.from({ length: 1_000 - base + 5 }, (_, i) => a.write((tx) => tx.put('items', `k${i % 7}`, { i }))));
    const [state] = await until(
      () => sql<{ kv_index: string }>(url, 'SELECT kv_index FROM svc_kv_state'),
      (rows) => Number(rows[0].kv_index) >= 1_000,
      'compaction to reach index 1,000',
    );
    const kv = await sql<{ key: Buffer; value: unknown }>(url, `SELECT key, value FROM svc_kv WHERE tbl = 'items' ORDER BY key`);
    // svc_kv holds each key's value as of kv_index, and nothing of the writes after it.
    const asOf = Number(state.kv_index);
    expect(kv.map((r) => r.key.toString())).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
    expect(asOf).toBeLessThanOrEqual(a.index());
    const b = await openStore(url);
    expect([b.index(), b.list('items')]).toEqual([a.index(), a.list('items')]);
  });

  it('a database of the earlier layout (svc_kv written with every commit) opens with svc_kv taken as current', async () => {
    const url = await database();
    const a = await openPgStore({ url, migrations: SCHEMA_MIGRATIONS });
    await a.write((tx) => tx.put('items', 'x', 'kept'));
    await a.close();
    // What layout 1 left: svc_kv current (made so here by compacting everything), no svc_kv_state.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await compactLog(client as unknown as pg.PoolClient, 0);
    } finally {
      await client.end();
    }
    expect(await sql(url, 'SELECT index FROM svc_log')).toEqual([]);
    await sql(url, 'DROP TABLE svc_kv_state');
    await sql(url, 'ALTER TABLE svc_log DROP COLUMN kind');
    await sql(url, 'UPDATE svc_store_schema SET version = 1');
    const b = await openStore(url);
    expect(b.get('items', 'x')).toBe('kept');
    const [state] = await sql<{ kv_index: string }>(url, 'SELECT kv_index FROM svc_kv_state');
    expect(Number(state.kv_index)).toBe(b.index());
    await b.write((tx) => tx.put('items', 'y', 'new'));
    const c = await openStore(url);
    expect(c.list('items')).toEqual([{ key: 'x', value: 'kept' }, { key: 'y', value: 'new' }]);
  });
});

describe('postgres store: restart', () => {
  it('a store closed and opened again on the same database sees every write, table indexes included', async () => {
    const url = await database();
    const s1 = await openPgStore({ url, migrations: SCHEMA_MIGRATIONS });
    await Promise.all(Array.from({ length: 50 }, (_, i) => s1.write((tx) => tx.put('items', `i${i}`, { i }))));
    await s1.write((tx) => tx.delete('items', 'i7'));
    const last = await s1.write((tx) => tx.put('other', 'x', null));
    const before = { index: s1.index(), items: s1.tableIndex('items'), list: s1.list('items') };
    await s1.close();

    const s2 = await openStore(url);
    expect({ index: s2.index(), items: s2.tableIndex('items'), list: s2.list('items') }).toEqual(before);
    expect(s2.get('other', 'x')).toBeNull();
    expect(s2.tableIndex('other')).toBe(last.index);
    expect(s2.list('items').length).toBe(49);
  });

  it('refuses a database whose application schema is newer than this build knows', async () => {
    const url = await database();
    const known = SCHEMA_MIGRATIONS[SCHEMA_MIGRATIONS.length - 1].version;
    const newer = await openPgStore({ url, migrations: [...SCHEMA_MIGRATIONS, { version: known + 1, description: 'newer', up: () => {} }] });
    await newer.close();
    await expect(openPgStore({ url, migrations: SCHEMA_MIGRATIONS })).rejects.toBeInstanceOf(NewerSchemaError);
  });

  it('refuses a database whose store tables were made by a newer build, naming the database without its password', async () => {
    const url = await database();
    await (await openPgStore({ url, migrations: SCHEMA_MIGRATIONS })).close();
    await sql(url, 'UPDATE svc_store_schema SET version = 99');
    const withPassword = new URL(url);
    withPassword.password = 'hunter2';
    const err = await openPgStore({ url: withPassword.toString(), migrations: SCHEMA_MIGRATIONS }).then(
      () => new Error('opened'),
      (e: unknown) => e as Error,
    );
    expect(err.message).toContain('its tables were made by a newer svc (store layout 99); this build knows up to 3');
    expect(err.message).toMatch(/^cannot open PostgreSQL store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/store_\d+: /);
    expect(err.message).not.toContain('hunter2');
  });

  it('refuses a database where commits are not flushed before they are acknowledged', async () => {
    const url = await database();
    const name = new URL(url).pathname.slice(1);
    await sql(url, `ALTER DATABASE ${name} SET synchronous_commit = off`);
    await expect(openPgStore({ url, migrations: SCHEMA_MIGRATIONS })).rejects.toThrow(/: synchronous_commit is off for its sessions, so an acknowledged write could be lost in a crash; set it to on/);
    await sql(url, `ALTER DATABASE ${name} SET synchronous_commit = local`);
    await openStore(url);
  });

  it('a failing migration leaves the database at the previous version, and runs again on the next open', async () => {
    const url = await database();
    let fail = true;
    const migrations: Migration[] = [
      { version: 1, description: 'ok', up: (tx) => tx.put('t', 'one', 1) },
      {
        version: 2,
        description: 'flaky',
        up: (tx) => {
          tx.put('t', 'two', 2);
          if (fail) throw new Error('disk says no');
        },
      },
    ];
    await expect(openPgStore({ url, migrations })).rejects.toThrow(/^cannot open PostgreSQL store .*: disk says no$/);
    fail = false;
    const s = await openStore(url, migrations);
    expect(s.get('meta', 'schema_version')).toBe(2);
    expect([s.get('t', 'one'), s.get('t', 'two')]).toEqual([1, 2]);
    expect(s.index()).toBe(2);
  });
});

describe('postgres store: key order', () => {
  it('lists keys with NUL, non-ASCII and astral characters in the order LMDB does, before and after a reload', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-order-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const lmdb = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
    open.push(lmdb);
    const url = await database();
    const postgres = await openPgStore({ url, migrations: SCHEMA_MIGRATIONS });
    const keys = [
      '', 'a', 'a\u0000', 'a\u0000b', 'a\u0001', 'ab', 'é', 'ÿ', '\u07ff', '\u0800', '日本', '\ud7ff', '\ue000', '\uf8ff',
      '\ufffd', '\uffff', '😀', '😀a', '\u{10000}', '\u{10ffff}', 'z\ud800', 'z\udfff', 'z\ud83d\ude00', 'z\ufffd', 'x\ud800y',
    ];
    // Written backwards, one transaction each for half of them.
    const shuffled = [...keys].reverse();
    for (const s of [lmdb, postgres]) {
      for (const [i, k] of shuffled.slice(0, 12).entries()) await s.write((tx) => tx.put('t', k, i));
      await s.write((tx) => shuffled.slice(12).forEach((k, i) => tx.put('t', k, 12 + i)));
    }
    const queries: Array<[string, RangeOptions]> = [
      ['', {}],
      ['', { reverse: true }],
      ['a', {}],
      ['a\u0000', { reverse: true }],
      ['z', {}],
      ['z\ud800', {}],
      ['😀', {}],
      ['', { start: '\ue000' }],
      ['', { start: '\u{10000}', reverse: true, limit: 4 }],
      ['', { start: '\uffff', reverse: true }],
    ];
    const answers = (s: Store) => queries.map(([prefix, opts]) => s.list('t', prefix, opts));
    expect(answers(postgres)).toEqual(answers(lmdb));
    expect(postgres.get('t', 'z\udfff')).toEqual(lmdb.get('t', 'z\udfff'));
    await postgres.close();
    const reloaded = await openStore(url);
    expect(answers(reloaded)).toEqual(answers(lmdb));
  });
});

function proxyUrl(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

/**
 * A TCP proxy to PostgreSQL on 127.0.0.1:`port` that can hold back every byte both ways (stall, resume),
 * as a paused process would see it, or close every connection (cut), as a broken network would.
 */
async function stallingProxy(port: number): Promise<{ port: number; stall(): void; resume(): void; cut(): void; held(): number }> {
  let stalled = false;
  const held: Array<() => void> = [];
  const sockets = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket): void => {
    from.on('data', (chunk) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  };
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  );
  return {
    port: (proxy.address() as net.AddressInfo).port,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const send of held.splice(0)) send();
    },
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    held: () => held.length,
  };
}
