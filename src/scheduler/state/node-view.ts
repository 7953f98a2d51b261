/**
 * The nodes as schedulers see them, decoded once per change of the nodes table instead of once per
 * evaluation: with thousands of nodes, decoding them all was most of a small job's evaluation.
 *
 * The view is derived data, keyed by the nodes table's index, and is rebuilt whenever that index moves.
 * The index comes from the store, so a write by another server process sharing the store (the PostgreSQL
 * backend) invalidates it as surely as one of ours; nothing here assumes this process is the only writer.
 * The index is read before the nodes, so a view is never older than the index it is labelled with.
 *
 * The nodes are shared by every evaluation until the next change: schedulers only read them.
 */
import type { Store } from '../../storage/store.js';
import { candidateNodes, type CandidateNodes } from '../sched/feasible.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import { listNodes, NODES_TABLE } from './nodes.js';

export interface NodeView {
  /** the nodes table's index the view was read at */
  readonly index: number;
  readonly nodes: Node[];
  readonly byId: ReadonlyMap<string, Node>;
  /** a job's candidates depend only on its datacenters and pool: one answer per distinct pair */
  readonly candidates: Map<string, CandidateNodes>;
}

const views = new WeakMap<Store, NodeView>();

export function nodeView(store: Store): NodeView {
  const index = store.tableIndex(NODES_TABLE);
  const cached = views.get(store);
  if (cached && cached.index === index) return cached;
  const nodes = listNodes(store);
  const view: NodeView = { index, nodes, byId: new Map(nodes.map((n) => [n.ID, n])), candidates: new Map() };
  views.set(store, view);
  return view;
}

/**
 * The job's candidate nodes in the view, shared by every evaluation until the nodes change: with them the
 * per-node data that does not depend on the job (position, capacity) is computed once, not per evaluation.
 * Callers never reorder `nodes`.
 */
export function viewCandidates(view: NodeView, job: Pick<Job, 'Datacenters' | 'NodePool'>): CandidateNodes {
  const key = JSON.stringify([job.Datacenters, job.NodePool]);
  let c = view.candidates.get(key);
  if (!c) view.candidates.set(key, (c = candidateNodes(view.nodes, job)));
  return c;
}
