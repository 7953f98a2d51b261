/**
 * What the live allocations of each node take, summed in one record per node, so a scheduler reads a
 * node's usage in one get instead of walking (and decoding) every allocation ever placed there. putAlloc
 * and deleteAlloc keep it in the same transaction as the allocation records, from the same by-node entries,
 * so the sum can never drift from them.
 *
 * Table:
 *   node-usage   <node> → StoredNodeUsage (absent while nothing live is on the node)
 */
import type { Store, WriteTx } from '../../storage/store.js';
import type { NodeUsage } from '../sched/types.js';

export const NODE_USAGE = 'node-usage';

/** The resources one allocation takes on its node (the by-node entry's figures). */
export interface UsageDelta {
  cpu: number;
  mem: number;
  disk: number;
  ports: number[];
}

interface StoredNodeUsage {
  cpu: number;
  mem: number;
  disk: number;
  /**
   * Port → number of live allocations holding it. Counted rather than a set: two allocations may hold the
   * same port (a static port with IgnoreCollision), and the port stays used until both are gone.
   */
  ports: Record<string, number>;
}

/** Adds (sign 1) or removes (sign −1) one allocation's usage on the node. */
export function addNodeUsage(tx: WriteTx, nodeId: string, u: UsageDelta, sign: 1 | -1): void {
  const stored = tx.get<StoredNodeUsage>(NODE_USAGE, nodeId) ?? { cpu: 0, mem: 0, disk: 0, ports: {} };
  stored.cpu += sign * u.cpu;
  stored.mem += sign * u.mem;
  stored.disk += sign * u.disk;
  for (const p of u.ports) {
    const n = (stored.ports[p] ?? 0) + sign;
    if (n > 0) stored.ports[p] = n;
    else delete stored.ports[p];
  }
  if (empty(stored)) tx.delete(NODE_USAGE, nodeId);
  else tx.put(NODE_USAGE, nodeId, stored);
}

/** Replaces the whole table with the sums of `live` (each a live allocation's usage on its node). */
export function writeNodeUsage(tx: WriteTx, live: Iterable<{ nodeId: string; usage: UsageDelta }>): void {
  for (const { key } of tx.list(NODE_USAGE)) tx.delete(NODE_USAGE, key);
  const sums = new Map<string, StoredNodeUsage>();
  for (const { nodeId, usage } of live) {
    let s = sums.get(nodeId);
    if (!s) sums.set(nodeId, (s = { cpu: 0, mem: 0, disk: 0, ports: {} }));
    s.cpu += usage.cpu;
    s.mem += usage.mem;
    s.disk += usage.disk;
    for (const p of usage.ports) s.ports[p] = (s.ports[p] ?? 0) + 1;
  }
  for (const [nodeId, s] of sums) if (!empty(s)) tx.put(NODE_USAGE, nodeId, s);
}

/** What the node's live allocations take; a fresh object the caller may keep. */
export function readNodeUsage(store: Store | WriteTx, nodeId: string): NodeUsage {
  const stored = store.get<StoredNodeUsage>(NODE_USAGE, nodeId);
  if (!stored) return { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set() };
  return { cpu: stored.cpu, memoryMB: stored.mem, diskMB: stored.disk, ports: new Set(Object.keys(stored.ports).map(Number)) };
}

function empty(s: StoredNodeUsage): boolean {
  return s.cpu === 0 && s.mem === 0 && s.disk === 0 && Object.keys(s.ports).length === 0;
}
