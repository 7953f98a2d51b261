import type { AppliedWrite, RangeOptions, Store, WriteTx } from './store.js';
import { IndexWaiters } from './index-waiters.js';
import { Replica } from './replica.js';
import { storedTable } from './store-keys.js';
import { PendingWrites, type LogEntry } from './pending-writes.js';
import { runWriteFunctions, type Outcome } from './write-batch.js';

/**
 * What the stores that hold their whole state in memory share (the PostgreSQL store's replica, and the
 * memory store): reads answered from the replica, each a fresh copy parsed from JSON text, and writes
 * queued and run a batch at a time by `runBatch`, which each store implements. A commit is durable when
 * it is visible: both kinds of waiter wake at once.
 */

export interface Call {
  fn: (tx: WriteTx) => unknown;
  resolve: (done: { result: unknown; index: number; durable: Promise<void> }) => void;
  reject: (err: unknown) => void;
}

export abstract class ReplicaStore implements Store {
  protected readonly waiters = new IndexWaiters((table) => this.currentFor(table));
  protected readonly replica = new Replica((index, tables) => this.waiters.notify(index, tables, false));
  protected readonly queue: Call[] = [];
  /** set while a write function runs, so that a write started from inside one is refused */
  protected inWrite = false;
  protected closed = false;
  private draining: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  /** `where` names the store in messages. */
  constructor(protected readonly where: string) {}

  /** Runs the calls queued now (or some of them) and settles each; never throws. */
  protected abstract runBatch(): Promise<void>;

  /** Releases what the store holds, once the queue is drained. */
  protected abstract shutdown(): Promise<void>;

  index(): number {
    return this.replica.index;
  }

  tableIndex(table: string): number {
    return this.replica.tableIndex(table);
  }

  get<T>(table: string, key: string): T | undefined {
    return this.replica.tables.read<T>(storedTable(table), key);
  }

  list<T>(table: string, prefix = '', opts: RangeOptions = {}): Array<{ key: string; value: T }> {
    return this.replica.tables.entries<T>(storedTable(table), prefix, opts, true);
  }

  keys(table: string, prefix = '', opts: RangeOptions = {}): string[] {
    return this.replica.tables.entries<never>(storedTable(table), prefix, opts, false).map((e) => e.key);
  }

  async write<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number }> {
    const { result, index, durable } = await this.commit(fn);
    await durable;
    return { result, index };
  }

  commit<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number; durable: Promise<void> }> {
    if (this.closed) return Promise.reject(new Error(`store ${this.where} is closed`));
    // It would run in a later transaction, after the one that called it: its caller could not await it.
    if (this.inWrite) return Promise.reject(new Error('store.write called from inside a write function'));
    return new Promise((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as Call['resolve'], reject });
      this.draining ??= this.drain();
    });
  }

  waitForIndex(after: number, timeoutMs: number, table?: string): Promise<number> {
    return this.waitFor(after, timeoutMs, table);
  }

  waitForCommit(after: number, timeoutMs: number, table?: string): Promise<number> {
    return this.waitFor(after, timeoutMs, table);
  }

  follow(tables: ReadonlySet<string>, listener: (write: AppliedWrite) => void, gap?: (index: number) => void): () => void {
    return this.replica.followers.add(tables, listener, gap);
  }

  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.closed = true;
    while (this.draining) await this.draining;
    await this.shutdown();
    this.waiters.releaseAll();
  }

  private waitFor(after: number, timeoutMs: number, table: string | undefined): Promise<number> {
    if (this.closed) return Promise.resolve(this.currentFor(table));
    return this.waiters.wait(after, timeoutMs, table, true);
  }

  private currentFor(table: string | undefined): number {
    return table === undefined ? this.replica.index : this.replica.tableIndex(table);
  }

  /** Runs a batch's write functions over the replica, after index `after`; nothing is applied yet. */
  protected runCalls(calls: Call[], after: number): { entries: LogEntry[]; outcomes: Outcome[] } {
    return runWriteFunctions(
      new PendingWrites(this.replica.tables),
      after,
      calls.map((c) => c.fn),
      (on) => (this.inWrite = on),
    );
  }

  /** Takes a batch's committed writes into the replica, then answers each call: its result, or its error. */
  protected settle(calls: Call[], entries: LogEntry[], outcomes: Outcome[]): void {
    for (const entry of entries) this.replica.apply(entry);
    const durable = Promise.resolve();
    calls.forEach((c, i) => {
      const o = outcomes[i];
      if (o.ok) c.resolve({ result: o.result, index: o.index, durable });
      else c.reject(o.error);
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.runBatch();
    } finally {
      this.draining = undefined;
    }
  }
}
