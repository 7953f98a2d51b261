/**
 * A map from string keys that also walks its keys in order: the in-memory replica of one table of the
 * PostgreSQL backend, and the pending writes of a transaction over it.
 *
 * The order is Unicode code point order, which is the byte order of the keys' UTF-8 and so LMDB's order.
 * Entries live in a Map (a get never searches) and, in key order, in sorted chunks, so an insert or a
 * delete moves at most one chunk's worth of references, and a walk finds its start with two binary
 * searches. At a million keys that stays in the microseconds, where one sorted array would move megabytes
 * per insert.
 */

import type { RangeOptions } from './store.js';

/** Big enough that the chunk list stays short, small enough that a splice inside one is cheap. */
const MAX_CHUNK = 512;

/** Code units that JS's `<` orders differently from code points: surrogates and U+E000-U+FFFF. */
const HIGH_UNITS = /[\ud800-\uffff]/;
const HIGH_UNITS_ALL = /[\ud800-\uffff]/g;

/**
 * The key in a form whose UTF-16 order (JS's `<`) is code point order. UTF-16 stores astral characters
 * as surrogates (0xD800-0xDFFF), which `<` puts before U+E000-U+FFFF; code point order and UTF-8 put
 * them after. Moving the surrogates above the rest of the BMP fixes that, one unit for one unit, so
 * prefixes stay prefixes. Almost every key has no such unit and is its own sort key: `<` on it is native.
 */
export function sortKey(key: string): string {
  if (!HIGH_UNITS.test(key)) return key;
  return key.replace(HIGH_UNITS_ALL, (u) => {
    const unit = u.charCodeAt(0);
    return String.fromCharCode(unit < 0xe000 ? unit + 0x2000 : unit - 0x800);
  });
}

/** Compares two keys in code point order. */
export function compareKeys(a: string, b: string): number {
  const x = sortKey(a);
  const y = sortKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

interface Entry<V> {
  readonly key: string;
  value: V;
}

/** A run of consecutive entries and, at the same positions, their sort keys (searched without touching the entries). */
interface Chunk<V> {
  sortKeys: string[];
  entries: Entry<V>[];
}

export class OrderedMap<V> {
  private readonly byKey = new Map<string, Entry<V>>();
  private readonly chunks: Chunk<V>[] = [];

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): V | undefined {
    return this.byKey.get(key)?.value;
  }

  /** Answers what the key held before, undefined when it is new. */
  set(key: string, value: V): V | undefined {
    const entry = this.byKey.get(key);
    if (entry !== undefined) {
      const before = entry.value;
      entry.value = value;
      return before;
    }
    const added: Entry<V> = { key, value };
    this.byKey.set(key, added);
    this.insert(sortKey(key), added);
    return undefined;
  }

  delete(key: string): boolean {
    if (!this.byKey.delete(key)) return false;
    const [c, i] = this.lowerBound(sortKey(key));
    const chunk = this.chunks[c];
    chunk.sortKeys.splice(i, 1);
    chunk.entries.splice(i, 1);
    if (chunk.sortKeys.length === 0) this.chunks.splice(c, 1);
    return true;
  }

  /**
   * Visits entries in order until `visit` answers false. `firstAfter` splits the sort keys in two (false
   * for a leading run, true for the rest): a forward walk starts at the first key of the second part, a
   * reverse walk at the last key of the first.
   */
  walk(firstAfter: (sortKey: string) => boolean, reverse: boolean, visit: (key: string, value: V) => boolean): void {
    const chunks = this.chunks;
    let [c, i] = this.seek(firstAfter);
    if (!reverse) {
      for (; c < chunks.length; c++, i = 0) {
        const entries = chunks[c].entries;
        for (; i < entries.length; i++) if (!visit(entries[i].key, entries[i].value)) return;
      }
      return;
    }
    for (i--; ; ) {
      if (i < 0) {
        if (--c < 0) return;
        i = chunks[c].entries.length - 1;
      }
      const entries = chunks[c].entries;
      for (; i >= 0; i--) if (!visit(entries[i].key, entries[i].value)) return;
    }
  }

  private insert(sk: string, entry: Entry<V>): void {
    const chunks = this.chunks;
    const last = chunks[chunks.length - 1];
    // Keys loaded in order (a snapshot) and keys that grow (creation-ordered IDs) append.
    if (last === undefined || sk > last.sortKeys[last.sortKeys.length - 1]) {
      if (last === undefined || last.sortKeys.length >= MAX_CHUNK) chunks.push({ sortKeys: [sk], entries: [entry] });
      else {
        last.sortKeys.push(sk);
        last.entries.push(entry);
      }
      return;
    }
    const [c, i] = this.lowerBound(sk);
    const chunk = chunks[c];
    chunk.sortKeys.splice(i, 0, sk);
    chunk.entries.splice(i, 0, entry);
    if (chunk.sortKeys.length > MAX_CHUNK) {
      const half = chunk.sortKeys.length >> 1;
      chunks.splice(c + 1, 0, { sortKeys: chunk.sortKeys.splice(half), entries: chunk.entries.splice(half) });
    }
  }

  /** Where sort key `sk` is, or would be inserted; only called when some key is not below it. */
  private lowerBound(sk: string): [number, number] {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const keys = chunks[mid].sortKeys;
      if (keys[keys.length - 1] < sk) lo = mid + 1;
      else hi = mid;
    }
    const keys = chunks[lo].sortKeys;
    let a = 0;
    let b = keys.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (keys[mid] < sk) a = mid + 1;
      else b = mid;
    }
    return [lo, a];
  }

  /** The first position where `firstAfter` holds; [chunks.length, 0] when it holds nowhere. */
  private seek(firstAfter: (sortKey: string) => boolean): [number, number] {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const keys = chunks[mid].sortKeys;
      if (firstAfter(keys[keys.length - 1])) hi = mid;
      else lo = mid + 1;
    }
    if (lo === chunks.length) return [lo, 0];
    const keys = chunks[lo].sortKeys;
    let a = 0;
    let b = keys.length - 1;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (firstAfter(keys[mid])) b = mid;
      else a = mid + 1;
    }
    return [lo, a];
  }
}

/** What walkRange needs of a map: OrderedMap.walk. */
interface Walkable<V> {
  walk(firstAfter: (sortKey: string) => boolean, reverse: boolean, visit: (key: string, value: V) => boolean): void;
}

/**
 * Visits what `Store.list(table, prefix, opts)` answers, in its order: the keys that start with `prefix`,
 * from `start` (inclusive; a start outside the prefix's range clamps to it, or empties it), reversed, at
 * most `limit` (a negative limit is none). These are the semantics of LMDB's cursor over the byte range of
 * the prefix.
 */
export function walkRange<V>(map: Walkable<V>, prefix: string, opts: RangeOptions, visit: (key: string, value: V) => void): void {
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
