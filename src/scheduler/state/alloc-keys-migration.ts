/**
 * Schema 5: allocations and their stubs move from ID keys to creation keys (alloc-keys.ts), with the
 * `alloc-ids` table to find them by ID; the creation index they replace (`allocs-by-create`) goes. The
 * old index lists every allocation, so the records are moved one at a time in creation order.
 */
import type { WriteTx } from '../../storage/store.js';
import { readAlloc, type Fields } from './alloc-record.js';
import { ALLOC_IDS, allocKey, idOfAllocKey } from './alloc-keys.js';
import { ALLOCS_BY_CREATE, ALLOCS_TABLE } from './allocs.js';
import { ALLOC_STUBS, putAllocStub } from './alloc-stubs.js';

export function keyAllocsByCreation(tx: WriteTx): void {
  for (const { key } of tx.list<number>(ALLOCS_BY_CREATE)) {
    tx.delete(ALLOCS_BY_CREATE, key);
    const id = idOfAllocKey(key);
    const stored = tx.get<Fields>(ALLOCS_TABLE, id);
    const alloc = stored && readAlloc(stored);
    if (!alloc) continue;
    tx.delete(ALLOCS_TABLE, id);
    tx.delete(ALLOC_STUBS, id);
    tx.put(ALLOCS_TABLE, allocKey(alloc.CreateIndex, id), stored);
    tx.put(ALLOC_IDS, id, alloc.CreateIndex);
    putAllocStub(tx, alloc);
  }
}
