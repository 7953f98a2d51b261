import path from 'node:path';
import type { Store } from '../storage/store.js';
import { SCHEMA_MIGRATIONS } from '../storage/migrations.js';

/**
 * Where the server keeps its state: LMDB in the data dir, a PostgreSQL database given by URL, or (tests
 * that do not need a disk) memory.
 */
export interface ServerStorage {
  store: Store;
  close(): Promise<void>;
}

export async function openServerStorage(dataDir: string, storageUrl: string | undefined, memory = false): Promise<ServerStorage> {
  if (memory) {
    const { openMemoryStore } = await import('../storage/memory-store.js');
    const store = await openMemoryStore();
    return { store, close: () => store.close() };
  }
  if (!storageUrl) {
    const { openLmdbStore } = await import('../storage/lmdb-store.js');
    const store = await openLmdbStore({ dir: path.join(dataDir, 'state'), migrations: SCHEMA_MIGRATIONS });
    return { store, close: () => store.close() };
  }
  const [{ openPgStore }, { holdSoleServerLock }] = await Promise.all([import('../storage/pg-store.js'), import('../storage/pg-sole-server.js')]);
  const release = await holdSoleServerLock(storageUrl);
  try {
    const store = await openPgStore({ url: storageUrl, migrations: SCHEMA_MIGRATIONS });
    return {
      store,
      close: async () => {
        try {
          await store.close();
        } finally {
          await release();
        }
      },
    };
  } catch (err) {
    await release().catch(() => {});
    throw err;
  }
}
