/**
 * A table read lazily, a batch at a time: a listing of 100,000 records holds one batch, not the table,
 * and between two batches the caller may give the event loop a turn. Each batch is its own read, so a
 * long walk sees writes committed meanwhile (as each key is visited once, in key order, it never sees a
 * record twice); the multi-process store makes no snapshot promise across reads either.
 */
import type { Store } from '../../storage/store.js';

export const SCAN_BATCH = 256;

/** Lets timers and other requests (a node's heartbeat) run before the walk goes on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function* scanTable<T>(store: Store, table: string, prefix = '', opts: { start?: string; reverse?: boolean } = {}): Generator<{ key: string; value: T }> {
  let cursor = opts.start;
  let first = true;
  for (;;) {
    const batch = store.list<T>(table, prefix, { start: cursor, reverse: opts.reverse, limit: SCAN_BATCH });
    let fresh = 0;
    for (const entry of batch) {
      // `start` is inclusive; later batches begin with the last key of the previous one.
      if (!first && entry.key === cursor) continue;
      fresh++;
      yield entry;
    }
    first = false;
    if (batch.length < SCAN_BATCH || fresh === 0) return;
    cursor = batch[batch.length - 1].key;
  }
}

/** The keys of a table, read as scanTable reads entries (a batch at a time), without their values. */
export function* scanKeys(store: Store, table: string, prefix = '', opts: { start?: string; reverse?: boolean } = {}): Generator<string> {
  let cursor = opts.start;
  let first = true;
  for (;;) {
    const batch = store.keys(table, prefix, { start: cursor, reverse: opts.reverse, limit: SCAN_BATCH });
    let fresh = 0;
    for (const key of batch) {
      if (!first && key === cursor) continue;
      fresh++;
      yield key;
    }
    first = false;
    if (batch.length < SCAN_BATCH || fresh === 0) return;
    cursor = batch[batch.length - 1];
  }
}
