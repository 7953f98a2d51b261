/**
 * Nodes in the state store. A node's secret is kept only as a SHA-256 hash (it is a credential, like a
 * token). Status changes create the evaluations Nomad creates: a node that becomes ready wakes blocked
 * evaluations and system jobs; a node that goes down gets its jobs re-evaluated so lost allocations are
 * replaced.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { UserError } from '../../shared/errors.js';
import { MAX_KEY_PART_BYTES } from '../../shared/key-length.js';
import type { Store, WriteTx } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import { NODE_EVENTS_KEPT, type Node, type NodeEvent, type NodeStatus } from '../structs/node.js';
import { evaluateJob, unblockAll } from './evals.js';
import { evaluateJobsOnDownNodes } from './node-down-evals.js';
import { activeSystemJobs } from './system-jobs.js';
import { WriteKind } from '../events/kinds.js';

export const NODES_TABLE = 'nodes';
const NODE_SECRETS = 'node-secrets';

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function getNode(store: Store | WriteTx, id: string): Node | undefined {
  return store.get<Node>(NODES_TABLE, id);
}

export function listNodes(store: Store | WriteTx): Node[] {
  return store.list<Node>(NODES_TABLE).map((e) => e.value);
}

/** True when `secret` is the node's SecretID. */
export function nodeSecretMatches(store: Store, id: string, secret: string): boolean {
  // An ID too long to be stored names no node; asking the store would be a 400 where a 403 is due.
  if (Buffer.byteLength(id) > MAX_KEY_PART_BYTES) return false;
  const stored = store.get<string>(NODE_SECRETS, id);
  if (!stored || !secret) return false;
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(hashSecret(secret), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Lets a node ID register itself with this secret (the server does this for its own node, which then
 * joins over the node API like any other). Refused when the ID is already known by another secret.
 */
export async function authorizeNodeSecret(store: Store, id: string, secret: string): Promise<void> {
  await store.write((tx) => {
    const stored = tx.get<string>(NODE_SECRETS, id);
    if (stored && stored !== hashSecret(secret)) throw new NodeSecretMismatch(id);
    if (!stored) tx.put(NODE_SECRETS, id, hashSecret(secret));
  });
}

function nodeEvent(message: string, index: number, subsystem = 'Cluster', details: Record<string, string> | null = null): NodeEvent {
  return { Message: message, Subsystem: subsystem, Details: details, Timestamp: new Date().toISOString(), CreateIndex: index };
}

/** The node's events with one more, the oldest dropped past NODE_EVENTS_KEPT. */
export function withEvent(node: Node, message: string, index: number, subsystem?: string, details?: Record<string, string> | null): Node['Events'] {
  return [...(node.Events ?? []), nodeEvent(message, index, subsystem, details)].slice(-NODE_EVENTS_KEPT);
}

/**
 * Registers a node or updates its registration. A node re-registering with another secret than the one
 * it first registered with is refused: the ID belongs to the first. Eligibility and drain belong to the
 * operators, not to the node: a node that registers again (a restart) keeps them, as in Nomad.
 */
export async function registerNode(store: Store, input: Node, secret: string): Promise<{ node: Node; index: number }> {
  const { result, index } = await store.write((tx) => {
    tx.describe(WriteKind.NodeRegister);
    const prev = getNode(tx, input.ID);
    const storedSecret = tx.get<string>(NODE_SECRETS, input.ID);
    if (storedSecret && storedSecret !== hashSecret(secret)) throw new NodeSecretMismatch(input.ID);
    const node: Node = {
      ...input,
      SchedulingEligibility: prev?.SchedulingEligibility ?? input.SchedulingEligibility,
      DrainStrategy: prev?.DrainStrategy ?? null,
      LastDrain: prev?.LastDrain ?? null,
      Status: 'ready',
      StatusDescription: '',
      StatusUpdatedAt: Math.floor(Date.now() / 1000),
      CreateIndex: prev?.CreateIndex ?? tx.index,
      ModifyIndex: tx.index,
      Events: prev ? withEvent(prev, prev.Status === 'ready' ? 'Node re-registered' : 'Node reregistered and is ready', tx.index) : [nodeEvent('Node registered', tx.index)],
    };
    tx.put(NODES_TABLE, node.ID, node);
    if (!storedSecret) tx.put(NODE_SECRETS, node.ID, hashSecret(secret));
    if (!prev || prev.Status !== 'ready') nodeBecameReady(tx, node);
    return node;
  });
  return { node: result, index };
}

export class NodeSecretMismatch extends Error {
  constructor(id: string) {
    super(`node ${id} is registered with another secret`);
  }
}

/** Capacity appeared: blocked evaluations run again, and every system job considers the node. */
function nodeBecameReady(tx: WriteTx, node: Node): void {
  unblockAll(tx);
  for (const job of activeSystemJobs(tx)) evaluateForNode(tx, job, node.ID, 'node-update');
}

function evaluateForNode(tx: WriteTx, job: Job, nodeId: string, triggeredBy: string): void {
  evaluateJob(tx, job, triggeredBy, { extra: { NodeID: nodeId, NodeModifyIndex: tx.index } });
}

/**
 * Moves a node to another status. Becoming ready wakes what waits for capacity; going down re-evaluates
 * every job with live allocations on it, so the scheduler marks them lost and places replacements
 * (nodes that miss their heartbeats go down together, through markNodesDown).
 */
export async function setNodeStatus(store: Store, id: string, status: NodeStatus, description: string): Promise<number> {
  const { index } = await store.write((tx) => {
    tx.describe(WriteKind.NodeUpdateStatus);
    const node = getNode(tx, id);
    if (!node || node.Status === status) return;
    tx.put(NODES_TABLE, id, withStatus(node, status, description, tx.index));
    if (status === 'ready') nodeBecameReady(tx, node);
    else evaluateJobsOnDownNodes(tx, [id]);
  });
  return index;
}

/** The node with a new status, and an event saying so. */
export function withStatus(node: Node, status: NodeStatus, description: string, index: number): Node {
  return {
    ...node,
    Status: status,
    StatusDescription: description,
    StatusUpdatedAt: Math.floor(Date.now() / 1000),
    ModifyIndex: index,
    Events: withEvent(node, `Node ${status}${description ? `: ${description}` : ''}`, index),
  };
}

/** Marks a node eligible or ineligible for new placements; a draining node stays ineligible. */
export async function setNodeEligibility(store: Store, id: string, eligible: boolean): Promise<number> {
  const { index } = await store.write((tx) => {
    tx.describe(WriteKind.NodeUpdateEligibility);
    const node = getNode(tx, id);
    if (!node) return;
    if (eligible && node.DrainStrategy) throw new UserError("can not set node's scheduling eligibility to eligible while it is draining");
    const value = eligible ? 'eligible' : 'ineligible';
    if (node.SchedulingEligibility === value) return;
    tx.put(NODES_TABLE, id, { ...node, SchedulingEligibility: value, ModifyIndex: tx.index });
    if (eligible) unblockAll(tx);
  });
  return index;
}
