/**
 * Builds the list-view tables (alloc-stubs, job-stubs) from the records stored before they existed.
 * Allocations are read one at a time by their creation-index keys, so a store of 100,000 allocations is
 * not decoded into memory at once.
 */
import type { WriteTx } from '../../storage/store.js';
import { readAlloc, type Fields } from './alloc-record.js';
import type { Job } from '../structs/job.js';
import { ALLOCS_BY_CREATE, ALLOCS_TABLE } from './allocs.js';
import { putAllocStub } from './alloc-stubs.js';
import { JOB_STUBS, jobStubRecord } from './job-stubs.js';
import { JOBS_TABLE } from './tables.js';

export function buildListStubs(tx: WriteTx): void {
  for (const { key } of tx.list<number>(ALLOCS_BY_CREATE)) {
    const stored = tx.get<Fields>(ALLOCS_TABLE, key.slice(key.indexOf('\u0000') + 1));
    const alloc = stored && readAlloc(stored);
    if (alloc) putAllocStub(tx, alloc);
  }
  for (const { key, value } of tx.list<Job>(JOBS_TABLE)) tx.put(JOB_STUBS, key, jobStubRecord(value));
}
