/**
 * The PostgreSQL backend's in-memory tables answer lists in LMDB's order (UTF-8 byte order) with LMDB's
 * range semantics: checked against a real LMDB store on the same keys and queries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { MemoryTables } from '../../src/storage/memory-tables.js';
import { compareKeys, OrderedMap } from '../../src/storage/ordered-map.js';
import { byHead, bySegment, bySegments, type Partitioner } from '../../src/storage/partitioned-map.js';
import { storedKey } from '../../src/storage/store-keys.js';
import type { RangeOptions, Store } from '../../src/storage/store.js';
import { cmpCodePoints, listQueries } from './store-contract.js';

let tmp: string;
let lmdb: Store;
let tables = 0;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-memtables-'));
  lmdb = await openLmdbStore({ dir: tmp, migrations: [] });
});

afterAll(async () => {
  await lmdb.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function list(memory: MemoryTables, table: string, prefix: string, opts: RangeOptions): string[] {
  const out: string[] = [];
  const start = opts.start === undefined ? undefined : storedKey(table, opts.start);
  memory.walk(table, storedKey(table, prefix), { ...opts, start }, (key, text) => void out.push(`${key}=${text}`));
  return out;
}

/** Units JS's `<` and code point order disagree on, NUL, multi-byte UTF-8, and lone surrogates. */
const unit = fc.constantFrom('\u0000', '\u0001', 'a', 'b', '/', 'é', '\u07ff', '\u0800', '日', '\ud7ff', '\ue000', '\uf8ff', '\ufffd', '\uffff', '😀', '\u{10000}', '\u{10ffff}', '\ud800', '\udfff');
const key = fc.array(unit, { maxLength: 4 }).map((units) => units.join(''));

describe('memory tables', () => {
  const kinds: Array<[string, Partitioner | undefined]> = [
    ['one ordered map', undefined],
    ['partitions by segment', bySegment],
    ['partitions by a one-unit head', byHead(1)],
    ['partitions by a two-unit head', byHead(2)],
    ['partitions by two segments', bySegments(2)],
    ['partitions by a segment and a one-unit head after it', bySegments(1, 1)],
    ['partitions by two segments and a two-unit head after them', bySegments(2, 2)],
  ];
  for (const [kind, partition] of kinds) {
    it(`list the keys LMDB lists, in its order, for any prefix, start, direction and limit (${kind})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(key, { maxLength: 40 }),
          fc.array(key, { maxLength: 10 }),
          listQueries(key, 10),
          async (keys, removed, queries) => {
            const table = `t${++tables}`;
            const memory = new MemoryTables(partition ? new Map([[table, partition]]) : undefined);
            await lmdb.write((tx) => {
              keys.forEach((k, i) => tx.put(table, k, i));
              for (const k of removed) tx.delete(table, k);
            });
            keys.forEach((k, i) => memory.set(table, storedKey(table, k), JSON.stringify(i)));
            for (const k of removed) memory.delete(table, storedKey(table, k));
            for (const { prefix, ...opts } of queries) {
              const expected = lmdb.list(table, prefix, opts).map((e) => `${e.key}=${JSON.stringify(e.value)}`);
              expect(list(memory, table, prefix, opts)).toEqual(expected);
            }
          },
        ),
        { numRuns: 200 },
      );
    });
  }

  it('store a lone surrogate as U+FFFD, as UTF-8 and LMDB do', async () => {
    await lmdb.write((tx) => tx.put('lone', 'a\ud800', 1));
    expect(lmdb.keys('lone')).toEqual(['a\ufffd']);
    expect(storedKey('lone', 'a\ud800')).toBe('a\ufffd');
    expect(storedKey('lone', 'a\ud83d\ude00')).toBe('a\ud83d\ude00');
  });

  it('compare keys in code point order, where JS compares UTF-16 units', () => {
    expect('\u{10000}' < '\uffff').toBe(true);
    expect(compareKeys('\u{10000}', '\uffff')).toBeGreaterThan(0);
    const keys = ['\uffff', '\u{10000}', '\ue000', '\ud7ff', 'a', '', 'a\u0000', '\u{10ffff}', '😀', '\ufffd'];
    expect([...keys].sort(compareKeys)).toEqual([...keys].sort(cmpCodePoints));
  });
});

describe('ordered map', () => {
  it('keeps order and values through inserts and deletes across many chunks', () => {
    const map = new OrderedMap<number>();
    const reference = new Map<string, number>();
    let seed = 1;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 20_000; i++) {
      const k = `k${random(6_000)}`;
      if (random(3) === 0) expect(map.delete(k)).toBe(reference.delete(k));
      else {
        expect(map.set(k, i)).toBe(reference.get(k));
        reference.set(k, i);
      }
    }
    const walked: Array<[string, number]> = [];
    map.walk(() => true, false, (k, v) => (walked.push([k, v]), true));
    expect(walked).toEqual([...reference.entries()].sort((a, b) => compareKeys(a[0], b[0])));
    expect(map.size).toBe(reference.size);
    const backwards: string[] = [];
    map.walk(() => false, true, (k) => (backwards.push(k), true));
    expect(backwards).toEqual(walked.map(([k]) => k).reverse());
    for (const [k, v] of reference) expect(map.get(k)).toBe(v);
  });
});
