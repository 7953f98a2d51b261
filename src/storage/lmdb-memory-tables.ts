import { heldValue, MemoryTables, type HeldValue } from './memory-tables.js';
import type { Partitioner } from './partitioned-map.js';
import type { RangeOptions, Store } from './store.js';
import { storedKey } from './store-keys.js';

/**
 * Tables the LMDB store keeps in this process's memory instead of its file: indexes whose keys are
 * random (an allocation's UUID, a node's), which a B-tree takes on a scattered page per insert. A plan
 * of 1,000 placements dirtied about 2,000 pages of those two indexes once a million allocations were
 * stored, so the commit cost grew with the store: the last tenth of a million placements ran at 76–80%
 * of the first tenth's rate with them in the file, 85–92% with them here. Indexes that a write would
 * otherwise put in the file as records of their own beside the one they index are here too: a put into
 * the file costs more than one into memory. The file keeps what they are derived from, in creation order,
 * and they are rebuilt from it whenever the store opens; the data dir's lock (dir-lock.ts) makes this
 * process the only one that writes them.
 */
export interface MemoryTablesSpec {
  /** the tables held in memory only, each kept in partitions (partitioned-map.ts) */
  readonly tables: ReadonlyArray<{ readonly name: string; readonly partition: Partitioner }>;
  /** their entries, derived from what the file holds; called once the store is open and migrated */
  rebuild(store: Store): Iterable<readonly [table: string, key: string, value: unknown]>;
}

/**
 * The memory tables. A write function writes into them directly and they take its writes back if it
 * throws; nothing else runs meanwhile (write functions are synchronous), so no reader sees a function's
 * writes before it returns. That is before lmdb commits its transaction: a reader never finds a record of
 * the file (an evaluation the plan completed) ahead of its entry here, only for a moment an entry whose
 * record is not yet there, which every reader treats as absent. Keys are held as LMDB stores them
 * (storedKey) and values as JSON text, so each read hands out a fresh copy, as LMDB's JSON encoding does;
 * a safe integer (an allocation's creation index) is held as itself, which needs no copy.
 */
export class LmdbMemoryTables {
  readonly names: ReadonlySet<string>;
  private tables: MemoryTables<HeldValue>;
  /**
   * what the running write function changed, with what each key held before: table, key, value or
   * undefined, three slots per change (a flat list: a placement makes four changes, a tuple each was
   * garbage the size of the changes)
   */
  private readonly undo: Array<string | HeldValue | undefined> = [];

  constructor(
    private readonly spec: MemoryTablesSpec,
    private readonly store: Store,
  ) {
    this.names = new Set(spec.tables.map((t) => t.name));
    this.tables = this.empty();
  }

  /** Fills the tables from the file: at open, and after a commit failed with its writes applied here. */
  load(): void {
    this.tables = this.empty();
    for (const [table, key, value] of this.spec.rebuild(this.store)) this.tables.set(table, key, heldValue(table, key, value));
    this.undo.length = 0;
  }

  get<T>(table: string, key: string): T | undefined {
    return this.tables.read<T>(table, key);
  }

  list<T>(table: string, prefix: string, opts: RangeOptions, values: boolean): Array<{ key: string; value: T }> {
    return this.tables.entries<T>(table, prefix, opts, values);
  }

  txPut(table: string, key: string, value: unknown): void {
    const stored = storedKey(table, key);
    this.undo.push(table, stored, this.tables.set(table, stored, heldValue(table, key, value)));
  }

  txDelete(table: string, key: string): boolean {
    const stored = storedKey(table, key);
    const before = this.tables.get(table, stored);
    if (before === undefined) return false;
    this.undo.push(table, stored, before);
    this.tables.delete(table, stored);
    return true;
  }

  /** The write function ran to the end: its writes stay. */
  keep(): void {
    this.undo.length = 0;
  }

  /** The write function threw: its writes are taken back, the last first. */
  discard(): void {
    for (let i = this.undo.length - 3; i >= 0; i -= 3) {
      const table = this.undo[i] as string;
      const key = this.undo[i + 1] as string;
      const before = this.undo[i + 2] as HeldValue | undefined;
      if (before === undefined) this.tables.delete(table, key);
      else this.tables.set(table, key, before);
    }
    this.undo.length = 0;
  }

  private empty(): MemoryTables<HeldValue> {
    return new MemoryTables<HeldValue>(new Map(this.spec.tables.map((t) => [t.name, t.partition])));
  }
}
