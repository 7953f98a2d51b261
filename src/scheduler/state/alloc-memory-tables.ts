/**
 * The allocation indexes the LMDB store holds in memory: `alloc-ids` (by UUID) and `allocs-by-node` (by
 * node), whose keys are random, and `allocs-by-job` and `allocs-by-eval`, which a placement would
 * otherwise write to the file as more records beside the allocation and its stub. All four are derived
 * from `alloc-stubs`, whose keys follow creation and whose records name the allocation's node, job and
 * evaluation: the store fills them from it when it opens (storage/lmdb-memory-tables.ts says why).
 */
import type { MemoryTablesSpec } from '../../storage/lmdb-memory-tables.js';
import { byHead, bySegment, bySegments } from '../../storage/partitioned-map.js';
import type { Store, WriteTx } from '../../storage/store.js';
import { ALLOC_IDS, allocKey } from './alloc-keys.js';
import { ALLOC_PLACEMENTS, ALLOCS_BY_EVAL, ALLOCS_BY_JOB, ALLOCS_BY_NODE, ALLOCS_TABLE, byEvalKey, byJobKey, type NodeUsageEntry, type PlacementEntry } from './allocs.js';
import { ALLOC_STUBS, storedField, stubUsage } from './alloc-stubs.js';
import { readAlloc, type Fields } from './alloc-record.js';
import { scanTable } from './scan.js';
import { SEP } from './tables.js';

export const ALLOC_MEMORY_TABLES: MemoryTablesSpec = {
  tables: [
    // UUIDs: their first three hex digits spread them evenly over 4,096 partitions.
    { name: ALLOC_IDS, partition: byHead(3) },
    // A partition per node, whose entries grow by creation: each insert appends.
    { name: ALLOCS_BY_NODE, partition: bySegment },
    // Per job (`<ns>\0<job>`) and per evaluation, 16 partitions each by the ID's first hex digit: a plan's
    // placements land at random places among the job's other allocations, and an insert moves the
    // entries after it in its partition (a thousand of them cost more than the rest of the insert).
    { name: ALLOCS_BY_JOB, partition: bySegments(2, 1) },
    { name: ALLOCS_BY_EVAL, partition: bySegments(1, 1) },
  ],
  *rebuild(store: Store) {
    for (const { key, value } of scanTable<Fields>(store, ALLOC_STUBS)) {
      const at = key.indexOf(SEP);
      const ID = key.slice(at + 1);
      yield [ALLOC_IDS, ID, Number(key.slice(0, at))] as const;
      yield [ALLOCS_BY_NODE, `${storedField(value, 'NodeID')}${SEP}${key}`, 1] as const;
      yield [ALLOCS_BY_JOB, byJobKey({ Namespace: storedField(value, 'Namespace'), JobID: storedField(value, 'JobID'), ID }), 1] as const;
      yield [ALLOCS_BY_EVAL, byEvalKey({ EvalID: storedField(value, 'EvalID'), ID }), 1] as const;
    }
  },
};

/** Schema 9: `alloc-placements` written from the node entries of the allocations already stored (which held the usage then). */
export function buildAllocPlacements(tx: WriteTx): void {
  for (const { key, value } of tx.list<NodeUsageEntry>(ALLOCS_BY_NODE)) {
    const [node, createIndex, id] = key.split(SEP);
    const { cpu, mem, disk, ports, live } = value;
    tx.put(ALLOC_PLACEMENTS, allocKey(Number(createIndex), id), { node, cpu, mem, disk, ports, live } satisfies PlacementEntry);
  }
}

/**
 * Schema 12: each stub takes the usage its placement held (what the node's sum counts for it; computed
 * from the record for one without a placement), and the placements go. One stub at a time, so a million
 * are never held at once.
 */
export function moveUsageToStubs(tx: WriteTx): void {
  for (const key of tx.keys(ALLOC_STUBS)) {
    const stub = tx.get<Fields>(ALLOC_STUBS, key);
    if (!stub) continue;
    const placement = tx.get<PlacementEntry>(ALLOC_PLACEMENTS, key);
    const record = placement ? undefined : tx.get<Fields>(ALLOCS_TABLE, key);
    const usage = placement ? { cpu: placement.cpu, mem: placement.mem, disk: placement.disk, ports: placement.ports } : record && stubUsage(readAlloc(record));
    if (usage) tx.put(ALLOC_STUBS, key, { ...stub, Usage: usage });
  }
  for (const key of tx.keys(ALLOC_PLACEMENTS)) tx.delete(ALLOC_PLACEMENTS, key);
}
