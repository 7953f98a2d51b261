/**
 * The list view of every allocation, in its own table (`alloc-stubs`, ID → AllocStubRecord) kept by
 * putAlloc and deleteAlloc in the same transaction as the record: listings read these small records
 * instead of decoding each full allocation (its AllocatedResources and Metrics are most of its bytes).
 * Nomad's AllocListStub carries the job's type, which lives in the job version the allocation runs; it
 * is resolved once per job version at listing time, so a placement writes no job lookup.
 */
import type { Store, WriteTx } from '../../storage/store.js';
import type { Allocation } from '../structs/allocation.js';
import { scanTable } from './scan.js';

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

export function putAllocStub(tx: WriteTx, alloc: Allocation): void {
  tx.put(ALLOC_STUBS, alloc.ID, allocStubRecord(alloc));
}

export function deleteAllocStub(tx: WriteTx, id: string): void {
  tx.delete(ALLOC_STUBS, id);
}

export function getAllocStub(store: Store | WriteTx, id: string): AllocStubRecord | undefined {
  return store.get<AllocStubRecord>(ALLOC_STUBS, id);
}

/** Stubs whose ID starts with `prefix` (dashed, as stored), lazily, in ID order. */
export function* allocStubsByPrefix(store: Store, prefix: string, opts: { start?: string; reverse?: boolean }): Generator<AllocStubRecord> {
  for (const { value } of scanTable<AllocStubRecord>(store, ALLOC_STUBS, prefix, opts)) yield value;
}
