/**
 * Where an allocation's records live. The allocation and its list stub are keyed by creation
 * (`<CreateIndex, zero-padded>\0<ID>`), not by their random UUID: a plan's placements then land side by
 * side at the end of the tables instead of on as many scattered pages, which is what LMDB's commit cost
 * grows with (writing 100 placements into a store of 100,000 allocations took twice as long with UUID
 * keys). The ID finds the key through `alloc-ids`, whose small entries take few pages.
 *
 * Table:
 *   alloc-ids   <ID> → CreateIndex
 */
import type { Store, WriteTx } from '../../storage/store.js';
import { SEP } from './tables.js';

export const ALLOC_IDS = 'alloc-ids';

/** Zero-padded so that key order is index order. */
export const padIndex = (n: number) => String(n).padStart(16, '0');

/** The key of the allocation's record and stub. */
export const allocKey = (createIndex: number, id: string) => `${padIndex(createIndex)}${SEP}${id}`;

/** The ID at the end of a creation-ordered key. */
export const idOfAllocKey = (key: string) => key.slice(key.indexOf(SEP) + 1);

/** The key of the allocation with this ID; undefined when there is none. */
export function allocKeyOf(store: Store | WriteTx, id: string): string | undefined {
  const createIndex = store.get<number>(ALLOC_IDS, id);
  return createIndex === undefined ? undefined : allocKey(createIndex, id);
}
