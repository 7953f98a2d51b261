/**
 * The callers of a store's waitForIndex and waitForCommit, parked until a write they wait for: woken by
 * the store's commits, by a timeout, or when the store closes.
 */

interface Waiter {
  after: number;
  table: string | undefined;
  /** woken by the commit, not only once it is durable (waitForCommit) */
  onCommit: boolean;
  resolve: (index: number) => void;
  timer: NodeJS.Timeout;
}

export class IndexWaiters {
  private readonly waiters = new Set<Waiter>();

  /**
   * `current` answers the store's index (table undefined) or a table's. It must not throw: it is also
   * asked at timeouts and at close, when nobody could catch the error.
   */
  constructor(private readonly current: (table: string | undefined) => number) {}

  /** Resolves at once when the index is already past `after`. */
  wait(after: number, timeoutMs: number, table: string | undefined, onCommit: boolean): Promise<number> {
    const now = this.current(table);
    if (now > after) return Promise.resolve(now);
    return new Promise<number>((resolve) => {
      const waiter: Waiter = {
        after,
        table,
        onCommit,
        resolve: (index) => {
          clearTimeout(waiter.timer);
          this.waiters.delete(waiter);
          resolve(index);
        },
        timer: setTimeout(() => waiter.resolve(this.current(table)), clampTimeout(timeoutMs)),
      };
      this.waiters.add(waiter);
    });
  }

  /**
   * Wakes the waiters the commit at `index` concerns: at commit only those that asked (`committedOnly`),
   * when durable all.
   */
  notify(index: number, touched: ReadonlySet<string>, committedOnly: boolean): void {
    for (const w of [...this.waiters]) {
      if (committedOnly && !w.onCommit) continue;
      if (w.table !== undefined && !touched.has(w.table)) continue;
      if (index <= w.after) continue;
      // Report what is stored now: a later commit may already be visible.
      w.resolve(Math.max(index, this.current(w.table)));
    }
  }

  /** Answers every waiter with the current index: the store is closing. */
  releaseAll(): void {
    for (const w of [...this.waiters]) w.resolve(this.current(w.table));
  }
}

/** setTimeout treats anything above 2^31-1 ms as 1 ms. */
function clampTimeout(ms: number): number {
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), 2_147_483_647) : 2_147_483_647;
}
