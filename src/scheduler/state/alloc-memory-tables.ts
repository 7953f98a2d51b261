/**
 * The allocation indexes the LMDB store holds in memory: `alloc-ids` (by UUID) and `allocs-by-node` (by
 * node), whose keys are random, and `allocs-by-job` and `allocs-by-eval`, which a placement would
 * otherwise write to the file as two more records beside the allocation, its stub and its placement.
 * All four are derived from `alloc-placements`, whose keys follow creation and whose entries name the
 * allocation's node, job and evaluation: the store fills them from it when it opens
 * (storage/lmdb-memory-tables.ts says why).
 */
import type { MemoryTablesSpec } from '../../storage/lmdb-memory-tables.js';
import { byHead, bySegment, bySegments } from '../../storage/partitioned-map.js';
import type { Store, WriteTx } from '../../storage/store.js';
import { ALLOC_IDS, allocKey } from './alloc-keys.js';
import { ALLOC_PLACEMENTS, ALLOCS_BY_EVAL, ALLOCS_BY_JOB, ALLOCS_BY_NODE, ALLOCS_TABLE, byEvalKey, byJobKey, placementEntry, type NodeUsageEntry, type PlacementEntry } from './allocs.js';
import { ALLOC_STUBS, readStub } from './alloc-stubs.js';
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
    for (const { key, value } of scanTable<PlacementEntry>(store, ALLOC_PLACEMENTS)) {
      const at = key.indexOf(SEP);
      const ID = key.slice(at + 1);
      yield [ALLOC_IDS, ID, Number(key.slice(0, at))] as const;
      yield [ALLOCS_BY_NODE, `${value.node}${SEP}${key}`, 1] as const;
      yield [ALLOCS_BY_JOB, byJobKey({ Namespace: value.namespace, JobID: value.job, ID }), 1] as const;
      yield [ALLOCS_BY_EVAL, byEvalKey({ EvalID: value.eval, ID }), 1] as const;
    }
  },
};

/** Schema 9: `alloc-placements` written from the node entries of the allocations already stored (which held the usage then). */
export function buildAllocPlacements(tx: WriteTx): void {
  for (const { key, value } of tx.list<NodeUsageEntry>(ALLOCS_BY_NODE)) {
    const [node, createIndex, id] = key.split(SEP);
    const { cpu, mem, disk, ports, live } = value;
    tx.put(ALLOC_PLACEMENTS, allocKey(Number(createIndex), id), { node, cpu, mem, disk, ports, live });
  }
}

/**
 * Schema 12: each placement names its allocation's job and evaluation, read from the allocation's stub
 * (or, lacking one, its record) at the same key; one entry at a time, so a million are never held at once.
 */
export function namePlacementJobs(tx: WriteTx): void {
  for (const key of tx.keys(ALLOC_PLACEMENTS)) {
    const entry = tx.get<PlacementEntry>(ALLOC_PLACEMENTS, key);
    const stub = tx.get<Fields>(ALLOC_STUBS, key);
    const record = stub ? undefined : tx.get<Fields>(ALLOCS_TABLE, key);
    const alloc = stub ? readStub(stub) : record && readAlloc(record);
    if (!entry || !alloc) continue;
    const { cpu, mem, disk, ports, live } = entry;
    tx.put(ALLOC_PLACEMENTS, key, placementEntry({ ...alloc, NodeID: entry.node }, { cpu, mem, disk, ports, live }));
  }
}
