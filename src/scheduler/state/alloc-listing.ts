/**
 * Allocation listings read lazily from the stub table: in creation order (the `<CreateIndex>.<ID>` token
 * order of /v1/allocations), or the allocations of one job, node or evaluation ordered by CreateIndex.
 * None of them holds more than a batch of records at a time, so a listing of 100,000 allocations stays
 * small in memory and its writer can yield to the event loop between batches.
 */
import type { Store } from '../../storage/store.js';
import { ALLOCS_BY_EVAL, ALLOCS_BY_JOB, ALLOCS_BY_NODE } from './allocs.js';
import { getAllocStub, type AllocStubRecord } from './alloc-stubs.js';
import { nextTurn, scanTable, SCAN_BATCH } from './scan.js';
import { jobKey, SEP } from './tables.js';


/** Stubs of the given IDs; one removed since its ID was read is skipped. */
export function* stubsOf(store: Store, ids: Iterable<string>): Generator<AllocStubRecord> {
  for (const id of ids) {
    const stub = getAllocStub(store, id);
    if (stub) yield stub;
  }
}

type Scope = { job: { namespace: string; id: string } } | { node: string } | { eval: string };

function scopeScan(store: Store, scope: Scope): Generator<{ key: string }> {
  if ('job' in scope) return scanTable(store, ALLOCS_BY_JOB, `${jobKey(scope.job.namespace, scope.job.id)}${SEP}`);
  if ('node' in scope) return scanTable(store, ALLOCS_BY_NODE, `${scope.node}${SEP}`);
  return scanTable(store, ALLOCS_BY_EVAL, `${scope.eval}${SEP}`);
}

/**
 * The IDs of a job's, node's or evaluation's allocations that `keep` accepts, ordered by CreateIndex
 * then ID. Only (index, ID) pairs are kept while sorting; the caller reads each stub again to send it.
 */
export async function scopedAllocIds(store: Store, scope: Scope, keep: (stub: AllocStubRecord) => boolean = () => true): Promise<string[]> {
  const found: { index: number; id: string }[] = [];
  let visited = 0;
  for (const { key } of scopeScan(store, scope)) {
    // A job of 50,000 allocations must not hold the event loop (heartbeats) while it is read.
    if (++visited % SCAN_BATCH === 0) await nextTurn();
    const id = key.slice(key.lastIndexOf(SEP) + 1);
    const stub = getAllocStub(store, id);
    if (stub && keep(stub)) found.push({ index: stub.CreateIndex, id });
  }
  found.sort((a, b) => a.index - b.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found.map((f) => f.id);
}
