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

type ScanOpts = { start?: string; reverse?: boolean };

/** The batch walk both scans share: `read` answers up to SCAN_BATCH items from `start` on (inclusive). */
function* batched<E>(read: (start: string | undefined) => E[], keyOf: (e: E) => string, start: string | undefined): Generator<E> {
  let cursor = start;
  let first = true;
  for (;;) {
    const batch = read(cursor);
    let fresh = 0;
    for (const item of batch) {
      // `start` is inclusive; later batches begin with the last key of the previous one.
      if (!first && keyOf(item) === cursor) continue;
      fresh++;
      yield item;
    }
    first = false;
    if (batch.length < SCAN_BATCH || fresh === 0) return;
    cursor = keyOf(batch[batch.length - 1]);
  }
}

export function scanTable<T>(store: Store, table: string, prefix = '', opts: ScanOpts = {}): Generator<{ key: string; value: T }> {
  return batched((start) => store.list<T>(table, prefix, { start, reverse: opts.reverse, limit: SCAN_BATCH }), (e) => e.key, opts.start);
}

/** The keys of a table, read as scanTable reads entries (a batch at a time), without their values. */
export function scanKeys(store: Store, table: string, prefix = '', opts: ScanOpts = {}): Generator<string> {
  return batched((start) => store.keys(table, prefix, { start, reverse: opts.reverse, limit: SCAN_BATCH }), (k) => k, opts.start);
}
