/**
 * A packed partition against a plain Map and a sort in code point order, through enough inserts and
 * deletes that its buffers grow and shrink, for a partition that holds its keys less its name and one
 * (named by half a surrogate pair) that holds them whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareKeys, sortKey } from '../../src/storage/ordered-map.js';
import { PackedPartition } from '../../src/storage/packed-partition.js';

function walked<V>(p: PackedPartition<V>, reverse = false, firstAfter: (k: string) => boolean = () => !reverse): Array<[string, V]> {
  const out: Array<[string, V]> = [];
  p.walk(firstAfter, reverse, (k, v) => (out.push([k, v]), true));
  return out;
}

describe('packed partition', () => {
  for (const [kind, name] of [
    ['keys held less the name', 'node-1'],
    ['keys held whole (the name is half a surrogate pair)', '\ud83d'],
  ] as const) {
    it(`matches a Map sorted in code point order through growth and shrinking (${kind})`, () => {
      const tails = ['', '\u0000a', '\u0000b', 'é', '日', '\ufffd', '\uffff', '\u{10000}', 'z'];
      const head = name === '\ud83d' ? '\ud83d\ude00' : name;
      const p = new PackedPartition<number>(name);
      const reference = new Map<string, number>();
      let seed = 7;
      // mulberry32: an LCG's low bits cycle, and the deletes below take every eighth draw of them.
      const random = (n: number): number => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
      };
      const pick = (n: number): number => Math.floor(random(n));
      const key = (): string => `${head}${tails[pick(tails.length)]}${String(pick(3000)).padStart(5, '0')}${'x'.repeat(pick(40))}`;
      // Up to about 2,000 keys, then down to a few: the buffers double on the way up and halve on the way down.
      for (let round = 0; round < 12_000; round++) {
        const removing = round < 6_000 ? pick(4) === 0 : pick(8) !== 0;
        // Most deletes hit a key that is there; some miss.
        const present = [...reference.keys()];
        const k = removing && present.length > 0 && pick(10) !== 0 ? present[pick(present.length)] : key();
        if (removing) {
          expect(p.delete(k)).toBe(reference.delete(k));
        } else {
          expect(p.set(k, round)).toBe(reference.get(k));
          reference.set(k, round);
        }
        if (round % 1_500 === 0 || round === 11_999) {
          const sorted = [...reference.entries()].sort((a, b) => compareKeys(a[0], b[0]));
          expect(walked(p)).toEqual(sorted);
          expect(walked(p, true)).toEqual([...sorted].reverse());
          expect(p.size).toBe(reference.size);
          for (const [k, v] of reference) expect(p.get(k)).toBe(v);
        }
      }
      expect(reference.size).toBeLessThan(50);
      expect(p.get(`${head}never`)).toBeUndefined();
      expect(p.delete(`${head}never`)).toBe(false);
    });
  }

  it('starts a walk where firstAfter first holds, forwards and backwards', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }).map((s) => (s as unknown as { toWellFormed(): string }).toWellFormed()), { maxLength: 30 }), fc.string({ maxLength: 4 }), (tails, bound) => {
        const p = new PackedPartition<string>('n');
        for (const t of tails) p.set(`n${t}`, t);
        const sorted = tails.map((t) => `n${t}`).sort(compareKeys);
        const b = sortKey(`n${bound}`);
        const from = sorted.findIndex((k) => sortKey(k) >= b);
        const at = from < 0 ? sorted.length : from;
        expect(walked(p, false, (k) => k >= b).map(([k]) => k)).toEqual(sorted.slice(at));
        expect(walked(p, true, (k) => k >= b).map(([k]) => k)).toEqual(sorted.slice(0, at).reverse());
      }),
    );
  });
});
