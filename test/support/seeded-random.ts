/**
 * A small seeded generator (mulberry32) for tests whose choices must replay: the same seed gives the
 * same sequence of draws, so a run that failed can be run again as it was.
 */
export interface Random {
  /** in [0, 1) */
  next(): number;
  /** an integer in [0, n) */
  int(n: number): number;
  /** a number in [low, high) */
  between(low: number, high: number): number;
  pick<T>(items: readonly T[]): T;
  /** a new array, the items in an order of the generator's */
  shuffle<T>(items: readonly T[]): T[];
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    between: (low, high) => low + next() * (high - low),
    pick: (items) => {
      if (items.length === 0) throw new Error('nothing to pick from');
      return items[int(items.length)];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}
