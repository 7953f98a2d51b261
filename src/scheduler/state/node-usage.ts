/**
 * What the live allocations of each node take, summed in one record per node, so a scheduler reads a
 * node's usage in one get instead of walking (and decoding) every allocation ever placed there. putAlloc
 * and deleteAlloc keep it in the same transaction as the allocation records, from the same by-node entries,
 * so the sum can never drift from them. Every write to the sums goes through this module.
 *
 * Schedulers read the sums through a cache of this process: reading them was the biggest part of placing a
 * small job on a big cluster. Each transaction that changes sums also records which nodes it changed, in
 * a ring of the last CHANGE_RING such records; the cache is labelled with the table's index, and when the
 * index has moved it drops just the nodes the ring names for the commits since. The ring is in the store,
 * so writes of another server process sharing it are caught up with the same way as this one's.
 *
 * Tables:
 *   node-usage           <node> → StoredNodeUsage (absent while nothing live is on the node)
 *   node-usage-changes   <index mod CHANGE_RING> → { index, nodes } (nodes null: every node changed)
 */
import type { Store, WriteTx } from '../../storage/store.js';
import type { NodeUsage } from '../sched/types.js';

export const NODE_USAGE = 'node-usage';
export const NODE_USAGE_CHANGES = 'node-usage-changes';

/** Commits remembered in the ring; a cache further behind than this is dropped whole. */
const CHANGE_RING = 1024;
/**
 * Beyond this many commits since the cache's index, reading the sums again is cheaper than catching up.
 * Less than CHANGE_RING, so every commit caught up with is still in the ring.
 */
const MAX_CATCH_UP = 256;

interface ChangeRecord {
  index: number;
  nodes: string[] | null;
}

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
  addNodeUsages(tx, [{ nodeId, usage: u, sign }]);
}

/** One allocation's usage added to (sign 1) or removed from (sign −1) its node's sum. */
export interface UsageChange {
  nodeId: string;
  usage: UsageDelta;
  sign: 1 | -1;
}

/** Applies the changes, each node's sum read and written once however many of them it has. */
export function addNodeUsages(tx: WriteTx, changes: readonly UsageChange[]): void {
  if (changes.length === 0) return;
  const sums = new Map<string, StoredNodeUsage>();
  for (const { nodeId, usage: u, sign } of changes) {
    let stored = sums.get(nodeId);
    if (!stored) sums.set(nodeId, (stored = tx.get<StoredNodeUsage>(NODE_USAGE, nodeId) ?? { cpu: 0, mem: 0, disk: 0, ports: {} }));
    stored.cpu += sign * u.cpu;
    stored.mem += sign * u.mem;
    stored.disk += sign * u.disk;
    for (const p of u.ports) {
      const n = (stored.ports[p] ?? 0) + sign;
      if (n > 0) stored.ports[p] = n;
      else delete stored.ports[p];
    }
  }
  const nodes = changedNodes(tx);
  for (const [nodeId, stored] of sums) {
    if (empty(stored)) tx.delete(NODE_USAGE, nodeId);
    else tx.put(NODE_USAGE, nodeId, stored);
    nodes?.add(nodeId);
  }
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
  changed.set(tx, null);
  tx.put(NODE_USAGE_CHANGES, String(tx.index % CHANGE_RING), { index: tx.index, nodes: null } satisfies ChangeRecord);
}

/** What the node's live allocations take; a fresh object the caller may keep. */
export function readNodeUsage(store: Store | WriteTx, nodeId: string): NodeUsage {
  return toNodeUsage(store.get<StoredNodeUsage>(NODE_USAGE, nodeId));
}

/** A node's committed usage and the node-usage table index it is that of. */
export interface UsageAsOf {
  usage: NodeUsage;
  /** every write to the table up to this index is counted, none after */
  asOf: number;
}

/**
 * A reader of node usage through the cache, for one evaluation. The cache is brought up to the table's
 * index when the reader is made and again before each read it does not hold, which it reads in the same
 * view as the index. The usage answered is the cache's own: callers must not change it.
 */
export function nodeUsageReader(store: Store): (nodeId: string) => UsageAsOf {
  current(store);
  return (nodeId) => {
    const held = caches.get(store);
    const usage = held?.sums.get(nodeId);
    if (held && usage) return { usage, asOf: held.index };
    const cache = current(store);
    const read = toNodeUsage(store.get<StoredNodeUsage>(NODE_USAGE, nodeId));
    cache.sums.set(nodeId, read);
    return { usage: read, asOf: cache.index };
  };
}

interface UsageCache {
  /** the node-usage table's index the sums are those of */
  index: number;
  /** node → its sum; nodes not read yet are absent */
  sums: Map<string, NodeUsage>;
}

const caches = new WeakMap<Store, UsageCache>();

/** The cache, brought up to the table's index: caught up with the change ring, or emptied. */
function current(store: Store): UsageCache {
  const index = store.tableIndex(NODE_USAGE);
  let cache = caches.get(store);
  if (cache && cache.index !== index && !catchUp(store, cache, index)) cache = undefined;
  if (!cache) caches.set(store, (cache = { index, sums: new Map() }));
  return cache;
}

/**
 * Drops the nodes that the commits after the cache's index and up to `index` changed. Fails when a commit
 * in between is no longer in the ring (or the last one never was: a write that bypassed this module).
 */
function catchUp(store: Store, cache: UsageCache, index: number): boolean {
  if (index < cache.index || index - cache.index > MAX_CATCH_UP) return false;
  const stale: string[] = [];
  for (let i = cache.index + 1; i <= index; i++) {
    const record = store.get<ChangeRecord>(NODE_USAGE_CHANGES, String(i % CHANGE_RING));
    if (record?.index !== i) {
      // Commit i did not change any sum; but the table's last change must have left its record.
      if (i === index) return false;
      continue;
    }
    if (!record.nodes) return false;
    stale.push(...record.nodes);
  }
  for (const nodeId of stale) cache.sums.delete(nodeId);
  cache.index = index;
  return true;
}

/** Nodes whose sums this transaction changed; recorded in the ring when its write function ends. */
function changedNodes(tx: WriteTx): Set<string> | null {
  let nodes = changed.get(tx);
  if (nodes !== undefined) return nodes;
  const set = new Set<string>();
  changed.set(tx, set);
  tx.beforeCommit(() => {
    if (changed.get(tx) === null) return;
    tx.put(NODE_USAGE_CHANGES, String(tx.index % CHANGE_RING), { index: tx.index, nodes: [...set] } satisfies ChangeRecord);
  });
  return set;
}

/** Per open transaction: the nodes it changed, or null once it rewrote every sum. */
const changed = new WeakMap<WriteTx, Set<string> | null>();

function toNodeUsage(stored: StoredNodeUsage | null | undefined): NodeUsage {
  if (!stored) return { cpu: 0, memoryMB: 0, diskMB: 0, ports: new Set() };
  return { cpu: stored.cpu, memoryMB: stored.mem, diskMB: stored.disk, ports: new Set(Object.keys(stored.ports).map(Number)) };
}

function empty(s: StoredNodeUsage): boolean {
  return s.cpu === 0 && s.mem === 0 && s.disk === 0 && Object.keys(s.ports).length === 0;
}
