/** A placement's metric keeps Nomad's top five scored nodes, best first, whatever order they were scored in. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepsScore, newMetric, recordScore } from '../../../src/scheduler/sched/metrics.js';

describe('score metadata', () => {
  it('keeps the five best scores in descending order, the earlier of equal scores first', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -4, max: 4 }), { maxLength: 20 }), (norms) => {
        const m = newMetric('default', {}, norms.length);
        const asked: boolean[] = [];
        norms.forEach((norm, i) => {
          asked.push(keepsScore(m, norm));
          recordScore(m, { NodeID: `n${i}`, Scores: { binpack: norm }, NormScore: norm });
        });
        const expected = norms
          .map((norm, i) => ({ NodeID: `n${i}`, Scores: { binpack: norm }, NormScore: norm }))
          .sort((a, b) => b.NormScore - a.NormScore)
          .slice(0, 5);
        expect(m.ScoreMetaData ?? []).toEqual(expected);
        // keepsScore answered, before each one, whether that node would be in the list right after it.
        norms.forEach((_, i) => {
          const m2 = newMetric('default', {}, 0);
          for (let j = 0; j < i; j++) recordScore(m2, { NodeID: `n${j}`, Scores: {}, NormScore: norms[j] });
          recordScore(m2, { NodeID: 'x', Scores: {}, NormScore: norms[i] });
          expect(asked[i]).toBe(m2.ScoreMetaData!.some((e) => e.NodeID === 'x'));
        });
      }),
    );
  });
});
