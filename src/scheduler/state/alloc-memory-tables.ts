/**
 * The allocation indexes whose keys are random, `alloc-ids` (by UUID) and `allocs-by-node` (by node),
 * are derived from `alloc-placements`, whose keys follow creation: the LMDB store holds the two in
 * memory and fills them from it when it opens (storage/lmdb-memory-tables.ts says why).
 */
import type { MemoryTablesSpec } from '../../storage/lmdb-memory-tables.js';
import { byHead, bySegment } from '../../storage/partitioned-map.js';
import type { Store, WriteTx } from '../../storage/store.js';
import { ALLOC_IDS, allocKey } from './alloc-keys.js';
import { ALLOC_PLACEMENTS, ALLOCS_BY_NODE, placementEntry, type NodeUsageEntry, type PlacementEntry } from './allocs.js';
import { scanTable } from './scan.js';
import { SEP } from './tables.js';

export const ALLOC_MEMORY_TABLES: MemoryTablesSpec = {
  tables: [
    // UUIDs: their first three hex digits spread them evenly over 4,096 partitions.
    { name: ALLOC_IDS, partition: byHead(3) },
    // A partition per node, whose entries grow by creation: each insert appends.
    { name: ALLOCS_BY_NODE, partition: bySegment },
  ],
  *rebuild(store: Store) {
    for (const { key, value } of scanTable<PlacementEntry>(store, ALLOC_PLACEMENTS)) {
      const at = key.indexOf(SEP);
      yield [ALLOC_IDS, key.slice(at + 1), Number(key.slice(0, at))] as const;
      yield [ALLOCS_BY_NODE, `${value.node}${SEP}${key}`, 1] as const;
    }
  },
};

/** Schema 9: `alloc-placements` written from the node entries of the allocations already stored (which held the usage then). */
export function buildAllocPlacements(tx: WriteTx): void {
  for (const { key, value } of tx.list<NodeUsageEntry>(ALLOCS_BY_NODE)) {
    const [node, createIndex, id] = key.split(SEP);
    tx.put(ALLOC_PLACEMENTS, allocKey(Number(createIndex), id), placementEntry(node, value));
  }
}
