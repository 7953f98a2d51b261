/**
 * What every Store backend must do alike (src/storage/store.ts), run by each backend's test file against
 * its own store. `location()` makes a new, empty place for a store (a directory, a database); `open()`
 * opens the store there, again after a close as a restarted server would.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/shared/errors.js';
import type { RangeOptions, Store, WriteTx } from '../../src/storage/store.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';

export interface StoreLocation {
  open(): Promise<Store>;
}

/**
 * `flushAfterCommit`: the backend makes a commit visible before it is on disk (LMDB's overlapped flush),
 * so waitForIndex must wake only after commit() resolves; the others are durable when visible.
 */
export function storeContract(name: string, location: () => Promise<StoreLocation>, { flushAfterCommit = false } = {}): void {
  const open: Store[] = [];

  /** A store in a new location, closed after the test. */
  async function openStore(): Promise<Store> {
    const s = await (await location()).open();
    open.push(s);
    return s;
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  describe(`${name} store: basics`, () => {
    it('starts at the index of its migrations (one write each)', async () => {
      const s = await openStore();
      expect(s.index()).toBe(SCHEMA_MIGRATIONS.length);
      expect(s.get('meta', 'schema_version')).toBe(SCHEMA_MIGRATIONS[SCHEMA_MIGRATIONS.length - 1].version);
    });

    it('puts, gets and deletes JSON values', async () => {
      const s = await openStore();
      const value = { name: 'web', count: 3, tags: ['a', 'b'], nested: { ok: true, none: null } };
      await s.write((tx) => tx.put('jobs', 'web', value));
      expect(s.get('jobs', 'web')).toEqual(value);
      expect(s.get('jobs', 'nope')).toBeUndefined();
      expect(s.get('other', 'web')).toBeUndefined();

      const { result } = await s.write((tx) => [tx.delete('jobs', 'web'), tx.delete('jobs', 'web')]);
      expect(result).toEqual([true, false]);
      expect(s.get('jobs', 'web')).toBeUndefined();
    });

    it('stores values as JSON would, keeping the order of object keys', async () => {
      const s = await openStore();
      const when = new Date('2024-01-02T03:04:05.000Z');
      await s.write((tx) => tx.put('t', 'k', { when, gone: undefined, s: 'x' }));
      expect(s.get('t', 'k')).toEqual({ when: '2024-01-02T03:04:05.000Z', s: 'x' });
      await s.write((tx) => tx.put('t', 'str', 'plain'));
      expect(s.get('t', 'str')).toBe('plain');
      await s.write((tx) => tx.put('t', 'order', { zebra: 1, apple: 2, nul: 'a\u0000b', long_key_first: 3, b: 4 }));
      expect(JSON.stringify(s.get('t', 'order'))).toBe('{"zebra":1,"apple":2,"nul":"a\\u0000b","long_key_first":3,"b":4}');
      await expect(s.write((tx) => tx.put('t', 'u', undefined))).rejects.toThrow(/undefined/);
    });

    it('answers a fresh copy on every read, outside a write too', async () => {
      const s = await openStore();
      await s.write((tx) => tx.put('t', 'k', { list: [1] }));
      s.get<{ list: number[] }>('t', 'k')!.list.push(2);
      s.list<{ list: number[] }>('t')[0].value.list.push(3);
      expect(s.get('t', 'k')).toEqual({ list: [1] });
    });

    it('returns the result of fn and the index the write was given', async () => {
      const s = await openStore();
      const before = s.index();
      const { result, index } = await s.write((tx) => {
        tx.put('t', 'a', 1);
        return `at ${tx.index}`;
      });
      expect(index).toBe(before + 1);
      expect(result).toBe(`at ${index}`);
      expect(s.index()).toBe(index);
    });

    it('reads inside a write see the write', async () => {
      const s = await openStore();
      await s.write((tx) => tx.put('t', 'a', 1));
      const { result } = await s.write((tx) => {
        tx.put('t', 'b', 2);
        tx.delete('t', 'a');
        return { b: tx.get('t', 'b'), a: tx.get('t', 'a'), list: tx.list('t').map((e) => e.key) };
      });
      expect(result).toEqual({ b: 2, a: undefined, list: ['b'] });
    });

    it('keys may contain any characters, including NUL and non-ASCII', async () => {
      const s = await openStore();
      const keys = ['a\u0000b', 'ünï/cödé', '日本', 'emoji-😀', '', 'emoji-\uffff', 'emoji-\ue000'];
      await s.write((tx) => keys.forEach((k, i) => tx.put('t', k, i)));
      keys.forEach((k, i) => expect(s.get('t', k)).toBe(i));
      // Byte order of UTF-8 is code point order.
      expect(s.list('t').map((e) => e.key)).toEqual([...keys].sort(cmpCodePoints));
    });

    it('rejects bad table names and over-long keys', async () => {
      const s = await openStore();
      await expect(s.write((tx) => tx.put('', 'k', 1))).rejects.toThrow(/table name/);
      await expect(s.write((tx) => tx.put('a\u0000b', 'k', 1))).rejects.toThrow(/table name/);
      await expect(s.write((tx) => tx.put('t', 'x'.repeat(3000), 1))).rejects.toThrow(/name too long/);
      // Reads and deletes are guarded too: an over-long name is the caller's mistake (a 400), never a 500.
      for (const read of [() => s.get('t', 'x'.repeat(3000)), () => s.list('t', 'x'.repeat(3000)), () => s.keys('t', 'x'.repeat(3000))]) {
        expect(read).toThrow(UserError);
      }
      expect(() => s.list('t', '', { start: 'x'.repeat(3000) })).toThrow(UserError);
      await expect(s.write((tx) => tx.delete('t', 'é'.repeat(1000)))).rejects.toThrow(/name too long: at most 1976 bytes are allowed here, got 2000/);
      expect(() => s.get('', 'k')).toThrow(/table name/);
      // The longest key allowed is stored.
      await s.write((tx) => tx.put('t', 'x'.repeat(1976), 1));
      expect(s.keys('t')).toEqual(['x'.repeat(1976)]);
    });
  });

  describe(`${name} store: writes within a transaction`, () => {
    it('a value is kept as it was when put, and every get answers a copy', async () => {
      const s = await openStore();
      await s.write((tx) => {
        const v = { n: 1, list: [1] };
        tx.put('t', 'k', v);
        v.n = 2;
        v.list.push(2);
        const read = tx.get<{ n: number; list: number[] }>('t', 'k')!;
        expect(read).toEqual({ n: 1, list: [1] });
        read.n = 3;
        expect(tx.get('t', 'k')).toEqual({ n: 1, list: [1] });
      });
      expect(s.get('t', 'k')).toEqual({ n: 1, list: [1] });
    });

    it('the last of many writes to one key is what commits; delete answers whether the key held a value', async () => {
      const s = await openStore();
      await s.write((tx) => tx.put('t', 'old', 'stored'));
      await s.write((tx) => {
        for (let i = 0; i < 50; i++) tx.put('t', 'sum', i);
        expect(tx.delete('t', 'never')).toBe(false);
        expect(tx.delete('t', 'old')).toBe(true);
        expect(tx.delete('t', 'old')).toBe(false);
        expect(tx.get('t', 'old')).toBeUndefined();
        tx.put('t', 'gone', 1);
        expect(tx.delete('t', 'gone')).toBe(true);
        tx.put('t', 'back', 1);
        tx.delete('t', 'back');
        tx.put('t', 'back', 2);
      });
      expect(s.list('t')).toEqual([
        { key: 'back', value: 2 },
        { key: 'sum', value: 49 },
      ]);
    });

    it('a list inside the transaction sees its puts and deletes', async () => {
      const s = await openStore();
      await s.write((tx) => ['a', 'b', 'c'].forEach((k) => tx.put('t', k, k)));
      await s.write((tx) => {
        tx.put('t', 'b', 'B');
        tx.delete('t', 'c');
        tx.put('t', 'd', 'd');
        tx.put('t', '0', '0');
        expect(tx.list('t')).toEqual([
          { key: '0', value: '0' },
          { key: 'a', value: 'a' },
          { key: 'b', value: 'B' },
          { key: 'd', value: 'd' },
        ]);
        tx.put('t', 'e', 'e');
        expect(tx.get('t', 'e')).toBe('e');
        expect(tx.list('t', 'd')).toEqual([{ key: 'd', value: 'd' }]);
      });
      expect(s.list('t').map((e) => e.key)).toEqual(['0', 'a', 'b', 'd', 'e']);
    });

    it('a write function that throws after puts and a list leaves nothing behind', async () => {
      const s = await openStore();
      await s.write((tx) => tx.put('t', 'a', 1));
      await expect(
        s.write((tx) => {
          tx.put('t', 'a', 2);
          tx.put('t', 'b', 1);
          tx.list('t');
          tx.put('t', 'c', 1);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(s.list('t')).toEqual([{ key: 'a', value: 1 }]);
    });

    it('beforeCommit functions run after fn, inside the transaction, and may write', async () => {
      const s = await openStore();
      const { result, index } = await s.write((tx) => {
        tx.beforeCommit(() => {
          tx.put('audit', 'last', { keys: tx.list('t').map((e) => e.key), at: tx.index });
          tx.beforeCommit(() => tx.put('audit', 'nested', true));
        });
        tx.put('t', 'a', 1);
        tx.put('t', 'b', 2);
        return 'done';
      });
      expect(result).toBe('done');
      expect(s.get('audit', 'last')).toEqual({ keys: ['a', 'b'], at: index });
      expect(s.get('audit', 'nested')).toBe(true);
      expect(s.tableIndex('audit')).toBe(index);

      await expect(
        s.write((tx) => {
          tx.put('t', 'c', 3);
          tx.beforeCommit(() => {
            throw new Error('hook says no');
          });
        }),
      ).rejects.toThrow('hook says no');
      expect(s.get('t', 'c')).toBeUndefined();
    });
  });

  describe(`${name} store: list`, () => {
    let s: Store;
    beforeEach(async () => {
      s = await openStore();
      // Written out of order to prove the ordering comes from the store.
      await s.write((tx) => {
        for (const k of ['job/b', 'job/a', 'job/c', 'alloc/1', 'job/', 'jobx', 'alloc/2']) tx.put('t', k, k.toUpperCase());
        tx.put('t2', 'job/zzz', 'other table');
        tx.put('s', 'z', 'before');
        tx.put('u', 'a', 'after');
      });
    });

    const keys = (entries: Array<{ key: string }>): string[] => entries.map((e) => e.key);

    it('lists a whole table in key order, without neighbouring tables', () => {
      expect(s.list('t')).toEqual([
        { key: 'alloc/1', value: 'ALLOC/1' },
        { key: 'alloc/2', value: 'ALLOC/2' },
        { key: 'job/', value: 'JOB/' },
        { key: 'job/a', value: 'JOB/A' },
        { key: 'job/b', value: 'JOB/B' },
        { key: 'job/c', value: 'JOB/C' },
        { key: 'jobx', value: 'JOBX' },
      ]);
      expect(keys(s.list('t2'))).toEqual(['job/zzz']);
      expect(s.list('empty')).toEqual([]);
    });

    it('filters by prefix', () => {
      expect(keys(s.list('t', 'job/'))).toEqual(['job/', 'job/a', 'job/b', 'job/c']);
      expect(keys(s.list('t', 'job'))).toEqual(['job/', 'job/a', 'job/b', 'job/c', 'jobx']);
      expect(keys(s.list('t', 'alloc/2'))).toEqual(['alloc/2']);
      expect(keys(s.list('t', 'nothing'))).toEqual([]);
    });

    it('reverses and limits', () => {
      expect(keys(s.list('t', 'job/', { reverse: true }))).toEqual(['job/c', 'job/b', 'job/a', 'job/']);
      expect(keys(s.list('t', 'job/', { limit: 2 }))).toEqual(['job/', 'job/a']);
      expect(keys(s.list('t', 'job/', { reverse: true, limit: 2 }))).toEqual(['job/c', 'job/b']);
      expect(keys(s.list('t', '', { reverse: true, limit: 1 }))).toEqual(['jobx']);
      expect(s.list('t', '', { limit: 0 })).toEqual([]);
      expect(keys(s.list('t', 'job/', { limit: -1 }))).toEqual(['job/', 'job/a', 'job/b', 'job/c']);
    });

    it('starts at an inclusive start key, in either direction', () => {
      expect(keys(s.list('t', 'job/', { start: 'job/b' }))).toEqual(['job/b', 'job/c']);
      expect(keys(s.list('t', 'job/', { start: 'job/aa' }))).toEqual(['job/b', 'job/c']);
      expect(keys(s.list('t', 'job/', { start: 'job/b', limit: 1 }))).toEqual(['job/b']);
      expect(keys(s.list('t', 'job/', { start: 'job/b', reverse: true }))).toEqual(['job/b', 'job/a', 'job/']);
      expect(keys(s.list('t', 'job/', { start: 'job/bb', reverse: true }))).toEqual(['job/b', 'job/a', 'job/']);
      // A start outside the prefix range clamps to it, or empties it.
      expect(keys(s.list('t', 'job/', { start: 'a' }))).toEqual(['job/', 'job/a', 'job/b', 'job/c']);
      expect(keys(s.list('t', 'job/', { start: 'z' }))).toEqual([]);
      expect(keys(s.list('t', 'job/', { start: 'z', reverse: true }))).toEqual(['job/c', 'job/b', 'job/a', 'job/']);
      expect(keys(s.list('t', 'job/', { start: 'a', reverse: true }))).toEqual([]);
    });

    it('answers the same keys without their values', () => {
      const cases: Array<[string, RangeOptions]> = [
        ['', {}],
        ['job/', {}],
        ['job/', { reverse: true, limit: 2 }],
        ['job/', { start: 'job/aa' }],
        ['job/', { start: 'job/bb', reverse: true }],
        ['', { limit: 0 }],
        ['nothing', {}],
      ];
      for (const [prefix, opts] of cases) expect(s.keys('t', prefix, opts)).toEqual(keys(s.list('t', prefix, opts)));
      expect(s.keys('t').length).toBeGreaterThan(3);
    });

    it('pages through a table with start + limit', async () => {
      const big = await openStore();
      await big.write((tx) => {
        for (let i = 0; i < 250; i++) tx.put('items', `i${String(i).padStart(4, '0')}`, i);
      });
      const seen: number[] = [];
      let start: string | undefined;
      for (;;) {
        const page = big.list<number>('items', 'i', { start, limit: 100 + 1 });
        seen.push(...page.slice(0, 100).map((e) => e.value));
        if (page.length <= 100) break;
        start = page[100].key;
      }
      expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
    });
  });

  describe(`${name} store: reads inside a write`, () => {
    type Query = { prefix: string } & RangeOptions;
    /** A put of the value, or (null) a delete. */
    type Op = [key: string, value: number | null];

    /** Units whose orders disagree (UTF-16, code points), NUL (the partitions' separator), a lone surrogate. */
    const unit = fc.constantFrom('a', '\u0000', 'é', '\uffff', '😀', '\ud800');
    // Few keys, so that writes and deletes often meet what is stored.
    const key = fc.array(unit, { maxLength: 2 }).map((units) => units.join(''));
    const ops = fc.array(fc.tuple(key, fc.option(fc.integer({ min: 0, max: 9 }), { nil: null, freq: 2 })), { maxLength: 12 });
    // A table of the file, and those LMDB holds in memory (lmdb-memory-tables.ts), which it lists another way.
    const memoryTables = ALLOC_MEMORY_TABLES.tables.map((t) => t.name);
    let fresh = 0;

    const apply = (tx: WriteTx, table: string, writes: Op[]): void => {
      for (const [k, v] of writes) {
        if (v === null) tx.delete(table, k);
        else tx.put(table, k, v);
      }
    };
    const read = (from: Store | WriteTx, table: string, queries: Query[]) =>
      queries.map(({ prefix, ...opts }) => ({ list: from.list(table, prefix, opts), keys: from.keys(table, prefix, opts) }));

    it('a list inside a write takes start, reverse and limit over its own puts and deletes', async () => {
      const s = await openStore();
      for (const table of ['t', ...memoryTables]) {
        await s.write((tx) => ['a', 'b', 'c', 'd', 'e'].forEach((k) => tx.put(table, k, k)));
        const { result } = await s.write((tx) => {
          for (const k of ['a', 'b', 'e']) tx.delete(table, k);
          tx.put(table, 'bb', 'bb');
          tx.put(table, 'd', 'D');
          tx.put(table, 'f', 'f');
          return [
            tx.list(table, '', { limit: 2 }),
            tx.list(table, '', { reverse: true, limit: 2 }),
            tx.keys(table, '', { start: 'b', limit: 1 }),
            tx.keys(table, '', { start: 'e', reverse: true }),
            tx.keys(table, '', { reverse: true }),
            tx.keys(table, 'b', { reverse: true, limit: 1 }),
          ];
        });
        expect(result).toEqual([
          [
            { key: 'bb', value: 'bb' },
            { key: 'c', value: 'c' },
          ],
          [
            { key: 'f', value: 'f' },
            { key: 'd', value: 'D' },
          ],
          ['bb'],
          ['d', 'c', 'bb'],
          ['f', 'd', 'c', 'bb'],
          ['bb'],
        ]);
      }
    });

    it('list and keys inside a write answer what they answer outside, the write\'s own puts and deletes and those of the writes queued before it included', async () => {
      const s = await openStore();
      await fc.assert(
        fc.asyncProperty(ops, ops, ops, listQueries(key, 6), async (committed, earlier, own, queries) => {
          for (const table of [`r${++fresh}`, ...memoryTables]) {
            const left = s.keys(table);
            await s.write((tx) => {
              for (const k of left) tx.delete(table, k);
              apply(tx, table, committed);
            });
            const { result: quiet } = await s.write((tx) => read(tx, table, queries));
            expect(quiet).toEqual(read(s, table, queries));

            // Queued together, they share one transaction (LMDB) or one batch over the replica.
            const first = s.write((tx) => apply(tx, table, earlier));
            // Its refusal is awaited from the start: it may come while `first` is still being awaited.
            const failed = expect(
              s.write((tx) => {
                apply(tx, table, own);
                for (const [k] of committed) tx.delete(table, k);
                tx.put(table, '', 'taken back');
                throw new Error('taken back');
              }),
            ).rejects.toThrow('taken back');
            const last = s.write((tx) => {
              apply(tx, table, own);
              return read(tx, table, queries);
            });
            await first;
            await failed;
            expect((await last).result).toEqual(read(s, table, queries));
          }
        }),
        { numRuns: 30 },
      );
    });
  });

  describe(`${name} store: writes and the index`, () => {
    it('increments the index on every write, even one that writes nothing', async () => {
      const s = await openStore();
      const start = s.index();
      const a = await s.write((tx) => tx.put('t', 'a', 1));
      const b = await s.write(() => 'nothing');
      const c = await s.write((tx) => tx.delete('t', 'missing'));
      expect([a.index, b.index, c.index]).toEqual([start + 1, start + 2, start + 3]);
      expect(s.index()).toBe(start + 3);
    });

    it('persists data and the indexes across close and reopen', async () => {
      const where = await location();
      const s1 = await where.open();
      await s1.write((tx) => tx.put('t', 'k', { v: 1 }));
      const { index } = await s1.write((tx) => tx.put('t', 'k2', { v: 2 }));
      await s1.write((tx) => tx.put('other', 'k', 1));
      await s1.close();

      const s2 = await where.open();
      open.push(s2);
      expect(s2.index()).toBe(index + 1);
      expect(s2.tableIndex('t')).toBe(index);
      expect(s2.get('t', 'k')).toEqual({ v: 1 });
      expect(s2.list('t').length).toBe(2);
      const next = await s2.write((tx) => tx.put('t', 'k3', 3));
      expect(next.index).toBe(index + 2);
    });

    it('a throwing fn writes nothing, does not use up an index, and rejects with the same error', async () => {
      const s = await openStore();
      await s.write((tx) => tx.put('t', 'keep', 'old'));
      const before = s.index();
      const boom = new Error('boom');
      const failed = s.write((tx) => {
        tx.put('t', 'keep', 'new');
        tx.put('t', 'other', 'x');
        tx.delete('t', 'keep');
        throw boom;
      });
      // Queued in the same batch: must be unaffected by its neighbour's rollback.
      const ok = s.write((tx) => tx.put('t', 'neighbour', 1));
      await expect(failed).rejects.toBe(boom);
      const { index } = await ok;
      expect(s.get('t', 'keep')).toBe('old');
      expect(s.get('t', 'other')).toBeUndefined();
      expect(s.get('t', 'neighbour')).toBe(1);
      expect(index).toBe(before + 1);
      expect(s.index()).toBe(before + 1);
    });

    it('rejects an async fn without writing', async () => {
      const s = await openStore();
      const before = s.index();
      await expect(
        s.write(async (tx) => {
          tx.put('t', 'a', 1);
        }),
      ).rejects.toThrow(/synchronous/);
      expect(s.get('t', 'a')).toBeUndefined();
      expect(s.index()).toBe(before);
    });

    it('refuses a tx used after its fn returned, and a write nested in a write', async () => {
      const s = await openStore();
      let leaked: WriteTx | undefined;
      await s.write((tx) => {
        leaked = tx;
      });
      expect(() => leaked!.put('t', 'late', 1)).toThrow(/after its write function returned/);
      expect(() => leaked!.get('t', 'late')).toThrow(/after its write function returned/);

      let inner: Promise<unknown> | undefined;
      await s.write(() => {
        inner = s.write((tx) => tx.put('t', 'inner', 1)).catch((e: unknown) => e);
      });
      expect(await inner).toEqual(new Error('store.write called from inside a write function'));
      expect(s.get('t', 'inner')).toBeUndefined();
    });

    it('100 concurrent read-modify-write increments lose nothing and get distinct indexes', async () => {
      const s = await openStore();
      const results = await Promise.all(
        Array.from({ length: 100 }, () =>
          s.write((tx) => {
            const n = tx.get<number>('counters', 'c') ?? 0;
            tx.put('counters', 'c', n + 1);
            return n + 1;
          }),
        ),
      );
      expect(s.get('counters', 'c')).toBe(100);
      expect(results.map((r) => r.result).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      const indexes = results.map((r) => r.index);
      expect(new Set(indexes).size).toBe(100);
      // Calls are applied in the order they were made.
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    });

    it('close waits for outstanding writes, and later writes are refused', async () => {
      const where = await location();
      const s = await where.open();
      const writes = Array.from({ length: 20 }, (_, i) => s.write((tx) => tx.put('t', `k${i}`, i)));
      await s.close();
      await Promise.all(writes);
      await expect(s.write((tx) => tx.put('t', 'late', 1))).rejects.toThrow(/closed/);
      const again = await where.open();
      open.push(again);
      expect(again.list('t').length).toBe(20);
    });
  });

  describe(`${name} store: commit`, () => {
    it('a commit is read back at once, wakes waiters once durable, and survives a close and reopen', async () => {
      const where = await location();
      const store = await where.open();
      try {
        const before = store.tableIndex('t');
        const woken = store.waitForIndex(before, 60_000, 't');
        const { result, index, durable } = await store.commit((tx) => {
          tx.put('t', 'k', { v: 1 });
          return tx.index;
        });
        expect(result).toBe(index);
        expect(store.get('t', 'k')).toEqual({ v: 1 });
        expect(store.tableIndex('t')).toBe(index);
        // The next write reads the committed one, flushed or not.
        const next = store.commit((tx) => tx.get<{ v: number }>('t', 'k')!.v + 1);
        await durable;
        expect(await woken).toBeGreaterThanOrEqual(index);
        expect((await next).result).toBe(2);
        await store.commit((tx) => tx.put('t', 'last', true));
      } finally {
        await store.close();
      }
      const reopened = await where.open();
      open.push(reopened);
      expect(reopened.get('t', 'last')).toBe(true);
    });

    it('a commit whose function throws rejects and writes nothing', async () => {
      const store = await openStore();
      const index = store.index();
      await expect(
        store.commit((tx) => {
          tx.put('t', 'k', 1);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(store.get('t', 'k')).toBeUndefined();
      expect(store.index()).toBe(index);
    });
  });

  describe(`${name} store: waitForCommit`, () => {
    it(`wakes no later than the commit resolves; waitForIndex no later than durable${flushAfterCommit ? ', and only after the commit resolves' : ''}`, async () => {
      const s = await openStore();
      const now = s.index();
      const order: string[] = [];
      const onCommit = s.waitForCommit(now, 10_000).then((i) => (order.push('waitForCommit'), i));
      const onDurable = s.waitForIndex(now, 10_000).then((i) => (order.push('waitForIndex'), i));
      const { index, durable } = await s.commit((tx) => tx.put('t', 'a', 1));
      order.push('committed');
      await durable;
      order.push('durable');
      expect(await onCommit).toBe(index);
      expect(await onDurable).toBe(index);
      expect(order.indexOf('waitForCommit')).toBeLessThan(order.indexOf('committed'));
      expect(order.indexOf('waitForIndex')).toBeLessThan(order.indexOf('durable'));
      // With a flush after the commit, waitForIndex's waiters are woken only by the flush.
      if (flushAfterCommit) expect(order.indexOf('waitForIndex')).toBeGreaterThan(order.indexOf('committed'));
    });

    it('waits on one table and ignores commits to others', async () => {
      const s = await openStore();
      let woke = false;
      const waiting = s.waitForCommit(s.tableIndex('jobs'), 10_000, 'jobs').then((i) => ((woke = true), i));
      await s.write((tx) => tx.put('allocs', 'x', 1));
      expect(woke).toBe(false);
      const { index } = await s.write((tx) => tx.put('jobs', 'a', 1));
      expect(await waiting).toBe(index);
    });
  });

  describe(`${name} store: waitForIndex`, () => {
    it('resolves immediately when the index is already past `after`', async () => {
      const s = await openStore();
      const { index } = await s.write((tx) => tx.put('t', 'a', 1));
      expect(await s.waitForIndex(index - 1, 5000)).toBe(index);
    });

    it('resolves on the next write', async () => {
      const s = await openStore();
      const now = s.index();
      const waiting = s.waitForIndex(now, 10_000);
      setTimeout(() => void s.write((tx) => tx.put('t', 'a', 1)), 30);
      expect(await waiting).toBe(now + 1);
    });

    it('times out with the current index', async () => {
      const s = await openStore();
      const now = s.index();
      const t0 = Date.now();
      expect(await s.waitForIndex(now, 120)).toBe(now);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    });

    it('waits on one table and ignores writes to others', async () => {
      const s = await openStore();
      const { index: jobsIndex } = await s.write((tx) => tx.put('jobs', 'a', 1));
      expect(await s.waitForIndex(0, 10, 'jobs')).toBe(jobsIndex);
      expect(await s.waitForIndex(0, 10, 'never-written')).toBe(0);

      let woke = false;
      const waiting = s.waitForIndex(jobsIndex, 10_000, 'jobs').then((i) => {
        woke = true;
        return i;
      });
      await s.write((tx) => tx.put('allocs', 'x', 1));
      await s.write((tx) => tx.delete('jobs', 'does-not-exist'));
      await new Promise((r) => setTimeout(r, 50));
      expect(woke).toBe(false);
      const { index } = await s.write((tx) => tx.put('jobs', 'b', 2));
      expect(await waiting).toBe(index);
      expect(index).toBe(jobsIndex + 3);
    });

    it('a table-specific timeout returns that table’s index, not the global one', async () => {
      const s = await openStore();
      const { index: jobsIndex } = await s.write((tx) => tx.put('jobs', 'a', 1));
      await s.write((tx) => tx.put('allocs', 'x', 1));
      expect(await s.waitForIndex(jobsIndex, 50, 'jobs')).toBe(jobsIndex);
    });

    it('close releases waiters', async () => {
      const s = await (await location()).open();
      const now = s.index();
      const waiting = s.waitForIndex(now, 60_000);
      await s.close();
      expect(await waiting).toBe(now);
    });
  });
}

/** Code point order, which is the byte order of UTF-8. */
export function cmpCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Lists to ask of a table, for property tests: a prefix, perhaps a start, either direction, perhaps a limit (-1: none). */
export function listQueries(key: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<Array<{ prefix: string } & RangeOptions>> {
  const query = fc.record({ prefix: key, start: fc.option(key, { nil: undefined }), reverse: fc.boolean(), limit: fc.option(fc.integer({ min: -1, max: 5 }), { nil: undefined }) });
  return fc.array(query, { minLength: 1, maxLength });
}
