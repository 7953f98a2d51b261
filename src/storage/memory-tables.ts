import { OrderedMap, sortKey } from './ordered-map.js';

/**
 * Every table of a store in memory, values as JSON text: the PostgreSQL backend's replica, which answers
 * the Store interface's synchronous reads. Text, not parsed values, because callers mutate what they read:
 * parsing on every read hands out a fresh copy, exactly what LMDB's JSON encoding does, and a string takes
 * a fraction of the memory of the object it encodes.
 */
export class MemoryTables {
  private readonly tables = new Map<string, OrderedMap<string>>();

  get(table: string, key: string): string | undefined {
    return this.tables.get(table)?.get(key);
  }

  set(table: string, key: string, text: string): void {
    let map = this.tables.get(table);
    if (map === undefined) this.tables.set(table, (map = new OrderedMap()));
    map.set(key, text);
  }

  delete(table: string, key: string): boolean {
    const map = this.tables.get(table);
    if (map === undefined || !map.delete(key)) return false;
    if (map.size === 0) this.tables.delete(table);
    return true;
  }

  /** Takes a write's changes: each a put of JSON text, or (null) a delete. */
  apply(changes: ReadonlyArray<readonly [table: string, key: string, text: string | null]>): void {
    for (const [table, key, text] of changes) {
      if (text === null) this.delete(table, key);
      else this.set(table, key, text);
    }
  }

  table(table: string): OrderedMap<string> | undefined {
    return this.tables.get(table);
  }
}

export interface RangeOptions {
  reverse?: boolean;
  limit?: number;
  start?: string;
}

/**
 * Visits what `Store.list(table, prefix, opts)` answers, in its order: the keys that start with `prefix`,
 * from `start` (inclusive; a start outside the prefix's range clamps to it, or empties it), reversed, at
 * most `limit` (a negative limit is none). These are the semantics of LMDB's cursor over the byte range of
 * the prefix.
 */
export function walkRange<V>(map: OrderedMap<V>, prefix: string, opts: RangeOptions, visit: (key: string, value: V) => void): void {
  let left = opts.limit !== undefined && opts.limit >= 0 ? opts.limit : Infinity;
  if (left === 0) return;
  const p = sortKey(prefix);
  const s = opts.start === undefined ? undefined : sortKey(opts.start);
  // True for every key after the prefix's range: greater than the prefix without starting with it.
  const beyond = (k: string): boolean => k > p && !k.startsWith(p);
  let firstAfter: (k: string) => boolean;
  if (!opts.reverse) {
    if (s !== undefined && s > p) {
      if (!s.startsWith(p)) return;
      firstAfter = (k) => k >= s;
    } else {
      firstAfter = (k) => k >= p;
    }
  } else if (s !== undefined && !beyond(s)) {
    if (s < p) return;
    firstAfter = (k) => k > s;
  } else {
    firstAfter = beyond;
  }
  map.walk(firstAfter, opts.reverse === true, (key, value) => {
    if (!key.startsWith(prefix)) return false;
    visit(key, value);
    return --left > 0;
  });
}
