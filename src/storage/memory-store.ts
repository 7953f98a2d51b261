import type { Store } from './store.js';
import { NewerSchemaError, runMigrations, type Migration } from './migrations.js';
import type { Snapshot } from './replica.js';
import { ReplicaStore } from './replica-store.js';

/**
 * A store in memory only, for tests that want the server without a disk or a database: reads, writes,
 * indexes and waiters behave as in the other stores (the same contract suite runs against it). What it
 * holds survives a close only in `space`, so that a test can open it again as a restarted server would;
 * nothing reaches the disk.
 */

/** Where a memory store keeps its state between a close and the next open. */
export interface MemorySpace {
  snapshot?: Snapshot;
}

export async function openMemoryStore(opts: { space?: MemorySpace; migrations: readonly Migration[] }): Promise<Store> {
  const store = new MemoryStore(opts.space ?? {});
  try {
    await runMigrations(store, opts.migrations);
  } catch (err) {
    await store.close();
    if (err instanceof NewerSchemaError) throw err;
    throw new Error(`cannot open memory store: ${err instanceof Error ? err.message : String(err)}`);
  }
  return store;
}

class MemoryStore extends ReplicaStore {
  constructor(private readonly space: MemorySpace) {
    super('(memory)');
    if (space.snapshot) this.replica.replace(space.snapshot);
  }

  /** Runs the writes queued in one turn of the event loop together, as LMDB's group commit does. */
  protected async runBatch(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const calls = this.queue.splice(0);
    const { entries, outcomes } = this.runCalls(calls, this.replica.index);
    this.settle(calls, entries, outcomes);
  }

  protected async shutdown(): Promise<void> {
    this.space.snapshot = this.replica.snapshot();
  }
}
