/**
 * `commit`: `write` in two steps. What a commit wrote is read back as soon as it resolves, before it is
 * durable; waiters hear of it once `durable` resolves; closing the store waits for the flush, so the
 * write is there after a reopen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-commit-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

it('a commit is read back at once, wakes waiters once durable, and survives a close and reopen', async () => {
  const store = await openLmdbStore({ dir: tmp });
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
  const reopened = await openLmdbStore({ dir: tmp });
  try {
    expect(reopened.get('t', 'last')).toBe(true);
  } finally {
    await reopened.close();
  }
});

it('a commit whose function throws rejects and writes nothing', async () => {
  const store = await openLmdbStore({ dir: tmp });
  try {
    const index = store.index();
    await expect(
      store.commit((tx) => {
        tx.put('t', 'k', 1);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(store.get('t', 'k')).toBeUndefined();
    expect(store.index()).toBe(index);
  } finally {
    await store.close();
  }
});
