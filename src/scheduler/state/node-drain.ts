/**
 * A node's drain in the state store, as Nomad's Node.UpdateDrain, NodesDrainComplete and
 * AllocUpdateDesiredTransition write it: the drain strategy and the `LastDrain` record on the node, the
 * node's eligibility, its drain events, and the allocations the drainer marks for migration with the
 * evaluations that act on them. Each is one transaction.
 */
import { NotFound } from '../../shared/errors.js';
import type { WriteTx, Store } from '../../storage/store.js';
import { allocTerminal, ZERO_TIME, goTime, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { DrainMetadata, DrainStatus, DrainStrategy, Node } from '../structs/node.js';
import { allocJob, allocsOfNode, getAlloc, putAlloc } from './allocs.js';
import { evaluateJob, unblockAll } from './evals.js';
import { getNode, NODES_TABLE, withEvent } from './nodes.js';
import { JOBS_TABLE, jobKey } from './tables.js';
import { activeSystemJobs } from './system-jobs.js';
import { WriteKind } from '../events/kinds.js';

/** Nomad's node event messages for drains. */
export const DRAIN_EVENTS = {
  set: 'Node drain strategy set',
  updated: 'Node drain strategy updated',
  disabled: 'Node drain disabled',
  complete: 'Node drain complete',
} as const;
const DRAIN_SUBSYSTEM = 'Drain';

/**
 * The IDs of the nodes that are draining, kept with every write that starts or ends a drain: the
 * drainer reads these few nodes instead of decoding every node each time the nodes table changes (which
 * a registration storm of thousands of nodes made quadratic).
 */
export const NODES_DRAINING = 'nodes-draining';

/** Writes a node whose drain may have started or ended, and the draining index with it. */
function putNodeDrainState(tx: WriteTx, node: Node): void {
  tx.put(NODES_TABLE, node.ID, node);
  if (node.DrainStrategy) tx.put(NODES_DRAINING, node.ID, 1);
  else tx.delete(NODES_DRAINING, node.ID);
}

/** The draining nodes, as the index lists them. */
export function drainingNodes(state: Store | WriteTx): Node[] {
  return state
    .keys(NODES_DRAINING)
    .map((key) => getNode(state, key))
    .filter((n): n is Node => n !== undefined && n.DrainStrategy !== null);
}

/** Builds the draining index from the nodes (schema migration 4). */
export function rebuildDrainingNodes(tx: WriteTx): void {
  for (const { key } of tx.list(NODES_DRAINING)) tx.delete(NODES_DRAINING, key);
  for (const { value: node } of tx.list<Node>(NODES_TABLE)) if (node.DrainStrategy) tx.put(NODES_DRAINING, node.ID, 1);
}

/** What a drain request asks (PUT /v1/node/:node_id/drain); `spec` null cancels the drain. */
export interface DrainRequest {
  spec: { Deadline: number; IgnoreSystemJobs: boolean } | null;
  /** when cancelling: make the node eligible again */
  markEligible: boolean;
  meta: Record<string, string> | null;
  /** the accessor of the token that asks */
  accessorId: string;
}

export interface DrainUpdate {
  index: number;
  /** evaluations created because the node became eligible again */
  evalIds: string[];
}

/** RFC3339 of whole seconds, as Nomad records LastDrain times (Unix seconds). */
const wholeSeconds = (ms: number) => goTime(Math.floor(ms / 1000) * 1000);

/**
 * Nomad's updateNodeDrainImpl: `LastDrain` starts with a drain, follows every change of it, and keeps
 * the operator's metadata (and who asked) when a change brings none, as a drain's completion never does.
 */
function nextLastDrain(node: Node, drain: DrainStrategy | null, status: DrainStatus, nowMs: number, meta: Record<string, string> | null, accessorId: string): DrainMetadata | null {
  if (!node.DrainStrategy && !drain) return node.LastDrain;
  const last: DrainMetadata =
    node.DrainStrategy && node.LastDrain ? { ...node.LastDrain } : { StartedAt: wholeSeconds(nowMs), UpdatedAt: '', Status: status, AccessorID: '', Meta: meta };
  last.UpdatedAt = wholeSeconds(nowMs);
  last.Status = status;
  if (meta && Object.keys(meta).length > 0) last.Meta = meta;
  if (accessorId) last.AccessorID = accessorId;
  return last;
}

/**
 * Starts, changes or cancels a node's drain. Draining makes the node ineligible; cancelling leaves it
 * ineligible unless `markEligible`, and then its jobs and every system job are evaluated again (the node
 * can take work), as Nomad's createNodeEvals.
 */
export async function updateNodeDrain(store: Store, nodeId: string, req: DrainRequest): Promise<DrainUpdate> {
  const { result, index } = await store.write((tx) => {
    tx.describe(WriteKind.NodeUpdateDrain);
    const node = getNode(tx, nodeId);
    if (!node) throw new NotFound('node not found');
    const nowMs = Date.now();
    const drain: DrainStrategy | null = req.spec
      ? {
          Deadline: req.spec.Deadline,
          IgnoreSystemJobs: req.spec.IgnoreSystemJobs,
          ForceDeadline: req.spec.Deadline > 0 ? goTime(nowMs + Math.floor(req.spec.Deadline / 1e6)) : ZERO_TIME,
          StartedAt: node.DrainStrategy?.StartedAt ?? goTime(nowMs),
        }
      : null;
    const message = drain ? (node.DrainStrategy ? DRAIN_EVENTS.updated : DRAIN_EVENTS.set) : node.DrainStrategy ? DRAIN_EVENTS.disabled : undefined;
    const eligibility = drain ? 'ineligible' : req.markEligible ? 'eligible' : node.SchedulingEligibility;
    const next: Node = {
      ...node,
      DrainStrategy: drain,
      SchedulingEligibility: eligibility,
      LastDrain: nextLastDrain(node, drain, drain ? 'draining' : 'canceled', nowMs, req.meta, req.accessorId),
      StatusUpdatedAt: Math.floor(nowMs / 1000),
      ModifyIndex: tx.index,
      Events: message ? withEvent(node, message, tx.index, DRAIN_SUBSYSTEM) : node.Events,
    };
    putNodeDrainState(tx, next);
    if (node.SchedulingEligibility !== 'ineligible' || eligibility !== 'eligible') return [];
    unblockAll(tx);
    return evaluateNodeJobs(tx, next);
  });
  return { index, evalIds: result };
}

/** Evaluations of every job with live allocations on the node and of every system job; their IDs. */
function evaluateNodeJobs(tx: WriteTx, node: Node): string[] {
  const jobs = new Map<string, Job>();
  for (const alloc of allocsOfNode(tx, node.ID)) {
    if (allocTerminal(alloc)) continue;
    const job = tx.get<Job>(JOBS_TABLE, jobKey(alloc.Namespace, alloc.JobID));
    if (job) jobs.set(jobKey(job.Namespace, job.ID), job);
  }
  for (const job of activeSystemJobs(tx)) jobs.set(jobKey(job.Namespace, job.ID), job);
  return [...jobs.values()].map((job) => evaluateJob(tx, job, 'node-update', { extra: { NodeID: node.ID, NodeModifyIndex: tx.index } }).ID);
}

/**
 * Ends a node's drain (Nomad's NodesDrainComplete): the strategy is cleared, the node stays ineligible,
 * `LastDrain` says complete. `deadlineReached` is recorded in the event's details.
 */
export function completeNodeDrain(tx: WriteTx, node: Node, deadlineReached: boolean): void {
  const nowMs = Date.now();
  putNodeDrainState(tx, {
    ...node,
    DrainStrategy: null,
    LastDrain: nextLastDrain(node, null, 'complete', nowMs, null, ''),
    StatusUpdatedAt: Math.floor(nowMs / 1000),
    ModifyIndex: tx.index,
    Events: withEvent(node, DRAIN_EVENTS.complete, tx.index, DRAIN_SUBSYSTEM, deadlineReached ? { deadline_reached: 'true' } : null),
  });
}

/**
 * Marks allocations for migration and creates one `node-drain` evaluation per job, whose scheduler then
 * stops each marked allocation and places its replacement elsewhere. The node learns nothing from the
 * mark itself (AllocModifyIndex stays): what it must run changes only with the scheduler's stop.
 */
export function markForMigration(tx: WriteTx, allocs: Allocation[]): number {
  const jobs = new Map<string, Job>();
  const now = Date.now() * 1_000_000;
  let marked = 0;
  for (const a of allocs) {
    const prev = getAlloc(tx, a.ID);
    if (!prev || allocTerminal(prev) || prev.DesiredTransition?.Migrate) continue;
    putAlloc(tx, { ...prev, DesiredTransition: { ...prev.DesiredTransition, Migrate: true }, ModifyIndex: tx.index, ModifyTime: now }, prev);
    marked++;
    const key = jobKey(prev.Namespace, prev.JobID);
    // A purged job is evaluated as the version its allocations run, so that they are stopped.
    const job = tx.get<Job>(JOBS_TABLE, key) ?? allocJob(tx, prev);
    if (job) jobs.set(key, job);
  }
  for (const job of jobs.values()) evaluateJob(tx, job, 'node-drain');
  return marked;
}
