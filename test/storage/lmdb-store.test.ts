import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { open as lmdbOpen } from 'lmdb';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import type { Store } from '../../src/storage/store.js';
import { storeContract } from './store-contract.js';

let tmp: string;
const open: Store[] = [];

async function openStore(dir = path.join(tmp, 'data')): Promise<Store> {
  const s = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  open.push(s);
  return s;
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-store-'));
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

let locations = 0;
storeContract('lmdb', async () => {
  const dir = path.join(tmp, `store-${++locations}`);
  return { open: () => openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES }) };
}, { flushAfterCommit: true });

describe('lmdb store: files', () => {
  it('creates the data dir with mode 0700 and its data file with mode 0600', async () => {
    await openStore();
    expect(fs.statSync(path.join(tmp, 'data')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(tmp, 'data', 'data.mdb')).mode & 0o777).toBe(0o600);
  });
});

describe('lmdb store: refusing bad data dirs', () => {
  it('refuses a path that is a regular file', async () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, 'x');
    await expect(openLmdbStore({ dir: file, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES })).rejects.toThrow(`cannot open data dir ${file}: not a directory`);
  });

  it('refuses a path under a regular file', async () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, 'x');
    await expect(openLmdbStore({ dir: path.join(file, 'sub'), migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES })).rejects.toThrow(`cannot open data dir ${file}/sub: not a directory`);
  });

  it.each([
    ['garbage', Buffer.alloc(20_000, 0x5a)],
    ['a short text file', Buffer.from('hello\n')],
    ['zeros', Buffer.alloc(8192)],
  ])('refuses a dir whose data.mdb is %s (lmdb itself would crash the process)', async (_name, bytes) => {
    const dir = path.join(tmp, 'corrupt');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'data.mdb'), bytes);
    await expect(openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES })).rejects.toThrow(
      new RegExp(`^cannot open data dir ${dir}: ${dir}/data.mdb is not a valid LMDB data file`),
    );
  });

  it('refuses a data.mdb truncated after the first meta page', async () => {
    const dir = path.join(tmp, 'trunc');
    const s = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
    await s.write((tx) => tx.put('t', 'a', 1));
    await s.close();
    const file = path.join(dir, 'data.mdb');
    fs.truncateSync(file, 4096);
    await expect(openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES })).rejects.toThrow(/is not a valid LMDB data file \(truncated\)/);
  });

  it('refuses to open the same dir twice in one process', async () => {
    const dir = path.join(tmp, 'twice');
    await openStore(dir);
    await expect(openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES })).rejects.toThrow(/already open in this process/);
  });

  it('handles a dir name containing a dot as a directory', async () => {
    const dir = path.join(tmp, 'svc.data');
    const s = await openStore(dir);
    await s.write((tx) => tx.put('t', 'a', 1));
    expect(fs.existsSync(path.join(dir, 'data.mdb'))).toBe(true);
  });
});

describe('lmdb store: compression', () => {
  const big = (n: number) => ({ n, text: Array.from({ length: 200 }, (_, i) => `field-${n}-${i}`).join(',') });

  it('reads a large value an earlier build wrote compressed, and writes none compressed', async () => {
    const dir = path.join(tmp, 'data');
    const first = await openStore(dir);
    await first.close();
    open.splice(open.indexOf(first), 1);
    const compressing = lmdbOpen({ path: dir, noSubdir: false, keyEncoding: 'binary', encoding: 'json', compression: true });
    await compressing.put(Buffer.from('things\u0000old'), big(1));
    await compressing.close();

    const store = await openStore(dir);
    expect(store.get('things', 'old')).toEqual(big(1));
    await store.write((tx) => tx.put('things', 'new', big(2)));
    expect(store.get('things', 'new')).toEqual(big(2));
    await store.close();
    open.splice(open.indexOf(store), 1);

    // The raw bytes as any LMDB reader sees them: the old value behind lmdb's LZ4 mark, the new one JSON.
    const raw = lmdbOpen({ path: dir, noSubdir: false, keyEncoding: 'binary', encoding: 'binary', readOnly: true });
    const old = raw.get(Buffer.from('things\u0000old')) as Buffer;
    const fresh = raw.get(Buffer.from('things\u0000new')) as Buffer;
    await raw.close();
    expect(old[0]).toBeGreaterThanOrEqual(250);
    expect(JSON.parse(fresh.toString('utf8'))).toEqual(big(2));
  });

  it('reads the values a build without compression wrote, small and large', async () => {
    const dir = path.join(tmp, 'data');
    const first = await openStore(dir);
    await first.close();
    open.splice(open.indexOf(first), 1);
    const plain = lmdbOpen({ path: dir, noSubdir: false, keyEncoding: 'binary', encoding: 'json' });
    await plain.put(Buffer.from('things\u0000large'), big(2));
    await plain.put(Buffer.from('things\u0000small'), { n: 3 });
    await plain.close();

    const store = await openStore(dir);
    expect(store.get('things', 'large')).toEqual(big(2));
    expect(store.get('things', 'small')).toEqual({ n: 3 });
    expect(store.list('things').map((e) => e.key)).toEqual(['large', 'small']);
  });
});
