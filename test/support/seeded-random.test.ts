import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.js';

function draws(seed: number, n: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => r.next());
}

describe('seededRandom', () => {
  it('replays a seed draw for draw, and neighbouring seeds differ', () => {
    expect(draws(42, 50)).toEqual(draws(42, 50));
    expect(draws(42, 50)).not.toEqual(draws(43, 50));
    for (const x of draws(7, 1000)) expect(x >= 0 && x < 1).toBe(true);
  });

  it('gives coin flips of both sides for every small seed, at any stride', () => {
    for (let seed = 0; seed < 64; seed++) {
      const r = seededRandom(seed);
      const flips = Array.from({ length: 16 }, () => {
        r.next();
        const flip = r.int(2);
        r.next();
        return flip;
      });
      expect(new Set(flips).size, `seed ${seed}: ${flips.join('')}`).toBe(2);
    }
  });

  it('shuffles into a permutation and picks only what it was given', () => {
    const r = seededRandom(1);
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect([...r.shuffle(items)].sort()).toEqual(items);
    for (let i = 0; i < 100; i++) expect(items).toContain(r.pick(items));
    expect(() => r.pick([])).toThrow('nothing to pick from');
  });
});
