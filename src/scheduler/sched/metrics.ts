/** The AllocMetric of one placement, filled the way Nomad's scheduler fills it. */
import type { AllocMetric } from '../structs/allocation.js';
import type { Node } from '../structs/node.js';

/** Nomad keeps the five best-scoring nodes of a placement. */
const SCORES_KEPT = 5;

export interface NodeScores {
  NodeID: string;
  Scores: Record<string, number>;
  NormScore: number;
}

export function newMetric(pool: string, nodesAvailable: Record<string, number>, nodesInPool: number): AllocMetric {
  return {
    NodesEvaluated: 0,
    NodesFiltered: 0,
    NodesInPool: nodesInPool,
    NodePool: pool,
    NodesAvailable: { ...nodesAvailable },
    ClassFiltered: null,
    ConstraintFiltered: null,
    NodesExhausted: 0,
    ClassExhausted: null,
    DimensionExhausted: null,
    QuotaExhausted: null,
    ResourcesExhausted: null,
    Scores: null,
    ScoreMetaData: null,
    AllocationTime: 0,
    CoalescedFailures: 0,
  };
}

function bump(map: Record<string, number> | null, key: string): Record<string, number> {
  const m = map ?? {};
  m[key] = (m[key] ?? 0) + 1;
  return m;
}

/** A node that failed feasibility; `reason` is the constraint string or a checker's name. */
export function filterNode(m: AllocMetric, node: Node, reason: string): void {
  m.NodesFiltered++;
  if (node.NodeClass) m.ClassFiltered = bump(m.ClassFiltered, node.NodeClass);
  m.ConstraintFiltered = bump(m.ConstraintFiltered, reason);
}

/** A feasible node without room; `dimension` is what ran out (`memory`, `network: …`). */
export function exhaustNode(m: AllocMetric, node: Node, dimension: string): void {
  m.NodesExhausted++;
  if (node.NodeClass) m.ClassExhausted = bump(m.ClassExhausted, node.NodeClass);
  m.DimensionExhausted = bump(m.DimensionExhausted, dimension);
}

/** Whether recordScore would keep a node scoring `norm`: most nodes a placement visits are not kept. */
export function keepsScore(m: AllocMetric, norm: number): boolean {
  const list = m.ScoreMetaData;
  return list === null || list.length < SCORES_KEPT || list[SCORES_KEPT - 1].NormScore < norm;
}

/** Keeps the best-scoring nodes only, in descending order, as Nomad's top-K score metadata. */
export function recordScore(m: AllocMetric, entry: NodeScores): void {
  if (!keepsScore(m, entry.NormScore)) return;
  const list = (m.ScoreMetaData ??= []);
  let i = list.length;
  while (i > 0 && list[i - 1].NormScore < entry.NormScore) i--;
  list.splice(i, 0, entry);
  if (list.length > SCORES_KEPT) list.pop();
}

/** Folds a later failure of the same group into the first one's metric, as Nomad coalesces them. */
export function coalesce(first: AllocMetric, later: AllocMetric): void {
  first.CoalescedFailures++;
  first.NodesExhausted += later.NodesExhausted;
  for (const [k, v] of Object.entries(later.DimensionExhausted ?? {})) {
    first.DimensionExhausted ??= {};
    first.DimensionExhausted[k] = (first.DimensionExhausted[k] ?? 0) + v;
  }
}
