/**
 * An evaluation walks the candidate nodes in an order shuffled as it goes: every node once, in a
 * uniformly random order, whether the walk stops after a few nodes or goes past the point where the
 * order moves into an array.
 */
import { describe, expect, it } from 'vitest';
import { arrayState } from '../../../src/scheduler/sched/array-state.js';
import { EvalContext } from '../../../src/scheduler/sched/context.js';
import { makeJob, makeNodes, simpleJob } from './helpers.js';

const contextOver = (nodes: number) => {
  const job = makeJob(simpleJob(1));
  return new EvalContext(arrayState({ jobs: [job], allocs: [], nodes: makeNodes(nodes) }), job, []);
};

describe('evaluation context order', () => {
  it('visits every candidate exactly once, for small and large clusters', () => {
    for (const n of [1, 2, 7, 300, 3000]) {
      const ctx = contextOver(n);
      const seen = Array.from({ length: n }, (_, i) => ctx.node(i).ID);
      expect(new Set(seen).size).toBe(n);
      // Asking again answers the same order.
      expect(Array.from({ length: n }, (_, i) => ctx.node(i).ID)).toEqual(seen);
    }
  });

  it('keeps a node and its room together whatever order the positions are asked in', () => {
    const ctx = contextOver(2000);
    const late = ctx.node(1500).ID;
    expect(ctx.slot(1500).node.ID).toBe(late);
    for (let i = 0; i < 1500; i++) expect(ctx.slot(i).node.ID).toBe(ctx.node(i).ID);
    expect(ctx.node(1500).ID).toBe(late);
  });

  it('puts every node first in some evaluation, and the first position is not biased to the list order', () => {
    const n = 4;
    const firsts = new Map<string, number>();
    for (let run = 0; run < 4000; run++) {
      const id = contextOver(n).node(0).ID;
      firsts.set(id, (firsts.get(id) ?? 0) + 1);
    }
    expect(firsts.size).toBe(n);
    // Each node is first about 1,000 times; 700 is more than ten standard deviations (27) away.
    for (const count of firsts.values()) expect(count).toBeGreaterThan(700);
  });
});
