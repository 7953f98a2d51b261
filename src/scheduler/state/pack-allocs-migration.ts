/**
 * Schema 11: allocation records and their stubs rewritten in the packed form (alloc-record.ts). Records
 * are read one at a time by key, so a store of a million allocations is never decoded into memory at
 * once; what a build before this one wrote reads the same either way, so this only gives the space back.
 */
import type { WriteTx } from '../../storage/store.js';
import { packAlloc, readAlloc, type Fields } from './alloc-record.js';
import { ALLOCS_TABLE } from './allocs.js';
import { putAllocStub } from './alloc-stubs.js';

export function packAllocRecords(tx: WriteTx): void {
  for (const key of tx.keys(ALLOCS_TABLE)) {
    const stored = tx.get<Fields>(ALLOCS_TABLE, key);
    if (!stored) continue;
    const alloc = readAlloc(stored);
    tx.put(ALLOCS_TABLE, key, packAlloc(alloc));
    putAllocStub(tx, alloc);
  }
}
