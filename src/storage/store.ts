/**
 * The state store interface, implemented by LMDB (the embedded default), by PostgreSQL (several server
 * processes sharing one database) and in memory (tests). Nothing here may assume one process: every
 * read-modify-write goes through `write`, and the index comes from the store, not from memory.
 *
 * Keys are strings grouped in tables. A table is a key prefix, ordered lexicographically.
 */
/** The table of the store's and the server's own bookkeeping: index, schema version, initialisation, keys. */
export const META_TABLE = 'meta';

/** Which of a prefix's entries a list answers (walkRange in ordered-map.ts spells out the semantics). */
export interface RangeOptions {
  reverse?: boolean;
  limit?: number;
  start?: string;
}

export interface Store {
  /** Current value of the global write index (0 on an empty store). */
  index(): number;

  /** The index of the last write that changed `table` (a put, or a delete that removed something). */
  tableIndex(table: string): number;

  get<T>(table: string, key: string): T | undefined;

  /** Entries whose key starts with `prefix`, in key order. */
  list<T>(table: string, prefix?: string, opts?: RangeOptions): Array<{ key: string; value: T }>;

  /** The keys `list` would answer, without reading their values. */
  keys(table: string, prefix?: string, opts?: RangeOptions): string[];

  /**
   * Run `fn` in one atomic write transaction. Reads inside see the transaction's own writes. The promise
   * resolves only after the transaction is committed and flushed to disk, with fn's result and the index
   * the transaction was given. If fn throws, nothing is written and the promise rejects with that error.
   */
  write<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number }>;

  /**
   * `write` in two steps, so that work can overlap the flush: the promise resolves once the transaction
   * is committed, when every later read (in any process) sees it, and `durable` resolves once it is on
   * disk. Whoever acts on the write's outcome (answers a client, acknowledges work) must wait for
   * `durable`; `waitForIndex` waiters are woken only then, as for `write`. Durability follows commit
   * order: once one commit is durable, so is every earlier one. `durable` rejects only when the flush
   * failed.
   *
   * The PostgreSQL backend commits with synchronous commit, so its COMMIT answers once the change is
   * flushed, and it resolves both together. (With `SET LOCAL synchronous_commit = off` it could resolve
   * `durable` later, once pg_current_wal_flush_lsn() passed the pg_current_wal_insert_lsn() read right
   * after COMMIT.)
   */
  commit<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number; durable: Promise<void> }>;

  /** Resolves when a write with index > `after` has happened, or after `timeoutMs`. */
  waitForIndex(after: number, timeoutMs: number, table?: string): Promise<number>;

  /**
   * As waitForIndex, but woken as soon as such a write is committed (visible), before it is durable. For
   * work that reads the write and acknowledges what it does only through later writes: those are
   * durable only after it (durability follows commit order), so nothing acknowledged can rest on a write
   * that a crash takes away. The evaluation broker waits so for new evaluations, which saves a flush per
   * evaluation.
   */
  waitForCommit(after: number, timeoutMs: number, table?: string): Promise<number>;

  /**
   * Hears every write the store applies, once it is durable, in index order: this process's own commits
   * and, on a store several processes share, every other process's as this one follows them. A write is
   * heard only when it changed one of `tables`, and with its changes to those tables only. A store that
   * loads a whole newer snapshot (a process too far behind the log) skips the writes in between, and
   * says so to `gap` with the snapshot's index. The listener runs synchronously where the write is
   * applied, so it must be quick and must not throw. Answers the function that stops it.
   */
  follow(tables: ReadonlySet<string>, listener: (write: AppliedWrite) => void, gap?: (index: number) => void): () => void;

  close(): Promise<void>;
}

/** One change of a write: a put (the value as JSON text) or a delete (null). */
export type AppliedChange = readonly [table: string, key: string, text: string | null];

/** A write as `follow` hears it. */
export interface AppliedWrite {
  index: number;
  /** what the write was, as its function described it (WriteTx.describe) */
  kind?: string;
  /** its changes to the followed tables, in the order made; a key written twice in it may appear twice, the last counting */
  changes: readonly AppliedChange[];
}

export interface WriteTx {
  /** The index this transaction will commit at; the same for every write in it. */
  readonly index: number;
  get<T>(table: string, key: string): T | undefined;
  /** As Store.list, over what the store holds with this transaction's own puts and deletes applied. */
  list<T>(table: string, prefix?: string, opts?: RangeOptions): Array<{ key: string; value: T }>;
  /** The keys `list` would answer, without reading their values. */
  keys(table: string, prefix?: string, opts?: RangeOptions): string[];
  put(table: string, key: string, value: unknown): void;
  delete(table: string, key: string): boolean;
  /**
   * Runs `fn` when the write function has returned, still inside the transaction (it may write): for a
   * record of what the whole transaction did, written once instead of after every change.
   */
  beforeCommit(fn: () => void): void;
  /**
   * Names what this write is (Nomad's message types: `JobRegister`, `ApplyPlanResults` ...), for those
   * that follow the store; the first name given counts.
   */
  describe(kind: string): void;
}
