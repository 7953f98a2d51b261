/**
 * The state of one evaluation's placements: the candidate nodes in a shuffled order, each node's room
 * (read from the state once, then kept current), and where the job's allocations would be. Stops are
 * released before placements so a plan can reuse what it frees, as Nomad's plans do.
 *
 * The order is shuffled as it is walked (Fisher–Yates from the front, one position at a time): a service
 * placement looks at about log2(n) nodes, and an evaluation of ten of them visited 150 of 5,000 nodes
 * while shuffling and indexing all 5,000 (80 KB of arrays per evaluation, made and dropped).
 */
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';
import { NodeSlot, nodeCapacity } from './capacity.js';
import type { CandidateNodes } from './feasible.js';
import { ProposedAllocs } from './proposed.js';
import { groupPlan, type GroupPlan } from './rank.js';
import type { SchedulerState } from './types.js';
import { allocUsage, type AllocUsage } from './usage.js';

/** Past this many moved positions, the order is kept in an array: a walk over most of the nodes. */
const SPARSE_ORDER_LIMIT = 512;

export class EvalContext {
  /** shared with other evaluations (a cached view): read, never reordered */
  readonly candidates: CandidateNodes;
  readonly proposed: ProposedAllocs;
  /** where the next search starts: placements walk the nodes round-robin, as Nomad's do */
  offset = 0;
  /** each candidate's room once read, by the candidates' index */
  private readonly slots = new Map<number, NodeSlot>();
  /** positions whose node is drawn: the order's first `drawn` entries are final */
  private drawn = 0;
  /** the order while few positions are drawn: position → candidates' index, for positions moved so far */
  private readonly moved = new Map<number, number>();
  /** the order once many are (a walk over every node): order[i] is the candidates' index of the i-th node */
  private order: Int32Array | undefined;
  private readonly otherNodes = new Map<string, Node | undefined>();
  /** usage changes for nodes whose room has not been read yet */
  private readonly pending = new Map<string, { usage: AllocUsage; sign: 1 | -1 }[]>();
  private readonly plans = new Map<string, GroupPlan>();

  constructor(
    private readonly state: SchedulerState,
    readonly job: Job,
    jobAllocs: Allocation[],
  ) {
    this.candidates = state.candidateNodes(job);
    this.proposed = new ProposedAllocs((id) => this.nodeOf(id));
    for (const a of jobAllocs) if (!allocTerminal(a)) this.proposed.change(a.NodeID, a.TaskGroup, 1);
  }

  get nodeCount(): number {
    return this.candidates.nodes.length;
  }

  /** The i-th node of the evaluation's order. */
  node(i: number): Node {
    return this.candidates.nodes[this.at(i)];
  }

  /** Whether the node is one of the candidates. */
  has(nodeId: string): boolean {
    return this.candidates.position.has(nodeId);
  }

  /** The room of the i-th node of the order, read from the state the first time it is needed. */
  slot(i: number): NodeSlot {
    const c = this.at(i);
    let s = this.slots.get(c);
    if (!s) {
      const node = this.candidates.nodes[c];
      s = new NodeSlot(node, this.state.nodeUsage(node.ID), (this.candidates.capacity[c] ??= nodeCapacity(node)));
      for (const p of this.pending.get(node.ID) ?? []) s.apply(p.usage, p.sign);
      this.pending.delete(node.ID);
      this.slots.set(c, s);
    }
    return s;
  }

  /** The candidates' index of the i-th node of the order, drawing the order up to it. */
  private at(i: number): number {
    while (this.drawn <= i) this.draw();
    return this.order ? this.order[i] : (this.moved.get(i) ?? i);
  }

  /** Fixes the next position: a uniformly random one of the nodes not drawn yet. */
  private draw(): void {
    const n = this.candidates.nodes.length;
    const k = this.drawn++;
    const j = k + Math.floor(Math.random() * (n - k));
    if (!this.order && this.moved.size >= SPARSE_ORDER_LIMIT) this.order = this.materialize();
    if (this.order) {
      const o = this.order;
      [o[k], o[j]] = [o[j], o[k]];
      return;
    }
    const a = this.moved.get(k) ?? k;
    this.moved.set(k, this.moved.get(j) ?? j);
    this.moved.set(j, a);
  }

  private materialize(): Int32Array {
    const order = new Int32Array(this.candidates.nodes.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    for (const [position, c] of this.moved) order[position] = c;
    this.moved.clear();
    return order;
  }

  nodeOf(id: string): Node | undefined {
    const c = this.candidates.position.get(id);
    if (c !== undefined) return this.candidates.nodes[c];
    if (!this.otherNodes.has(id)) this.otherNodes.set(id, this.state.node(id));
    return this.otherNodes.get(id);
  }

  plan(group: TaskGroup): GroupPlan {
    let p = this.plans.get(group.Name);
    if (!p) this.plans.set(group.Name, (p = groupPlan(this, group)));
    return p;
  }

  /** The plan stops a live allocation: its room is free for the placements that follow. */
  release(a: Allocation): void {
    this.move(a, allocUsage(a), -1);
  }

  /** Undoes release() when the placement that was to replace the allocation fails. */
  restore(a: Allocation): void {
    this.move(a, allocUsage(a), 1);
  }

  /** The plan places an allocation on the node. */
  commit(i: number, group: string, usage: AllocUsage): void {
    const node = this.node(i);
    this.proposed.change(node.ID, group, 1);
    this.slot(i).apply(usage, 1);
  }

  private move(a: Allocation, usage: AllocUsage, sign: 1 | -1): void {
    if (allocTerminal(a)) return;
    this.proposed.change(a.NodeID, a.TaskGroup, sign);
    const c = this.candidates.position.get(a.NodeID);
    if (c === undefined) return;
    const s = this.slots.get(c);
    if (s) s.apply(usage, sign);
    else {
      const list = this.pending.get(a.NodeID) ?? [];
      list.push({ usage, sign });
      this.pending.set(a.NodeID, list);
    }
  }
}
