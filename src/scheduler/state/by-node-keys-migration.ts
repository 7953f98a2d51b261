/**
 * Schema 6: a node's allocation entries move from `<node>\0<ID>` to `<node>\0<CreateIndex>\0<ID>`
 * (allocs.ts's byNodeKey), so new entries land at the end of their node's range. The stored usage of
 * each entry moves with it; the node sums are then summed afresh from the moved entries, which also
 * drops the share of any entry whose allocation no longer exists.
 */
import type { WriteTx } from '../../storage/store.js';
import { ALLOC_IDS } from './alloc-keys.js';
import { ALLOCS_BY_NODE, byNodeKey, rebuildNodeUsage, type NodeUsageEntry } from './allocs.js';
import { SEP } from './tables.js';


export function keyNodeEntriesByCreation(tx: WriteTx): void {
  for (const { key, value } of tx.list<NodeUsageEntry>(ALLOCS_BY_NODE)) {
    const parts = key.split(SEP);
    if (parts.length !== 2) continue;
    const [nodeId, id] = parts;
    tx.delete(ALLOCS_BY_NODE, key);
    const createIndex = tx.get<number>(ALLOC_IDS, id);
    if (createIndex !== undefined) tx.put(ALLOCS_BY_NODE, byNodeKey(nodeId, { CreateIndex: createIndex, ID: id }), value);
  }
  rebuildNodeUsage(tx);
}
