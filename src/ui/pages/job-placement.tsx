/**
 * Why the scheduler could not place a group's allocations (an evaluation's or a plan's FailedTGAllocs),
 * worded as `nomad eval status` prints it: how many nodes were evaluated, filtered and exhausted, then
 * one line per reason a node was left out.
 */
import type { AllocMetric } from './job-types.js';

const sorted = (m: Record<string, number> | null | undefined) => Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The reasons, one line each, in the order Nomad's formatAllocMetrics gives them. */
export function placementReasons(m: AllocMetric): string[] {
  const lines: string[] = [];
  if ((m.NodesEvaluated ?? 0) === 0) lines.push('No nodes were eligible for evaluation');
  for (const [dc, n] of sorted(m.NodesAvailable)) if (n === 0) lines.push(`No nodes are available in datacenter "${dc}"`);
  for (const [c, n] of sorted(m.ClassFiltered)) lines.push(`Class "${c}": ${n} nodes excluded by filter`);
  for (const [c, n] of sorted(m.ConstraintFiltered)) lines.push(`Constraint "${c}": ${n} nodes excluded by filter`);
  if ((m.NodesExhausted ?? 0) > 0) lines.push(`Resources exhausted on ${m.NodesExhausted} nodes`);
  for (const [c, n] of sorted(m.ClassExhausted)) lines.push(`Class "${c}" exhausted on ${n} nodes`);
  for (const [d, n] of sorted(m.DimensionExhausted)) lines.push(`Dimension "${d}" exhausted on ${n} nodes`);
  for (const q of m.QuotaExhausted ?? []) lines.push(`Quota limit hit "${q}"`);
  return lines;
}

export function PlacementFailures(props: { failed: Record<string, AllocMetric> | null | undefined }) {
  const groups = Object.keys(props.failed ?? {}).sort();
  if (groups.length === 0) return null;
  return (
    <div class="placement-failures" data-testid="placement-failures">
      {groups.map((g) => {
        const m = props.failed![g];
        const n = (m.CoalescedFailures ?? 0) + 1;
        return (
          <div key={g} data-testid={`placement-failure-${g}`}>
            <p class="placement-heading">
              Task Group "{g}" (failed to place {n} allocation{n > 1 ? 's' : ''}):
            </p>
            <p class="muted">
              Nodes evaluated: {m.NodesEvaluated ?? 0} · filtered: {m.NodesFiltered ?? 0} · exhausted: {m.NodesExhausted ?? 0}
              {m.NodesInPool !== undefined ? ` · in pool${m.NodePool ? ` "${m.NodePool}"` : ''}: ${m.NodesInPool}` : ''}
            </p>
            <ul>
              {placementReasons(m).map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
