/**
 * A map that holds at most `max` entries and lets the least recently used one go past that. For memos
 * whose keys a caller chooses (documents, certificates): without a bound they would grow with every
 * distinct input.
 */
export class LruCache<K, V> {
  // A Map iterates in insertion order: an entry moved to the end on each use leaves the oldest first.
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry `drop` picks. */
  deleteWhere(drop: (key: K, value: V) => boolean): void {
    for (const [key, value] of this.entries) if (drop(key, value)) this.entries.delete(key);
  }
}
