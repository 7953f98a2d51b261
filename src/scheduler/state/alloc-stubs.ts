/**
 * The list view of every allocation, in its own table (`alloc-stubs`, keyed as the allocation is: by
 * creation, see alloc-keys.ts) kept by
 * putAlloc and deleteAlloc in the same transaction as the record: listings read these small records
 * instead of decoding each full allocation (its AllocatedResources and Metrics are most of its bytes).
 *
 * A stored stub also holds what the allocation takes on its node (`Usage`, which readStub leaves out):
 * the figures its node's usage sum counts for it while it is live (node-usage.ts). With its node, job and
 * evaluation beside them, the stub is all the LMDB store fills its in-memory allocation indexes from
 * (alloc-memory-tables.ts), so a placement writes no record of its own for them.
 * Nomad's AllocListStub carries the job's type, which lives in the job version the allocation runs; it
 * is resolved once per job version at listing time, so a placement writes no job lookup.
 */
import type { Store, WriteTx } from '../../storage/store.js';
import { zeroAllocation, type Allocation } from '../structs/allocation.js';
import { elide, packTaskStates, readTaskStates, restore, type Fields } from './alloc-record.js';
import { scanKeys } from './scan.js';
import { ALLOC_IDS, allocKey, allocKeyOf } from './alloc-keys.js';
import { allocUsage } from '../sched/usage.js';
import type { UsageDelta } from './node-usage.js';

export const ALLOC_STUBS = 'alloc-stubs';

export type AllocStubRecord = Pick<
  Allocation,
  | 'ID'
  | 'EvalID'
  | 'Name'
  | 'Namespace'
  | 'NodeID'
  | 'NodeName'
  | 'JobID'
  | 'JobVersion'
  | 'JobModifyIndex'
  | 'TaskGroup'
  | 'DesiredStatus'
  | 'DesiredDescription'
  | 'ClientStatus'
  | 'ClientDescription'
  | 'DesiredTransition'
  | 'TaskStates'
  | 'DeploymentStatus'
  | 'FollowupEvalID'
  | 'NextAllocation'
  | 'RescheduleTracker'
  | 'CreateIndex'
  | 'ModifyIndex'
  | 'CreateTime'
  | 'ModifyTime'
>;

/** The projection of a full allocation a stub holds; the table always equals this of the stored record. */
export function allocStubRecord(a: Allocation): AllocStubRecord {
  return {
    ID: a.ID,
    EvalID: a.EvalID,
    Name: a.Name,
    Namespace: a.Namespace,
    NodeID: a.NodeID,
    NodeName: a.NodeName,
    JobID: a.JobID,
    JobVersion: a.JobVersion,
    JobModifyIndex: a.JobModifyIndex,
    TaskGroup: a.TaskGroup,
    DesiredStatus: a.DesiredStatus,
    DesiredDescription: a.DesiredDescription,
    ClientStatus: a.ClientStatus,
    ClientDescription: a.ClientDescription,
    DesiredTransition: a.DesiredTransition,
    TaskStates: a.TaskStates,
    DeploymentStatus: a.DeploymentStatus,
    FollowupEvalID: a.FollowupEvalID,
    NextAllocation: a.NextAllocation,
    RescheduleTracker: a.RescheduleTracker,
    CreateIndex: a.CreateIndex,
    ModifyIndex: a.ModifyIndex,
    CreateTime: a.CreateTime,
    ModifyTime: a.ModifyTime,
  };
}

const ZERO_STUB = allocStubRecord(zeroAllocation()) as unknown as Fields;

/** A stub as stored: its zero-valued fields and its task events' unset fields left out (alloc-record.ts). */
function packStub(s: AllocStubRecord): Fields {
  const out = elide(s as unknown as Fields, ZERO_STUB);
  if (s.TaskStates) out.TaskStates = packTaskStates(s.TaskStates);
  return out;
}

export function readStub(stored: Fields): AllocStubRecord {
  const s = restore(stored, allocStubRecord(zeroAllocation()) as unknown as Fields);
  delete s.Usage;
  if (s.TaskStates) s.TaskStates = readTaskStates(s.TaskStates as AllocStubRecord['TaskStates'] & object);
  return s as unknown as AllocStubRecord;
}

/** What the allocation takes on its node, as its stub holds it. */
export function stubUsage(a: Pick<Allocation, 'AllocatedResources'>): UsageDelta {
  const u = allocUsage(a);
  return { cpu: u.cpu, mem: u.memoryMB, disk: u.diskMB, ports: u.ports };
}

/** A field of a stored stub without reading the whole of it: its zero value when it was left out. */
export const storedField = <K extends keyof AllocStubRecord>(stored: Fields, field: K): AllocStubRecord[K] =>
  (field in stored ? stored[field] : ZERO_STUB[field]) as AllocStubRecord[K];

/** The usage a stored stub holds; undefined for one written before stubs held it (schema 12). */
export const storedUsage = (stored: Fields): UsageDelta | undefined => stored.Usage as UsageDelta | undefined;

export function putAllocStub(tx: WriteTx, alloc: Allocation): void {
  tx.put(ALLOC_STUBS, allocKey(alloc.CreateIndex, alloc.ID), { ...packStub(allocStubRecord(alloc)), Usage: stubUsage(alloc) });
}

const STUB_FIELDS = Object.keys(ZERO_STUB);

/**
 * putAllocStub for an allocation already packed (packAlloc), with its usage: a stub's fields have the same
 * zero values as the record's, so its packed form is the packed record's stub fields, picked instead of
 * packed again.
 */
export function putPackedAllocStub(tx: WriteTx, key: string, packed: Fields, usage: UsageDelta): void {
  const out: Fields = {};
  for (const field of STUB_FIELDS) if (field in packed) out[field] = packed[field];
  out.Usage = usage;
  tx.put(ALLOC_STUBS, key, out);
}

export function deleteAllocStub(tx: WriteTx, alloc: Pick<Allocation, 'ID' | 'CreateIndex'>): void {
  tx.delete(ALLOC_STUBS, allocKey(alloc.CreateIndex, alloc.ID));
}

export function getAllocStub(store: Store | WriteTx, id: string): AllocStubRecord | undefined {
  const key = allocKeyOf(store, id);
  const stored = key === undefined ? undefined : store.get<Fields>(ALLOC_STUBS, key);
  return stored && readStub(stored);
}

/**
 * Stubs in creation order from the `<CreateIndex>.<ID>` token on (inclusive), or newest first with
 * `reverse`. Keys are read a batch at a time and each stub only when it is reached, so a long streamed
 * listing shows what was written while it ran, as far as it had not yet reached.
 */
export function* stubsByCreate(store: Store, opts: { fromToken?: { index: number; id: string }; reverse?: boolean }): Generator<AllocStubRecord> {
  const start = opts.fromToken ? allocKey(opts.fromToken.index, opts.fromToken.id) : undefined;
  for (const key of scanKeys(store, ALLOC_STUBS, '', { start, reverse: opts.reverse })) {
    const stored = store.get<Fields>(ALLOC_STUBS, key);
    if (stored) yield readStub(stored);
  }
}

/** IDs starting with `prefix` (dashed, as stored), in ID order from `start` on, lazily. */
export function* allocIdsByPrefix(store: Store, prefix: string, opts: { start?: string; reverse?: boolean }): Generator<string> {
  yield* scanKeys(store, ALLOC_IDS, prefix, opts);
}
