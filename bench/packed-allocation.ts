// The allocation record as the store writes it, packed (src/scheduler/state/alloc-record.ts), from the
// fields the API answers with: the limits bench's placement floor writes this, what a placement writes.
import { packAlloc, readAlloc } from '../src/scheduler/state/alloc-record.js';

export function packedAllocation(answered: Record<string, unknown>): Record<string, unknown> {
  return packAlloc(readAlloc(answered));
}
