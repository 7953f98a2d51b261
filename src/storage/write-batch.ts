import type { RangeOptions, WriteTx } from './store.js';
import { TxLifecycle } from './tx-lifecycle.js';
import type { LogEntry, PendingWrites } from './pending-writes.js';
import { storedKey, storedTable } from './store-keys.js';
import { jsonText } from './memory-tables.js';

export type Outcome = { ok: true; result: unknown; index: number } | { ok: false; error: unknown };

/**
 * Runs a batch of write functions one after another over `pending`, the first at index `after + 1`: each
 * sees the writes of those before it, as if each had its own transaction. A function that throws (or
 * returns a promise) leaves nothing behind and uses up no index. `running` is told while user code runs,
 * so the store can refuse a write started from inside one.
 */
export function runWriteFunctions(
  pending: PendingWrites,
  after: number,
  fns: ReadonlyArray<(tx: WriteTx) => unknown>,
  running: (on: boolean) => void,
): { entries: LogEntry[]; outcomes: Outcome[] } {
  const entries: LogEntry[] = [];
  const outcomes: Outcome[] = [];
  let index = after;
  for (const fn of fns) {
    const tx = new PendingWriteTx(pending, index + 1);
    running(true);
    try {
      const result = fn(tx);
      tx.end();
      if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
        // Its code after the first await would run outside the transaction, between other writes.
        throw new Error('store.write: fn must be synchronous (it returned a promise)');
      }
      entries.push(pending.keep(++index, tx.kind));
      outcomes.push({ ok: true, result, index });
    } catch (error) {
      pending.discard();
      outcomes.push({ ok: false, error });
    } finally {
      running(false);
      tx.live = false;
    }
  }
  return { entries, outcomes };
}

/** A write function's view: values in and out as JSON, so every read is a fresh copy, as with LMDB. */
class PendingWriteTx extends TxLifecycle implements WriteTx {
  constructor(
    private readonly pending: PendingWrites,
    readonly index: number,
  ) {
    super();
  }

  get<T>(table: string, key: string): T | undefined {
    this.check();
    const t = storedTable(table);
    const text = this.pending.get(t, storedKey(t, key));
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  list<T>(table: string, prefix = '', opts: RangeOptions = {}): Array<{ key: string; value: T }> {
    return this.entries(table, prefix, opts).map(([key, text]) => ({ key, value: JSON.parse(text) as T }));
  }

  keys(table: string, prefix = '', opts: RangeOptions = {}): string[] {
    return this.entries(table, prefix, opts).map(([key]) => key);
  }

  put(table: string, key: string, value: unknown): void {
    this.check();
    const t = storedTable(table);
    const k = storedKey(t, key);
    this.pending.put(t, k, jsonText(table, key, value));
  }

  delete(table: string, key: string): boolean {
    this.check();
    const t = storedTable(table);
    return this.pending.delete(t, storedKey(t, key));
  }

  /** Keys, prefix and start as stored, as the replica's reads take them (MemoryTables.entries). */
  private entries(table: string, prefix: string, opts: RangeOptions): Array<[key: string, text: string]> {
    this.check();
    const t = storedTable(table);
    const start = opts.start === undefined ? undefined : storedKey(t, opts.start);
    return this.pending.list(t, storedKey(t, prefix), { ...opts, start });
  }
}
