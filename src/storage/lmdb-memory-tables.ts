import { MemoryTables } from './memory-tables.js';
import type { RangeOptions } from './ordered-map.js';
import type { Partitioner } from './partitioned-map.js';
import { PendingWrites } from './pending-writes.js';
import type { Store } from './store.js';
import { storedKey } from './store-keys.js';

/**
 * Tables the LMDB store keeps in this process's memory instead of its file: indexes whose keys are
 * random (an allocation's UUID, a node's), which a B-tree takes on a scattered page per insert. A plan
 * of 1,000 placements dirtied about 2,000 pages of those two indexes once a million allocations were
 * stored, so the commit cost grew with the store: the last tenth of a million placements ran at 76–80%
 * of the first tenth's rate with them in the file, 85–92% with them here. The file keeps what they are
 * derived from, in creation order, and they are rebuilt from it whenever the store opens; the data dir's
 * lock (dir-lock.ts) makes this process the only one that writes them.
 */
export interface MemoryTablesSpec {
  /** the tables held in memory only, each kept in partitions (partitioned-map.ts) */
  readonly tables: ReadonlyArray<{ readonly name: string; readonly partition: Partitioner }>;
  /** their entries, derived from what the file holds; called once the store is open and migrated */
  rebuild(store: Store): Iterable<readonly [table: string, key: string, value: unknown]>;
}

/**
 * The memory tables, and the writes of the write function running. A function's writes are applied
 * when it returns, before lmdb commits its transaction: a reader never finds a record of the file (an
 * evaluation the plan completed) ahead of its entry here, only for a moment an entry whose record is not
 * yet there, which every reader treats as absent. The later functions of the batch see them too, as they
 * share its LMDB transaction. Keys are held as LMDB stores them (storedKey) and values as JSON text, so
 * each read hands out a fresh copy, as LMDB's JSON encoding does.
 */
export class LmdbMemoryTables {
  readonly names: ReadonlySet<string>;
  private committed: MemoryTables;
  private pending: PendingWrites;
  /** whether the running write function wrote to a memory table */
  private written = false;

  constructor(
    private readonly spec: MemoryTablesSpec,
    private readonly store: Store,
  ) {
    this.names = new Set(spec.tables.map((t) => t.name));
    this.committed = this.empty();
    this.pending = new PendingWrites(this.committed);
  }

  /** Fills the tables from the file: at open, and after a commit failed with its writes applied here. */
  load(): void {
    this.committed = this.empty();
    for (const [table, key, value] of this.spec.rebuild(this.store)) this.committed.set(table, key, JSON.stringify(value));
    this.pending = new PendingWrites(this.committed);
    this.written = false;
  }

  get<T>(table: string, key: string): T | undefined {
    return parse<T>(this.committed.get(table, storedKey(table, key)));
  }

  list<T>(table: string, prefix: string, opts: RangeOptions, values: boolean): Array<{ key: string; value: T }> {
    const out: Array<{ key: string; value: T }> = [];
    const start = opts.start === undefined ? undefined : storedKey(table, opts.start);
    this.committed.walk(table, storedKey(table, prefix), { ...opts, start }, (key, text) => void out.push({ key, value: (values ? JSON.parse(text) : undefined) as T }));
    return out;
  }

  txGet<T>(table: string, key: string): T | undefined {
    return parse<T>(this.pending.get(table, storedKey(table, key)));
  }

  txList<T>(table: string, prefix: string): Array<{ key: string; value: T }> {
    return this.pending.list(table, storedKey(table, prefix)).map(([key, text]) => ({ key, value: JSON.parse(text) as T }));
  }

  txPut(table: string, key: string, value: unknown): void {
    this.written = true;
    this.pending.put(table, storedKey(table, key), JSON.stringify(value));
  }

  txDelete(table: string, key: string): boolean {
    this.written = true;
    return this.pending.delete(table, storedKey(table, key));
  }

  /** The write function ran to the end: its writes are applied. Answers whether there were any. */
  keep(): boolean {
    if (!this.written) return false;
    this.written = false;
    const { changes } = this.pending.keep(0);
    this.committed.apply(changes);
    this.pending.settle(changes);
    return changes.length > 0;
  }

  /** The write function threw: its writes are taken back. */
  discard(): void {
    if (!this.written) return;
    this.written = false;
    this.pending.discard();
  }

  private empty(): MemoryTables {
    return new MemoryTables(new Map(this.spec.tables.map((t) => [t.name, t.partition])));
  }
}

function parse<T>(text: string | undefined): T | undefined {
  return text === undefined ? undefined : (JSON.parse(text) as T);
}
