/**
 * Store.follow on every backend: each write is heard once it is durable, in index order, with its kind
 * and its changes to the followed tables only (values as the JSON text a read would parse); a write that
 * threw is never heard; on PostgreSQL a store hears another store's writes on the same database, kinds
 * included, as it follows the log.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { openMemoryStore } from '../../src/storage/memory-store.js';
import { openPgStore } from '../../src/storage/pg-store.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import type { AppliedWrite, Store } from '../../src/storage/store.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { until } from '../support/wait.js';

const open: Store[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function hear(store: Store, tables: string[]): { heard: AppliedWrite[]; stop: () => void } {
  const heard: AppliedWrite[] = [];
  const stop = store.follow(new Set(tables), (w) => heard.push({ index: w.index, kind: w.kind, changes: [...w.changes] }));
  return { heard, stop };
}

/** What every backend does alike. */
function followContract(name: string, openStore: () => Promise<Store>): void {
  describe(`${name}: follow`, () => {
    it('hears each durable write in index order, with its kind and only the followed tables', async () => {
      const store = await openStore();
      const { heard, stop } = hear(store, ['jobs', 'allocs']);
      const first = await store.write((tx) => {
        tx.describe('JobRegister');
        tx.describe('Ignored');
        tx.put('jobs', 'default\u0000web', { ID: 'web', Count: 2 });
        tx.put('unfollowed', 'x', 1);
      });
      // Only an unfollowed table: nothing to hear.
      await store.write((tx) => tx.put('unfollowed', 'y', 2));
      await expect(store.write((tx) => {
        tx.put('jobs', 'default\u0000lost', { ID: 'lost' });
        throw new Error('no');
      })).rejects.toThrow('no');
      // Several writes in one batch: each its own index, heard in order.
      const batch = await Promise.all([
        store.write((tx) => {
          tx.describe('ApplyPlanResults');
          tx.put('allocs', 'a1', { ID: 'a1' });
          tx.put('allocs', 'a2', { ID: 'a2' });
        }),
        store.write((tx) => {
          tx.put('allocs', 'a1', { ID: 'a1', ClientStatus: 'running' });
          tx.delete('jobs', 'default\u0000web');
        }),
      ]);
      await until(async () => heard.length, (n) => n >= 3, 'three writes heard');
      expect(heard).toEqual([
        { index: first.index, kind: 'JobRegister', changes: [['jobs', 'default\u0000web', '{"ID":"web","Count":2}']] },
        { index: batch[0].index, kind: 'ApplyPlanResults', changes: [['allocs', 'a1', '{"ID":"a1"}'], ['allocs', 'a2', '{"ID":"a2"}']] },
        { index: batch[1].index, kind: undefined, changes: [['allocs', 'a1', '{"ID":"a1","ClientStatus":"running"}'], ['jobs', 'default\u0000web', null]] },
      ]);
      // What is stored reads back as it was put, however the follower's capture wrote it.
      expect(store.get('allocs', 'a1')).toEqual({ ID: 'a1', ClientStatus: 'running' });
      expect(store.list('allocs').map((e) => e.value)).toEqual([{ ID: 'a1', ClientStatus: 'running' }, { ID: 'a2' }]);
      stop();
      await store.write((tx) => tx.put('jobs', 'default\u0000after', { ID: 'after' }));
      expect(heard).toHaveLength(3);
    });
  });
}

followContract('memory', () => openMemoryStore({ migrations: SCHEMA_MIGRATIONS }).then((s) => (open.push(s), s)));

followContract('lmdb', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-follow-'));
  dirs.push(dir);
  const s = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  open.push(s);
  return s;
});

describe('postgres: follow', () => {
  let server: Postgres;
  let databases = 0;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  }, 180_000);
  const openOn = async (url: string): Promise<Store> => {
    const s = await openPgStore({ url, migrations: SCHEMA_MIGRATIONS });
    open.push(s);
    return s;
  };

  followContract('postgres', async () => openOn(await createDatabase(server.url, `follow_${++databases}`)));

  it("hears another store's writes on the same database, with their kinds, in index order", async () => {
    const url = await createDatabase(server.url, `follow_${++databases}`);
    const writer = await openOn(url);
    const reader = await openOn(url);
    const { heard } = hear(reader, ['nodes']);
    const a = await writer.write((tx) => {
      tx.describe('NodeRegister');
      tx.put('nodes', 'n1', { ID: 'n1', Status: 'ready' });
    });
    const b = await writer.write((tx) => {
      tx.describe('NodeUpdateStatus');
      tx.put('nodes', 'n1', { ID: 'n1', Status: 'down' });
    });
    await until(async () => heard.length, (n) => n >= 2, "the other store's writes heard");
    expect(heard).toEqual([
      { index: a.index, kind: 'NodeRegister', changes: [['nodes', 'n1', '{"ID":"n1","Status":"ready"}']] },
      { index: b.index, kind: 'NodeUpdateStatus', changes: [['nodes', 'n1', '{"ID":"n1","Status":"down"}']] },
    ]);
    // A store opened later reads the kinds back from the log as well.
    const late = await openOn(url);
    const { heard: lateHeard } = hear(late, ['nodes']);
    const c = await writer.write((tx) => {
      tx.describe('NodeDeregister');
      tx.delete('nodes', 'n1');
    });
    await until(async () => lateHeard.length, (n) => n >= 1, 'the late store hears the next write');
    expect(lateHeard).toEqual([{ index: c.index, kind: 'NodeDeregister', changes: [['nodes', 'n1', null]] }]);
  });
});
