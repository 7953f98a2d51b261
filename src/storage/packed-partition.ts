import { sortKey } from './ordered-map.js';

/** Where a key is encoded to be searched for or inserted; grown for a longer key. */
let scratch: Buffer = Buffer.allocUnsafeSlow(4096);

/** The key's UTF-8 in `scratch`; answers its length. */
function encode(key: string): number {
  // A UTF-16 unit takes at most three bytes of UTF-8.
  if (key.length * 3 > scratch.length) scratch = Buffer.allocUnsafeSlow(key.length * 3);
  return scratch.write(key, 0, 'utf8');
}

const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * One partition of a PartitionedMap: its keys as UTF-8, back to back in key order in one buffer, and
 * their values in an array beside them. A million allocations' index entries held as a string and a Map
 * entry each took about 240 MiB of heap, millions of objects that every collection had to walk, and the
 * collections grew slower as that heap grew. Bytes in a buffer are outside what the collector walks.
 *
 * UTF-8 byte order is code point order, which is LMDB's order, so keys compare as bytes. A get or a
 * delete searches in log₂ of the partition's size; an insert moves the entries after it, nothing when
 * it appends (a node's next allocation, by creation). That is why partitions are kept small: a node's
 * allocations, or the 4,096 three-digit heads of random IDs.
 */
export class PackedPartition<V> {
  /** the keys' UTF-8, less what they all start with (`skip` bytes) */
  private bytes: Buffer = Buffer.allocUnsafeSlow(64);
  /** where each key starts in `bytes`; a key ends where the next starts, the last at `used` */
  private starts = new Int32Array(8);
  private used = 0;
  private readonly values: V[] = [];
  /** the bytes of the partition's name, which every key starts with and which are not held */
  private readonly skip: number;
  /** what a key read back starts with: the name, or nothing when keys are held whole */
  private readonly head: string;

  constructor(name: string) {
    // A name that ends inside a surrogate pair (the one-unit head of an astral character) has no UTF-8
    // of its own that the keys' UTF-8 starts with: those partitions hold their keys whole.
    const whole = !isWellFormed(name);
    this.skip = whole ? 0 : Buffer.byteLength(name);
    this.head = whole ? '' : name;
  }

  get size(): number {
    return this.values.length;
  }

  get(key: string): V | undefined {
    const at = this.find(key);
    return at < 0 ? undefined : this.values[at];
  }

  /** Answers what the key held before, undefined when it is new. */
  set(key: string, value: V): V | undefined {
    const length = encode(key);
    const n = this.values.length;
    let at = n;
    if (n > 0 && this.compareAt(n - 1, length) >= 0) {
      at = this.search(length);
      if (this.compareAt(at, length) === 0) {
        const before = this.values[at];
        this.values[at] = value;
        return before;
      }
    }
    this.insert(at, length, value);
    return undefined;
  }

  delete(key: string): boolean {
    const at = this.find(key);
    if (at < 0) return false;
    this.remove(at);
    return true;
  }

  /** OrderedMap.walk: from the first key `firstAfter` holds for (the last before it, reversed). */
  walk(firstAfter: (sortKey: string) => boolean, reverse: boolean, visit: (key: string, value: V) => boolean): void {
    const n = this.values.length;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (firstAfter(sortKey(this.keyAt(mid)))) hi = mid;
      else lo = mid + 1;
    }
    if (!reverse) {
      for (let i = lo; i < n; i++) if (!visit(this.keyAt(i), this.values[i])) return;
      return;
    }
    for (let i = lo - 1; i >= 0; i--) if (!visit(this.keyAt(i), this.values[i])) return;
  }

  private keyAt(i: number): string {
    return this.head + this.bytes.toString('utf8', this.starts[i], this.end(i));
  }

  private end(i: number): number {
    return i + 1 < this.values.length ? this.starts[i + 1] : this.used;
  }

  /** The i-th key against the one in `scratch` (`length` bytes): negative, zero or positive. */
  private compareAt(i: number, length: number): number {
    // A loop here, not Buffer.compare: keys differ within their first few bytes, and the native call's
    // checks cost more than that (a quarter of the rebuild's time).
    const bytes = this.bytes;
    const end = this.end(i);
    let x = this.starts[i];
    let y = this.skip;
    while (x < end && y < length) {
      const d = bytes[x++] - scratch[y++];
      if (d !== 0) return d;
    }
    return end - x - (length - y);
  }

  /** The position of the first key not below the one in `scratch`. */
  private search(length: number): number {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compareAt(mid, length) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private find(key: string): number {
    const length = encode(key);
    const at = this.search(length);
    return at < this.values.length && this.compareAt(at, length) === 0 ? at : -1;
  }

  private insert(at: number, length: number, value: V): void {
    const size = length - this.skip;
    const n = this.values.length;
    if (this.used + size > this.bytes.length) this.bytes = resized(this.bytes, Math.max(this.bytes.length * 2, this.used + size), this.used);
    if (n + 1 > this.starts.length) {
      const starts = new Int32Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
    }
    const from = at < n ? this.starts[at] : this.used;
    this.bytes.copyWithin(from + size, from, this.used);
    scratch.copy(this.bytes, from, this.skip, length);
    for (let i = n; i > at; i--) this.starts[i] = this.starts[i - 1] + size;
    this.starts[at] = from;
    this.used += size;
    if (at === n) this.values.push(value);
    else this.values.splice(at, 0, value);
  }

  private remove(at: number): void {
    const from = this.starts[at];
    const size = this.end(at) - from;
    const n = this.values.length;
    this.bytes.copyWithin(from, from + size, this.used);
    for (let i = at; i < n - 1; i++) this.starts[i] = this.starts[i + 1] - size;
    this.used -= size;
    this.values.splice(at, 1);
    // A node whose allocations were collected gives the room back.
    if (this.bytes.length > 256 && this.used < this.bytes.length / 4) this.bytes = resized(this.bytes, this.bytes.length / 2, this.used);
    if (this.starts.length > 32 && n - 1 < this.starts.length / 4) this.starts = this.starts.slice(0, this.starts.length / 2);
  }
}

/** A buffer of `size` bytes holding the first `used` of `bytes`. */
function resized(bytes: Buffer, size: number, used: number): Buffer {
  const next = Buffer.allocUnsafeSlow(size);
  bytes.copy(next, 0, 0, used);
  return next;
}
