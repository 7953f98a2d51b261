import type { RangeOptions } from './store.js';
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
 * A value as a memory table holds it: JSON text, or a safe integer as itself where the holder chooses
 * (heldValue). An integer below 2³⁰ costs the heap no object at all; its text was a string per entry.
 */
export type HeldValue = string | number;

/** What a held value reads as: a fresh parse of the text, or the integer. */
const parsed = <T>(held: HeldValue): T => (typeof held === 'number' ? held : JSON.parse(held)) as T;

/**
 * What the LMDB store's memory tables hold for a value: a safe integer as itself (an allocation's creation
 * index), anything else as its JSON text. -0 is text: JSON reads it back as 0, and so must this.
 */
export function heldValue(table: string, key: string, value: unknown): HeldValue {
  return Number.isSafeInteger(value) && !Object.is(value, -0) ? (value as number) : jsonText(table, key, value);
}

/**
 * Every table of a store in memory, values as JSON text (or, in the LMDB store's tables, integers as
 * themselves: HeldValue): the PostgreSQL backend's replica, which answers
 * the Store interface's synchronous reads, and the LMDB store's memory tables. Text, not parsed values,
 * because callers mutate what they read: parsing on every read hands out a fresh copy, exactly what LMDB's
 * JSON encoding does, and a string takes a fraction of the memory of the object it encodes.
 */
export class MemoryTables<V extends HeldValue = string> {
  private readonly tables = new Map<string, TableMap<V>>();

  /** `partitions`: the tables kept as a PartitionedMap, each with its partitioner */
  constructor(private readonly partitions: ReadonlyMap<string, Partitioner> = new Map()) {}

  get(table: string, key: string): V | undefined {
    return this.tables.get(table)?.get(key);
  }

  /** Answers what the key held before, undefined when it is new. */
  set(table: string, key: string, value: V): V | undefined {
    let map = this.tables.get(table);
    if (map === undefined) this.tables.set(table, (map = tableMap<V>(this.partitions.get(table))));
    return map.set(key, value);
  }

  delete(table: string, key: string): boolean {
    const map = this.tables.get(table);
    if (map === undefined || !map.delete(key)) return false;
    if (map.size === 0) this.tables.delete(table);
    return true;
  }

  /** Takes a write's changes: each a put of JSON text, or (null) a delete. */
  apply(this: MemoryTables<string>, changes: readonly Change[]): void {
    for (const [table, key, text] of changes) {
      if (text === null) this.delete(table, key);
      else this.set(table, key, text);
    }
  }

  /** Store.get over the table (its name as stored): the key as the store keeps it, the value parsed afresh. */
  read<T>(table: string, key: string): T | undefined {
    const held = this.get(table, storedKey(table, key));
    return held === undefined ? undefined : parsed<T>(held);
  }

  /** Store.list (values parsed afresh) or, without values, Store.keys over the table (its name as stored). */
  entries<T>(table: string, prefix: string, opts: RangeOptions, values: boolean): Array<{ key: string; value: T }> {
    const out: Array<{ key: string; value: T }> = [];
    const start = opts.start === undefined ? undefined : storedKey(table, opts.start);
    this.walk(table, storedKey(table, prefix), { ...opts, start }, (key, held) => void out.push({ key, value: values ? parsed<T>(held) : (undefined as T) }));
    return out;
  }

  /** Visits the table's entries as walkRange does (ordered-map.ts). */
  walk(table: string, prefix: string, opts: RangeOptions, visit: (key: string, held: V) => void): void {
    const map = this.tables.get(table);
    if (map !== undefined) walkTable(map, prefix, opts, visit);
  }
}
