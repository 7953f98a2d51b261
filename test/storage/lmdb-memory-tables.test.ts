/**
 * The LMDB store's memory tables: kept out of the file, filled again from what they derive from when the
 * store opens, and read and written through the Store interface exactly as a table of the file is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryTablesSpec } from '../../src/storage/lmdb-memory-tables.js';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { bySegment } from '../../src/storage/partitioned-map.js';
import type { Store, WriteTx } from '../../src/storage/store.js';
import { listQueries } from './store-contract.js';

/** `mem` is derived from `src`: each entry { group, n } of src is `<group>\0<src key> → n` in mem. */
const spec: MemoryTablesSpec = {
  tables: [{ name: 'mem', partition: bySegment }],
  *rebuild(store) {
    for (const { key, value } of store.list<{ group: string; n: number }>('src')) yield ['mem', `${value.group}\u0000${key}`, value.n] as const;
  },
};

let tmp: string;
const open: Store[] = [];

/** With the spec, `mem` lives in memory; without it (as an older build had it), in the file. */
async function openStore(withMemory = true): Promise<Store> {
  const s = await openLmdbStore({ dir: path.join(tmp, 'data'), migrations: [], memoryTables: withMemory ? spec : undefined });
  open.push(s);
  return s;
}

async function close(s: Store): Promise<void> {
  open.splice(open.indexOf(s), 1);
  await s.close();
}

/** Writes src entries and the mem entries derived from them, as the state code keeps the two in step. */
function putDerived(tx: WriteTx, key: string, group: string, n: number): void {
  tx.put('src', key, { group, n });
  tx.put('mem', `${group}\u0000${key}`, n);
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-memtables-'));
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('lmdb memory tables', () => {
  it('are never written to the file, and are filled again from what they derive from when the store opens', async () => {
    let s = await openStore();
    await s.write((tx) => {
      putDerived(tx, 'k1', 'a', 1);
      putDerived(tx, 'k2', 'b', 2);
    });
    const written = s.list('mem');
    expect(written).toEqual([
      { key: 'a\u0000k1', value: 1 },
      { key: 'b\u0000k2', value: 2 },
    ]);
    await close(s);

    s = await openStore(false);
    expect(s.list('mem')).toEqual([]);
    expect(s.list('src')).toHaveLength(2);
    await close(s);

    s = await openStore();
    expect(s.list('mem')).toEqual(written);
    expect(s.get('mem', 'b\u0000k2')).toBe(2);
  });

  it('take the place of what the file held of them, which is removed', async () => {
    let s = await openStore(false);
    await s.write((tx) => {
      putDerived(tx, 'k1', 'a', 1);
      tx.put('mem', 'stale\u0000k9', 9);
    });
    await close(s);

    s = await openStore();
    expect(s.list('mem')).toEqual([{ key: 'a\u0000k1', value: 1 }]);
    await close(s);
    s = await openStore(false);
    expect(s.list('mem')).toEqual([]);
  });

  it('show a write function its own writes and those of the functions before it; a function that throws leaves none', async () => {
    const s = await openStore();
    const before = s.tableIndex('mem');
    // Not awaited one by one: lmdb runs them in one transaction when they queue together.
    const results = await Promise.allSettled([
      s.write((tx) => putDerived(tx, 'k1', 'a', 1)),
      s.write((tx) => {
        const seen = tx.get<number>('mem', 'a\u0000k1');
        putDerived(tx, 'k2', 'a', (seen ?? 0) + 1);
        return tx.list('mem', 'a\u0000').map((e) => e.key);
      }),
      s.write((tx) => {
        putDerived(tx, 'k3', 'a', 3);
        tx.delete('mem', 'a\u0000k1');
        throw new Error('taken back');
      }),
      s.write((tx) => [tx.get('mem', 'a\u0000k3'), tx.get('mem', 'a\u0000k1')]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseFulfilledResult<{ result: string[] }>).value.result).toEqual(['a\u0000k1', 'a\u0000k2']);
    expect((results[3] as PromiseFulfilledResult<{ result: unknown[] }>).value.result).toEqual([undefined, 1]);
    expect(s.list('mem')).toEqual([
      { key: 'a\u0000k1', value: 1 },
      { key: 'a\u0000k2', value: 2 },
    ]);
    const second = (results[1] as PromiseFulfilledResult<{ index: number }>).value.index;
    expect(s.tableIndex('mem')).toBe(second);
    expect(second).toBeGreaterThan(before);
  });

  it('hand out a copy on every read, as the file does', async () => {
    const s = await openStore();
    await s.write((tx) => tx.put('mem', 'a\u0000x', { list: [1] }));
    s.get<{ list: number[] }>('mem', 'a\u0000x')!.list.push(2);
    s.list<{ list: number[] }>('mem')[0].value.list.push(3);
    expect(s.get('mem', 'a\u0000x')).toEqual({ list: [1] });
  });

  it('read back every value as the file reads it back, integers held as themselves included', async () => {
    const memory = await openStore();
    const file = await openLmdbStore({ dir: path.join(tmp, 'file'), migrations: [] });
    open.push(file);
    const values = [0, -0, 7, -7, 1.5, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e21, NaN, Infinity, '5', '', null, true, [1, 'a'], { n: 1 }];
    const fill = (tx: WriteTx) => values.forEach((v, i) => tx.put('mem', `v\u0000${i}`, v));
    await memory.write(fill);
    await file.write(fill);
    const fromFile = values.map((_, i) => file.get('mem', `v\u0000${i}`));
    expect(fromFile[1]).toBe(0);
    expect(values.map((_, i) => memory.get('mem', `v\u0000${i}`))).toEqual(fromFile);
    expect(memory.list('mem')).toEqual(file.list('mem'));
  });

  it('refuse the keys the file refuses', async () => {
    const s = await openStore();
    const long = 'x'.repeat(4000);
    const inFile = await s.write((tx) => tx.put('src', long, 1)).catch((err: Error) => err.message);
    const inMemory = await s.write((tx) => tx.put('mem', long, 1)).catch((err: Error) => err.message);
    expect(inMemory).toMatch(/too long/);
    expect(inMemory).toBe(inFile);
  });

  it('list what a table of the file lists, for any prefix, start, direction and limit', async () => {
    const memory = await openStore();
    const file = await openLmdbStore({ dir: path.join(tmp, 'file'), migrations: [] });
    open.push(file);
    const segment = fc.constantFrom('', 'a', 'ab', 'b', 'é', '😀');
    const key = fc.tuple(segment, fc.option(segment, { nil: undefined })).map(([head, tail]) => (tail === undefined ? head : `${head}\u0000${tail}`));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(key, { maxLength: 30 }),
        fc.array(key, { maxLength: 8 }),
        listQueries(key, 8),
        async (keys, removed, queries) => {
          const clear = (tx: WriteTx) => {
            for (const { key: k } of tx.list('mem')) tx.delete('mem', k);
          };
          const fill = (tx: WriteTx) => {
            clear(tx);
            keys.forEach((k, i) => tx.put('mem', k, i + round));
            for (const k of removed) tx.delete('mem', k);
          };
          round++;
          await memory.write(fill);
          await file.write(fill);
          for (const { prefix, ...opts } of queries) {
            expect(memory.list('mem', prefix, opts)).toEqual(file.list('mem', prefix, opts));
            expect(memory.keys('mem', prefix, opts)).toEqual(file.keys('mem', prefix, opts));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
