import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { NewerSchemaError, runMigrations, schemaVersion, type Migration } from '../../src/storage/migrations.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import type { Store } from '../../src/storage/store.js';

let tmp: string;
const stores: Store[] = [];
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migrate-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function openWith(migrations: Migration[], dir = path.join(tmp, 'data')): Promise<Store> {
  const s = await openLmdbStore({ dir, migrations });
  stores.push(s);
  return s;
}

function recording(log: string[]): Migration[] {
  return [
    // Deliberately out of order: they must still run by version.
    { version: 3, description: 'third', up: (tx) => (log.push('3'), tx.put('things', 'c', tx.get('things', 'b'))) },
    { version: 1, description: 'first', up: (tx) => (log.push('1'), tx.put('things', 'a', 1)) },
    { version: 2, description: 'second', up: (tx) => (log.push('2'), tx.put('things', 'b', (tx.get<number>('things', 'a') ?? 0) + 1)) },
  ];
}

describe('migrations', () => {
  it('the built-in list starts with the initial layout at version 1', () => {
    expect(SCHEMA_MIGRATIONS.map((m) => [m.version, m.description]).slice(0, 2)).toEqual([
      [1, 'initial layout'],
      [2, 'node usage sums and system job index'],
    ]);
  });

  it('applies pending migrations in version order, each in its own write, at open', async () => {
    const log: string[] = [];
    const s = await openWith(recording(log));
    expect(log).toEqual(['1', '2', '3']);
    expect(schemaVersion(s)).toBe(3);
    expect(s.get('meta', 'schema_version')).toBe(3);
    expect([s.get('things', 'a'), s.get('things', 'b'), s.get('things', 'c')]).toEqual([1, 2, 2]);
    expect(s.index()).toBe(3);
  });

  it('applies each migration once, across reopens, and only the new ones after an upgrade', async () => {
    const dir = path.join(tmp, 'upgrade');
    const log: string[] = [];
    const first = await openLmdbStore({ dir, migrations: recording(log).filter((m) => m.version < 3) });
    expect(log).toEqual(['1', '2']);
    await first.close();

    const again = await openLmdbStore({ dir, migrations: recording(log).filter((m) => m.version < 3) });
    expect(log).toEqual(['1', '2']);
    await again.close();

    const upgraded = await openWith(recording(log), dir);
    expect(log).toEqual(['1', '2', '3']);
    expect(schemaVersion(upgraded)).toBe(3);
    expect(await runMigrations(upgraded, recording(log))).toEqual([]);
    expect(log).toEqual(['1', '2', '3']);
  });

  it('a failing migration stops there, leaves the store at the previous version, and reruns next time', async () => {
    const dir = path.join(tmp, 'failing');
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
    await expect(openLmdbStore({ dir, migrations })).rejects.toThrow(`cannot open data dir ${dir}: disk says no`);
    fail = false;
    const s = await openWith(migrations, dir);
    expect(schemaVersion(s)).toBe(2);
    expect(s.get('t', 'two')).toBe(2);
  });

  it('refuses a store written by a newer build', async () => {
    const dir = path.join(tmp, 'newer');
    const known = SCHEMA_MIGRATIONS[SCHEMA_MIGRATIONS.length - 1].version;
    const newerBuild: Migration[] = [...SCHEMA_MIGRATIONS, { version: known + 1, description: 'from a newer build', up: () => {} }];
    const newer = await openLmdbStore({ dir, migrations: newerBuild });
    await newer.close();
    await expect(openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS })).rejects.toThrow(
      `data dir was written by a newer svc (schema ${known + 1}); this build knows up to ${known}`,
    );
    await expect(openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS })).rejects.toBeInstanceOf(NewerSchemaError);
    // The refusal released the dir: the newer build can still open it.
    const s = await openWith(newerBuild, dir);
    expect(schemaVersion(s)).toBe(known + 1);
  });

  it('rejects duplicate and invalid versions', async () => {
    const s = await openWith([]);
    const noop = (): void => {};
    await expect(
      runMigrations(s, [
        { version: 1, description: 'a', up: noop },
        { version: 1, description: 'b', up: noop },
      ]),
    ).rejects.toThrow(/two migrations share version 1/);
    await expect(runMigrations(s, [{ version: 0, description: 'zero', up: noop }])).rejects.toThrow(/invalid version 0/);
    await expect(runMigrations(s, [{ version: 1.5, description: 'half', up: noop }])).rejects.toThrow(/invalid version 1.5/);
  });

  it('an empty store with no migrations is at schema 0', async () => {
    const s = await openWith([]);
    expect(schemaVersion(s)).toBe(0);
    expect(s.index()).toBe(0);
  });
});
