import type { MemoryTables } from './memory-tables.js';
import type { RangeOptions } from './store.js';
import { compareKeys, OrderedMap, walkRange } from './ordered-map.js';

/** One change: a put (the value as JSON text) or a delete (null). */
export type Change = [table: string, key: string, value: string | null];

/** What one write function did, under the index it was given: a row of the log. */
export interface LogEntry {
  index: number;
  /** The tables whose index moves to `index`: every one put to, and every one a delete removed something from. */
  tables: string[];
  changes: Change[];
  /** what the write was (WriteTx.describe) */
  kind?: string;
}

/**
 * The writes of a batch of write functions, over the replica they read: reads see the batch's writes,
 * and each function's writes can be taken back alone when it throws, as a savepoint would, so its
 * neighbours in the batch commit without it. Keys and tables arrive checked (store-keys.ts).
 */
export class PendingWrites {
  /** Per table, what the batch wrote: JSON text, or null for deleted. */
  private readonly tables = new Map<string, OrderedMap<string | null>>();
  /** The running function's first write to each key, with what the batch held there before it. */
  private undo: Array<[table: string, key: string, before: string | null | undefined]> = [];
  private changes = new Map<string, Change>();
  private touched = new Set<string>();

  constructor(private readonly base: MemoryTables) {}

  get(table: string, key: string): string | undefined {
    const mine = this.tables.get(table)?.get(key);
    if (mine !== undefined) return mine ?? undefined;
    return this.base.get(table, key);
  }

  /**
   * The table's entries that Store.list(table, prefix, opts) answers (walkRange's semantics): the
   * replica's, overlaid with the batch's writes, in the walk's order.
   */
  list(table: string, prefix: string, opts: RangeOptions): Array<[key: string, text: string]> {
    const base: Array<[string, string]> = [];
    const mine = this.tables.get(table);
    if (mine === undefined) {
      this.base.walk(table, prefix, opts, (key, text) => void base.push([key, text]));
      return base;
    }
    const written: Array<[string, string | null]> = [];
    walkRange(mine, prefix, { ...opts, limit: undefined }, (key, text) => void written.push([key, text]));
    const limit = opts.limit !== undefined && opts.limit >= 0 ? opts.limit : Infinity;
    // Each key the batch wrote hides at most one of the replica's entries, so this many of them hold the
    // overlay's first `limit`: a limited list need not walk the rest of the range (a page of a big table).
    const baseLimit = limit === Infinity ? undefined : limit + written.length;
    this.base.walk(table, prefix, { ...opts, limit: baseLimit }, (key, text) => void base.push([key, text]));
    const before = opts.reverse ? (a: string, b: string) => compareKeys(a, b) > 0 : (a: string, b: string) => compareKeys(a, b) < 0;
    const merged: Array<[string, string]> = [];
    let i = 0;
    for (const [key, text] of written) {
      while (i < base.length && before(base[i][0], key)) merged.push(base[i++]);
      if (i < base.length && base[i][0] === key) i++;
      if (text !== null) merged.push([key, text]);
    }
    while (i < base.length) merged.push(base[i++]);
    return limit < merged.length ? merged.slice(0, limit) : merged;
  }

  put(table: string, key: string, text: string): void {
    this.write(table, key, text);
  }

  /** Whether the key held a value. */
  delete(table: string, key: string): boolean {
    if (this.get(table, key) === undefined) return false;
    this.write(table, key, null);
    return true;
  }

  /** Ends the running function: its writes stay in the batch, and are answered as its log entry. */
  keep(index: number, kind: string | undefined): LogEntry {
    const entry: LogEntry = { index, tables: [...this.touched], changes: [...this.changes.values()] };
    if (kind !== undefined) entry.kind = kind;
    this.reset();
    return entry;
  }

  /** Ends the running function by taking back its writes. */
  discard(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) {
      const [table, key, before] = this.undo[i];
      const map = this.tables.get(table)!;
      if (before === undefined) map.delete(key);
      else map.set(key, before);
    }
    this.reset();
  }

  private write(table: string, key: string, text: string | null): void {
    let map = this.tables.get(table);
    // One ordered map, whatever the base keeps: a batch's writes are few, and a map per partition would
    // be made and dropped with every batch.
    if (map === undefined) this.tables.set(table, (map = new OrderedMap()));
    const id = `${table}\u0000${key}`;
    if (!this.changes.has(id)) this.undo.push([table, key, map.get(key)]);
    map.set(key, text);
    this.changes.set(id, [table, key, text]);
    this.touched.add(table);
  }

  private reset(): void {
    this.undo = [];
    this.changes = new Map();
    this.touched = new Set();
  }
}
