/**
 * Allocations in the state store. `putAlloc` is the one way an allocation is written: it keeps every
 * secondary index, the job's summary and its count of live allocations in the same transaction, so they
 * can never disagree with the records.
 *
 * Tables:
 *   allocs             <CreateIndex, zero-padded>\0<ID> → Allocation (without Job, packed: alloc-record.ts); creation order is
 *                      chronological listing and paging (see alloc-keys.ts for why, and alloc-ids)
 *   alloc-stubs        the same key → AllocStubRecord (the list view; state/alloc-stubs.ts) and what the
 *                      allocation takes on its node; what the LMDB store fills its in-memory alloc-ids,
 *                      allocs-by-node, allocs-by-job and allocs-by-eval from (alloc-memory-tables.ts)
 *   allocs-by-job      <ns>\0<job>\0<ID> → 1
 *   allocs-by-node     <node>\0<CreateIndex, padded>\0<ID> → 1 (before schema 9: what alloc-placements holds)
 *   allocs-by-eval     <eval>\0<ID> → 1
 *   alloc-placements   schemas 9 to 11: <CreateIndex, padded>\0<ID> → PlacementEntry, what stubs hold now
 *   node-usage         <node> → the sum of its live allocations' entries (state/node-usage.ts)
 *   alloc-jobs         <ns>\0<job>\0<JobModifyIndex, padded> → Job (the version allocations run)
 *   job-summaries      <ns>\0<job> → StoredSummary
 */
import type { Store, WriteTx } from '../../storage/store.js';
import { allocTerminal, summaryBucket, type Allocation, type SummaryBucket } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import { jobKey, SEP } from './tables.js';
import { ALLOC_STUBS, deleteAllocStub, putPackedAllocStub, storedField, storedUsage, stubUsage } from './alloc-stubs.js';
import { packAlloc, readAlloc, type Fields } from './alloc-record.js';
import { addNodeUsage, addNodeUsages, writeNodeUsage, type UsageChange } from './node-usage.js';
import { ALLOC_IDS, allocKey, allocKeyOf, padIndex } from './alloc-keys.js';
import { scanTable } from './scan.js';
import { getNode } from './nodes.js';
import { deleteRegistrationRows, writeRegistrationRows, type RegistrationLookups } from './service-registrations.js';

export { padIndex } from './alloc-keys.js';

export const ALLOCS_TABLE = 'allocs';
export const ALLOCS_BY_JOB = 'allocs-by-job';
export const ALLOCS_BY_NODE = 'allocs-by-node';
export const ALLOCS_BY_EVAL = 'allocs-by-eval';
/** Schemas 9 to 11: an allocation's node and usage (PlacementEntry), which its stub holds now. Read by migrations only. */
export const ALLOC_PLACEMENTS = 'alloc-placements';
/** Before schema 5: <CreateIndex>\0<ID> → 1, when allocations were keyed by ID. Read by migrations only. */
export const ALLOCS_BY_CREATE = 'allocs-by-create';
export const ALLOC_JOBS = 'alloc-jobs';
export const JOB_SUMMARIES = 'job-summaries';
/** Per node, the index of the last removal of one of its allocations: a node's blocking pull wakes on it. */
export const NODE_ALLOCS_REMOVED = 'node-allocs-removed';

/**
 * A node's entry: `<node>\0<CreateIndex, padded>\0<ID>`. The creation index first keeps a node's new
 * entries at the end of its range, so placing an allocation dirties the page that already took the
 * node's last one, not a random page of a table as big as every allocation ever placed.
 */
export const byNodeKey = (nodeId: string, alloc: Pick<Allocation, 'CreateIndex' | 'ID'>) => `${nodeId}${SEP}${allocKey(alloc.CreateIndex, alloc.ID)}`;
const allocJobKey = (ns: string, job: string, jobModifyIndex: number) => `${jobKey(ns, job)}${SEP}${padIndex(jobModifyIndex)}`;

/** What an allocation takes on its node; `live` is false once it is terminal and gives it back. */
export interface NodeUsageEntry {
  cpu: number;
  mem: number;
  disk: number;
  ports: number[];
  live: boolean;
}

/** Schemas 9 to 11: an allocation's node and what it takes there. */
export interface PlacementEntry extends NodeUsageEntry {
  node: string;
}

export interface GroupSummary {
  Queued: number;
  Complete: number;
  Failed: number;
  Running: number;
  Starting: number;
  Lost: number;
  Unknown: number;
}

export interface JobSummary {
  JobID: string;
  Namespace: string;
  Summary: Record<string, GroupSummary>;
  Children: { Pending: number; Running: number; Dead: number };
  CreateIndex: number;
  ModifyIndex: number;
}

export interface StoredSummary {
  summary: JobSummary;
  /** non-terminal allocations of the job: the job is running while there are any */
  live: number;
}

export const emptyGroupSummary = (): GroupSummary => ({ Queued: 0, Complete: 0, Failed: 0, Running: 0, Starting: 0, Lost: 0, Unknown: 0 });

/** The same sum the schedulers make (allocUsage), so what a plan frees and takes matches the index. */
function usageOf(a: Allocation): NodeUsageEntry {
  return { ...stubUsage(a), live: !allocTerminal(a) };
}

/**
 * What the node's usage sum counts for the allocation stored at `key`, from its stub: the figures it was
 * written with, live while its stored statuses are. Undefined when there is no stub (or one without them).
 */
function storedEntry(tx: WriteTx, key: string): NodeUsageEntry | undefined {
  const stored = tx.get<Fields>(ALLOC_STUBS, key);
  const usage = stored && storedUsage(stored);
  return usage && { ...usage, live: !allocTerminal({ DesiredStatus: storedField(stored, 'DesiredStatus'), ClientStatus: storedField(stored, 'ClientStatus') }) };
}

/** The allocation's entries in allocs-by-job and allocs-by-eval (the LMDB store derives them from its placement). */
export const byJobKey = (alloc: Pick<Allocation, 'Namespace' | 'JobID' | 'ID'>) => `${jobKey(alloc.Namespace, alloc.JobID)}${SEP}${alloc.ID}`;
export const byEvalKey = (alloc: Pick<Allocation, 'EvalID' | 'ID'>) => `${alloc.EvalID}${SEP}${alloc.ID}`;

/**
 * Writes an allocation and keeps indexes, summary and live count in step. `prev` is the stored record
 * (read by the caller, who usually needed it anyway); undefined for a new allocation.
 */
export function putAlloc(tx: WriteTx, alloc: Allocation, prev: Allocation | undefined): void {
  putAllocs(tx, [{ alloc, prev }]);
}

/**
 * Writes allocations as putAlloc does, one after another, and then moves each job's summary once for a
 * run of changes to the same job (a plan's placements) instead of reading and writing it per allocation,
 * and each node's usage sum once for all of its allocations among the changes.
 */
export function putAllocs(tx: WriteTx, changes: ReadonlyArray<{ alloc: Allocation; prev: Allocation | undefined }>): void {
  const lookups = registrationLookups(tx);
  const usage: UsageChange[] = [];
  for (const { alloc, prev } of changes) {
    writeAllocRecords(tx, alloc, prev, usage);
    writeRegistrationRows(tx, alloc, prev, lookups);
  }
  addNodeUsages(tx, usage);
  adjustSummaries(tx, changes);
}

/** What registrations need: the job version, read once for a run of allocations of the same version (a plan's placements), and a node's datacenter. */
function registrationLookups(tx: WriteTx): RegistrationLookups {
  let jobKeyed = '';
  let jobFound: Job | null = null;
  return {
    job: (alloc) => {
      const key = `${alloc.Namespace}${SEP}${alloc.JobID}${SEP}${alloc.JobModifyIndex}`;
      if (key !== jobKeyed) [jobKeyed, jobFound] = [key, allocJob(tx, alloc)];
      return jobFound;
    },
    datacenter: (nodeId) => getNode(tx, nodeId)?.Datacenter ?? '',
  };
}

/** Writes the allocation's records and index entries; what its node's usage sum must move by goes to `usageChanges`. */
function writeAllocRecords(tx: WriteTx, alloc: Allocation, prev: Allocation | undefined, usageChanges: UsageChange[]): void {
  if (prev && prev.CreateIndex !== alloc.CreateIndex) throw new Error(`allocation ${alloc.ID}: its CreateIndex cannot change (${prev.CreateIndex} → ${alloc.CreateIndex})`);
  if (prev && (prev.Namespace !== alloc.Namespace || prev.JobID !== alloc.JobID)) throw new Error(`allocation ${alloc.ID}: its job cannot change (${prev.JobID} → ${alloc.JobID})`);
  const key = allocKey(alloc.CreateIndex, alloc.ID);
  // What the stub holds, not one recomputed from `prev`: the node's sum moves by exactly what it counts.
  const before = prev && (storedEntry(tx, key) ?? usageOf(prev));
  const packed = packAlloc(alloc);
  const held = stubUsage(alloc);
  const usage: NodeUsageEntry = { ...held, live: !allocTerminal(alloc) };
  tx.put(ALLOCS_TABLE, key, packed);
  putPackedAllocStub(tx, key, packed, held);
  if (!prev || !before) {
    tx.put(ALLOC_IDS, alloc.ID, alloc.CreateIndex);
    tx.put(ALLOCS_BY_JOB, byJobKey(alloc), 1);
    tx.put(ALLOCS_BY_EVAL, byEvalKey(alloc), 1);
    tx.put(ALLOCS_BY_NODE, byNodeKey(alloc.NodeID, alloc), 1);
    if (usage.live) usageChanges.push({ nodeId: alloc.NodeID, usage, sign: 1 });
    return;
  }
  const moved = prev.NodeID !== alloc.NodeID || before.live !== usage.live || before.cpu !== usage.cpu || before.mem !== usage.mem || before.disk !== usage.disk || before.ports.join() !== usage.ports.join();
  if (moved) {
    // The node's entry holds nothing but its key: it moves only with the allocation.
    if (prev.NodeID !== alloc.NodeID) {
      tx.delete(ALLOCS_BY_NODE, byNodeKey(prev.NodeID, alloc));
      tx.put(ALLOCS_BY_NODE, byNodeKey(alloc.NodeID, alloc), 1);
    }
    if (before.live) usageChanges.push({ nodeId: prev.NodeID, usage: before, sign: -1 });
    if (usage.live) usageChanges.push({ nodeId: alloc.NodeID, usage, sign: 1 });
  }
  if (prev.EvalID !== alloc.EvalID) {
    tx.delete(ALLOCS_BY_EVAL, byEvalKey(prev));
    tx.put(ALLOCS_BY_EVAL, byEvalKey(alloc), 1);
  }
}

/**
 * Moves each allocation between summary columns. Only the job's current incarnation is counted: after a
 * purge the summary is gone, and a job registered again under the same ID starts a fresh one that the
 * old allocations (created before it) do not touch — as Nomad does.
 */
function adjustSummaries(tx: WriteTx, changes: ReadonlyArray<{ alloc: Allocation; prev: Allocation | undefined }>): void {
  let key: string | undefined;
  let stored: StoredSummary | undefined;
  let changed = false;
  const write = (): void => {
    if (key === undefined || !stored || !changed) return;
    stored.summary.ModifyIndex = tx.index;
    tx.put(JOB_SUMMARIES, key, stored);
  };
  for (const { alloc, prev } of changes) {
    const bucketNow = summaryBucket(alloc.ClientStatus);
    const bucketBefore: SummaryBucket | undefined = prev ? summaryBucket(prev.ClientStatus) : undefined;
    const liveNow = allocTerminal(alloc) ? 0 : 1;
    const liveBefore = prev ? (allocTerminal(prev) ? 0 : 1) : 0;
    if (bucketNow === bucketBefore && liveNow === liveBefore && prev?.TaskGroup === alloc.TaskGroup) continue;
    const k = jobKey(alloc.Namespace, alloc.JobID);
    if (k !== key) {
      write();
      key = k;
      stored = tx.get<StoredSummary>(JOB_SUMMARIES, k);
      changed = false;
    }
    if (!stored || alloc.CreateIndex < stored.summary.CreateIndex) continue;
    const groups = stored.summary.Summary;
    if (prev && bucketBefore) {
      const g = (groups[prev.TaskGroup] ??= emptyGroupSummary());
      g[bucketBefore] = Math.max(0, g[bucketBefore] - 1);
    }
    const g = (groups[alloc.TaskGroup] ??= emptyGroupSummary());
    g[bucketNow] += 1;
    stored.live += liveNow - liveBefore;
    changed = true;
  }
  write();
}

/** A purged job's summary goes with it. */
export function deleteSummary(tx: WriteTx, namespace: string, jobId: string): void {
  tx.delete(JOB_SUMMARIES, jobKey(namespace, jobId));
}

function newStoredSummary(namespace: string, jobId: string, index: number): StoredSummary {
  return {
    summary: { JobID: jobId, Namespace: namespace, Summary: {}, Children: { Pending: 0, Running: 0, Dead: 0 }, CreateIndex: index, ModifyIndex: index },
    live: 0,
  };
}

/** Makes sure the job's groups appear in its summary, and sets the queued counts an evaluation left. */
export function touchSummary(tx: WriteTx, job: Job, queued?: Record<string, number>): void {
  const key = jobKey(job.Namespace, job.ID);
  const stored = tx.get<StoredSummary>(JOB_SUMMARIES, key) ?? newStoredSummary(job.Namespace, job.ID, tx.index);
  let changed = !tx.get(JOB_SUMMARIES, key);
  for (const group of job.TaskGroups) {
    if (!stored.summary.Summary[group.Name]) {
      stored.summary.Summary[group.Name] = emptyGroupSummary();
      changed = true;
    }
  }
  if (queued) {
    for (const [group, n] of Object.entries(queued)) {
      const g = (stored.summary.Summary[group] ??= emptyGroupSummary());
      if (g.Queued !== n) {
        g.Queued = n;
        changed = true;
      }
    }
  }
  if (!changed) return;
  stored.summary.ModifyIndex = tx.index;
  tx.put(JOB_SUMMARIES, key, stored);
}

/**
 * Moves one child job of `parentId` between the status counts of the parent's summary (Nomad's
 * Children: pending, running, dead); `from` undefined for a new child, `to` undefined for a purged one.
 */
export function countChild(tx: WriteTx, namespace: string, parentId: string, from: string | undefined, to: string | undefined): void {
  const key = jobKey(namespace, parentId);
  const stored = tx.get<StoredSummary>(JOB_SUMMARIES, key);
  if (!stored) return;
  const bucket = (status: string) => (status === 'running' ? 'Running' : status === 'dead' ? 'Dead' : 'Pending');
  const children = { ...stored.summary.Children };
  if (from !== undefined) children[bucket(from)] = Math.max(0, children[bucket(from)] - 1);
  if (to !== undefined) children[bucket(to)] += 1;
  tx.put(JOB_SUMMARIES, key, { ...stored, summary: { ...stored.summary, Children: children, ModifyIndex: tx.index } });
}

export function getSummary(store: Store | WriteTx, namespace: string, jobId: string): JobSummary | undefined {
  return store.get<StoredSummary>(JOB_SUMMARIES, jobKey(namespace, jobId))?.summary;
}

export function liveAllocCount(store: Store | WriteTx, namespace: string, jobId: string): number {
  return store.get<StoredSummary>(JOB_SUMMARIES, jobKey(namespace, jobId))?.live ?? 0;
}

/** Keeps the copy of the job version that allocations placed with it will carry. */
export function putAllocJob(tx: WriteTx, job: Job): void {
  const key = allocJobKey(job.Namespace, job.ID, job.JobModifyIndex);
  if (!tx.get(ALLOC_JOBS, key)) tx.put(ALLOC_JOBS, key, job);
}

export function allocJob(store: Store | WriteTx, alloc: Pick<Allocation, 'Namespace' | 'JobID' | 'JobModifyIndex'>): Job | null {
  return store.get<Job>(ALLOC_JOBS, allocJobKey(alloc.Namespace, alloc.JobID, alloc.JobModifyIndex)) ?? null;
}

export function getAlloc(store: Store | WriteTx, id: string): Allocation | undefined {
  const key = allocKeyOf(store, id);
  const stored = key === undefined ? undefined : store.get<Fields>(ALLOCS_TABLE, key);
  return stored && readAlloc(stored);
}

/** The full allocation as the API answers it: with its job. */
export function withJob(store: Store, alloc: Allocation): Allocation & { Job: Job | null } {
  return { ...alloc, Job: allocJob(store, alloc) };
}

function idsToAllocs(store: Store | WriteTx, keys: { key: string }[]): Allocation[] {
  const out: Allocation[] = [];
  for (const { key } of keys) {
    const a = getAlloc(store, key.slice(key.lastIndexOf(SEP) + 1));
    if (a) out.push(a);
  }
  return out;
}

export function allocsOfJob(store: Store | WriteTx, namespace: string, jobId: string): Allocation[] {
  return idsToAllocs(store, store.list(ALLOCS_BY_JOB, `${jobKey(namespace, jobId)}${SEP}`));
}

/** The index of the last removal of an allocation of the node; 0 when none was ever removed. */
export function nodeAllocsRemovedIndex(store: Store | WriteTx, nodeId: string): number {
  return store.get<number>(NODE_ALLOCS_REMOVED, nodeId) ?? 0;
}

export function allocsOfNode(store: Store | WriteTx, nodeId: string): Allocation[] {
  return idsToAllocs(store, store.list(ALLOCS_BY_NODE, `${nodeId}${SEP}`));
}

export function allocsOfEval(store: Store | WriteTx, evalId: string): Allocation[] {
  return idsToAllocs(store, store.list(ALLOCS_BY_EVAL, `${evalId}${SEP}`));
}

/** Sums the node-usage table afresh from the by-node entries (the migration that introduced it). */
export function rebuildNodeUsage(tx: WriteTx): void {
  const live = tx.list<NodeUsageEntry>(ALLOCS_BY_NODE).filter((e) => e.value.live);
  writeNodeUsage(tx, live.map(({ key, value }) => ({ nodeId: key.slice(0, key.indexOf(SEP)), usage: value })));
}

/**
 * Allocations in creation order (oldest first), from the `<CreateIndex>.<ID>` paging token on, or
 * newest first with `reverse`. Yields lazily: a page deep into 50,000 allocations reads only that page.
 */
export function* allocsByCreate(store: Store, opts: { fromToken?: { index: number; id: string }; reverse?: boolean }): Generator<Allocation> {
  const start = opts.fromToken ? allocKey(opts.fromToken.index, opts.fromToken.id) : undefined;
  for (const { value } of scanTable<Fields>(store, ALLOCS_TABLE, '', { start, reverse: opts.reverse })) yield readAlloc(value);
}

/** Removes an allocation and its index entries (garbage collection); its node learns of it on its next pull. */
export function deleteAlloc(tx: WriteTx, alloc: Allocation): void {
  const key = allocKey(alloc.CreateIndex, alloc.ID);
  const entry = storedEntry(tx, key);
  if (entry?.live) addNodeUsage(tx, alloc.NodeID, entry, -1);
  tx.delete(ALLOCS_TABLE, key);
  tx.delete(ALLOC_IDS, alloc.ID);
  deleteAllocStub(tx, alloc);
  tx.put(NODE_ALLOCS_REMOVED, alloc.NodeID, tx.index);
  tx.delete(ALLOCS_BY_JOB, byJobKey(alloc));
  tx.delete(ALLOCS_BY_NODE, byNodeKey(alloc.NodeID, alloc));
  tx.delete(ALLOCS_BY_EVAL, byEvalKey(alloc));
  deleteRegistrationRows(tx, alloc.ID);
}
