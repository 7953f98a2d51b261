import path from 'node:path';
import type { Logger } from '../shared/log.js';
import type { WriteTimeouts } from '../storage/pg-failures.js';
import type { Seal } from '../storage/seal.js';
import { META_TABLE, type Store } from '../storage/store.js';
import { ALLOC_MEMORY_TABLES } from '../scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from './migrations.js';
import { measureCommits } from './store-metrics.js';

/**
 * Where the server keeps its state: LMDB in the data dir, a PostgreSQL database given by URL (which
 * several servers may share), or (tests that do not need a disk) memory. Each is opened with the product's
 * schema; LMDB also keeps four allocation indexes in memory, filled from the stubs (alloc-memory-tables.ts says
 * why). Its commits are timed for the metrics (store-metrics.ts).
 */
export async function openServerStorage(dataDir: string, storageUrl: string | undefined, memory = false, log?: Logger, timeouts?: Partial<WriteTimeouts>): Promise<Store> {
  return measureCommits(await openStore(dataDir, storageUrl, memory, log, timeouts));
}

async function openStore(dataDir: string, storageUrl: string | undefined, memory: boolean, log: Logger | undefined, timeouts: Partial<WriteTimeouts> | undefined): Promise<Store> {
  if (memory) {
    const { openMemoryStore } = await import('../storage/memory-store.js');
    return openMemoryStore({ migrations: SCHEMA_MIGRATIONS });
  }
  if (!storageUrl) {
    const { openLmdbStore } = await import('../storage/lmdb-store.js');
    return openLmdbStore({ dir: path.join(dataDir, 'state'), migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  }
  const { openPgStore } = await import('../storage/pg-store.js');
  return openPgStore({ url: storageUrl, migrations: SCHEMA_MIGRATIONS, log, timeouts: { idleInTransactionMs: timeouts?.idleInTransactionMs, statementMs: timeouts?.statementMs } });
}

/**
 * The state's sealed values and token hashes open only with the keyring they were made with, which lives
 * in the data dir (or is sealed by the seal key). The state remembers that keyring's key, so that a server
 * given another data dir on the same state (a PostgreSQL database, say) stops at once and says why,
 * instead of starting and then refusing every token and secret.
 */
export async function bindKeyring(store: Store, seal: Seal, state: string): Promise<void> {
  let known = store.get<string>(META_TABLE, KEYRING_KEY);
  if (known === undefined) {
    // Servers starting together on an empty database: the first write binds its keyring, and every other
    // server is then checked against that one, as if it had started later.
    ({ result: known } = await store.write((tx) => {
      const bound = tx.get<string>(META_TABLE, KEYRING_KEY);
      if (bound !== undefined) return bound;
      tx.put(META_TABLE, KEYRING_KEY, seal.keyId);
      return seal.keyId;
    }));
  }
  if (!seal.holds(known)) {
    throw new Error(
      `${state} was sealed with keyring key ${known}, which is not in this data dir's keyring (${seal.keyLocation}): start with the data dir, and seal key if any, that the state was made with`,
    );
  }
}

const KEYRING_KEY = 'keyring_key_id';
