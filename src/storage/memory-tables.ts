import { type RangeOptions } from './ordered-map.js';
import { tableMap, walkTable, type Partitioner, type TableMap } from './partitioned-map.js';
import { storedKey } from './store-keys.js';
import type { Change } from './pending-writes.js';

/** A value's JSON text, as a store keeps it; what has none (undefined, a function) is refused. */
export function jsonText(table: string, key: string, value: unknown): string {
  if (value === undefined) throw new TypeError(`store: cannot put undefined at ${table}/${key}; use delete`);
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`store: cannot put a ${typeof value} at ${table}/${key}: it has no JSON form`);
  return text;
}

/**
 * Every table of a store in memory, values as JSON text: the PostgreSQL backend's replica, which answers
 * the Store interface's synchronous reads, and the LMDB store's memory tables. Text, not parsed values,
 * because callers mutate what they read: parsing on every read hands out a fresh copy, exactly what LMDB's
 * JSON encoding does, and a string takes a fraction of the memory of the object it encodes.
 */
export class MemoryTables {
  private readonly tables = new Map<string, TableMap<string>>();

  /** `partitions`: the tables kept as a PartitionedMap, each with its partitioner */
  constructor(private readonly partitions: ReadonlyMap<string, Partitioner> = new Map()) {}

  get(table: string, key: string): string | undefined {
    return this.tables.get(table)?.get(key);
  }

  set(table: string, key: string, text: string): void {
    let map = this.tables.get(table);
    if (map === undefined) this.tables.set(table, (map = tableMap<string>(this.partitions.get(table))));
    map.set(key, text);
  }

  delete(table: string, key: string): boolean {
    const map = this.tables.get(table);
    if (map === undefined || !map.delete(key)) return false;
    if (map.size === 0) this.tables.delete(table);
    return true;
  }

  /** Takes a write's changes: each a put of JSON text, or (null) a delete. */
  apply(changes: readonly Change[]): void {
    for (const [table, key, text] of changes) {
      if (text === null) this.delete(table, key);
      else this.set(table, key, text);
    }
  }

  /** Store.get over the table (its name as stored): the key as the store keeps it, the value parsed afresh. */
  read<T>(table: string, key: string): T | undefined {
    const text = this.get(table, storedKey(table, key));
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  /** Store.list (values parsed afresh) or, without values, Store.keys over the table (its name as stored). */
  entries<T>(table: string, prefix: string, opts: RangeOptions, values: boolean): Array<{ key: string; value: T }> {
    const out: Array<{ key: string; value: T }> = [];
    const start = opts.start === undefined ? undefined : storedKey(table, opts.start);
    this.walk(table, storedKey(table, prefix), { ...opts, start }, (key, text) => void out.push({ key, value: (values ? JSON.parse(text) : undefined) as T }));
    return out;
  }

  /** Visits the table's entries as walkRange does (ordered-map.ts). */
  walk(table: string, prefix: string, opts: RangeOptions, visit: (key: string, text: string) => void): void {
    const map = this.tables.get(table);
    if (map !== undefined) walkTable(map, prefix, opts, visit);
  }
}
