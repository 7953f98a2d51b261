/** The memory store runs the same contract as LMDB and PostgreSQL, a "location" being a memory space. */
import { openMemoryStore, type MemorySpace } from '../../src/storage/memory-store.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import { storeContract } from './store-contract.js';

storeContract('memory', async () => {
  const space: MemorySpace = {};
  return { open: () => openMemoryStore({ space, migrations: SCHEMA_MIGRATIONS }) };
});
