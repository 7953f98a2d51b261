/**
 * The state of one evaluation's placements: the candidate nodes in a shuffled order, each node's room
 * (read from the state once, then kept current), and where the job's allocations would be. Stops are
 * released before placements so a plan can reuse what it frees, as Nomad's plans do.
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

export class EvalContext {
  /** shared with other evaluations (a cached view): read, never reordered */
  readonly candidates: CandidateNodes;
  readonly proposed: ProposedAllocs;
  /** where the next search starts: placements walk the nodes round-robin, as Nomad's do */
  offset = 0;
  private readonly slots: (NodeSlot | undefined)[];
  /** the evaluation's shuffled order: order[i] is the candidates' index of the i-th node */
  private readonly order: Int32Array;
  /** the inverse of order */
  private readonly rank: Int32Array;
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
    // Shuffling indexes rather than the nodes leaves the shared list alone and needs no map per evaluation.
    const n = this.candidates.nodes.length;
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    shuffle(this.order);
    this.rank = new Int32Array(n);
    for (let i = 0; i < n; i++) this.rank[this.order[i]] = i;
    this.slots = new Array(n);
    this.proposed = new ProposedAllocs((id) => this.nodeOf(id));
    for (const a of jobAllocs) if (!allocTerminal(a)) this.proposed.change(a.NodeID, a.TaskGroup, 1);
  }

  get nodeCount(): number {
    return this.candidates.nodes.length;
  }

  node(i: number): Node {
    return this.candidates.nodes[this.order[i]];
  }

  indexOf(nodeId: string): number | undefined {
    const c = this.candidates.position.get(nodeId);
    return c === undefined ? undefined : this.rank[c];
  }

  /** The node's room, read from the state the first time it is needed. */
  slot(i: number): NodeSlot {
    let s = this.slots[i];
    if (!s) {
      const c = this.order[i];
      const node = this.candidates.nodes[c];
      s = new NodeSlot(node, this.state.nodeUsage(node.ID), (this.candidates.capacity[c] ??= nodeCapacity(node)));
      for (const p of this.pending.get(node.ID) ?? []) s.apply(p.usage, p.sign);
      this.pending.delete(node.ID);
      this.slots[i] = s;
    }
    return s;
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
    const i = this.indexOf(a.NodeID);
    if (i === undefined) return;
    const s = this.slots[i];
    if (s) s.apply(usage, sign);
    else {
      const list = this.pending.get(a.NodeID) ?? [];
      list.push({ usage, sign });
      this.pending.set(a.NodeID, list);
    }
  }
}

function shuffle(list: Int32Array): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
}
