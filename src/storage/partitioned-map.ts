import { OrderedMap, walkRange } from './ordered-map.js';
import type { RangeOptions } from './store.js';
import { PackedPartition } from './packed-partition.js';

/**
 * Names the part of the key space a key belongs to: a prefix of the key. Keys of different partitions
 * must never interleave in key order, which holds for the key up to its first \0 (all of it when it has
 * none: bySegment) or its n-th with what follows it up to a fixed length (bySegments), and for the key's
 * first n units (byHead).
 */
export type Partitioner = (key: string) => string;

export const bySegment: Partitioner = (key) => {
  const at = key.indexOf('\u0000');
  return at < 0 ? key : key.slice(0, at);
};

/**
 * The key up to its n-th \0 and `head` units past it (all of it when it is shorter): `<ns>\0<job>\0<h>`
 * of `<ns>\0<job>\0<ID>` for n = 2 and head = 1, `<h>` the ID's first hex digit.
 */
export const bySegments =
  (n: number, head = 0): Partitioner =>
  (key) => {
    let at = -1;
    for (let i = 0; i < n; i++) {
      at = key.indexOf('\u0000', at + 1);
      if (at < 0) return key;
    }
    return key.slice(0, head === 0 ? at : at + 1 + head);
  };

export const byHead =
  (n: number): Partitioner =>
  (key) =>
    key.slice(0, n);

/**
 * A small sorted map per partition (packed-partition.ts), for a table whose inserts land all over its key
 * space. One OrderedMap of a million random keys moved hundreds of entries per insert: at that size the
 * memory tables' inserts cost more than the LMDB writes they replaced.
 */
export class PartitionedMap<V> {
  /**
   * The partitions by name, in key order. Ordered as the keys are, in chunks: a table partitioned per
   * job and per evaluation gains partitions with every small job, and a sorted array of their names
   * moved them all on each new one (at 200,000 allocations, 0.4 ms of each placement).
   */
  private readonly parts = new OrderedMap<PackedPartition<V>>();
  private count = 0;

  constructor(private readonly partitionOf: Partitioner) {}

  get(key: string): V | undefined {
    return this.parts.get(this.partitionOf(key))?.get(key);
  }

  /** Answers what the key held before, undefined when it is new. */
  set(key: string, value: V): V | undefined {
    const name = this.partitionOf(key);
    let map = this.parts.get(name);
    if (map === undefined) {
      this.parts.set(name, (map = new PackedPartition<V>(name)));
    }
    const before = map.set(key, value);
    if (before === undefined) this.count++;
    return before;
  }

  delete(key: string): boolean {
    const name = this.partitionOf(key);
    const map = this.parts.get(name);
    if (map === undefined || !map.delete(key)) return false;
    this.count--;
    if (map.size === 0) this.parts.delete(name);
    return true;
  }

  get size(): number {
    return this.count;
  }

  /** What walkRange visits on one ordered map of every key, in the same order. */
  walk(prefix: string, opts: RangeOptions, visit: (key: string, value: V) => void): void {
    let left = opts.limit !== undefined && opts.limit >= 0 ? opts.limit : Infinity;
    if (left === 0) return;
    const names = this.candidates(prefix);
    if (opts.reverse) names.reverse();
    for (const name of names) {
      walkRange(this.parts.get(name)!, prefix, { ...opts, limit: left }, (key, value) => {
        visit(key, value);
        left--;
      });
      if (left === 0) return;
    }
  }

  /**
   * The partitions that may hold keys starting with `prefix`, in key order: those whose name is a prefix
   * of it (shortest first), then those whose name starts with it.
   */
  private candidates(prefix: string): string[] {
    const out: string[] = [];
    for (let n = 0; n < prefix.length; n++) if (this.parts.get(prefix.slice(0, n)) !== undefined) out.push(prefix.slice(0, n));
    walkRange(this.parts, prefix, {}, (name) => out.push(name));
    return out;
  }
}

/** A table's entries in memory: one ordered map, or one per partition. */
export type TableMap<V> = OrderedMap<V> | PartitionedMap<V>;

export const tableMap = <V>(partition: Partitioner | undefined): TableMap<V> => (partition ? new PartitionedMap<V>(partition) : new OrderedMap<V>());

/** What walkRange visits, for either kind of map. */
export function walkTable<V>(map: TableMap<V>, prefix: string, opts: RangeOptions, visit: (key: string, value: V) => void): void {
  if (map instanceof PartitionedMap) map.walk(prefix, opts, visit);
  else walkRange(map, prefix, opts, visit);
}
