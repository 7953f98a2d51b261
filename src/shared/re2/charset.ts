/**
 * Sets of code points, the one currency of character classes: a literal, `.`, `[a-z]`, `\d`, `[[:alpha:]]`
 * and `\pL` all become a CharSet, so negation and case folding work the same way for each, as in Go's
 * regexp/syntax.
 */

/** Sorted, disjoint, non-adjacent inclusive ranges, flattened: [lo0, hi0, lo1, hi1, …]. */
export type CharSet = readonly number[];

export const MAX_RUNE = 0x10ffff;

/** Sorts and merges ranges given in any order, overlapping or not. */
export function charSet(ranges: readonly number[]): CharSet {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last] + 1) out[last] = Math.max(out[last], hi);
    else out.push(lo, hi);
  }
  return out;
}

export function single(cp: number): CharSet {
  return [cp, cp];
}

export function union(...sets: CharSet[]): CharSet {
  return charSet(sets.flat());
}

export function negate(set: CharSet): CharSet {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i] > next) out.push(next, set[i] - 1);
    next = set[i + 1] + 1;
  }
  if (next <= MAX_RUNE) out.push(next, MAX_RUNE);
  return out;
}

/** The part of `set` within [lo, hi]. */
export function clip(set: CharSet, lo: number, hi: number): CharSet {
  const out: number[] = [];
  for (let i = 0; i < set.length; i += 2) {
    const a = Math.max(set[i], lo);
    const b = Math.min(set[i + 1], hi);
    if (a <= b) out.push(a, b);
  }
  return out;
}

export function contains(set: CharSet, cp: number): boolean {
  let lo = 0;
  let hi = set.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < set[2 * mid]) hi = mid - 1;
    else if (cp > set[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

export function size(set: CharSet): number {
  let n = 0;
  for (let i = 0; i < set.length; i += 2) n += set[i + 1] - set[i] + 1;
  return n;
}

const ascii = (s: string) => s.codePointAt(0) as number;
const r = (from: string, to = from) => [ascii(from), ascii(to)];

/** `\d`, `\s`, `\w`: ASCII only in RE2, unlike JavaScript's `\s`. */
export const PERL_CLASSES: Record<string, CharSet> = {
  d: charSet(r('0', '9')),
  s: charSet([...r('\t', '\n'), ...r('\f', '\r'), ...r(' ')]),
  w: charSet([...r('0', '9'), ...r('A', 'Z'), ...r('_'), ...r('a', 'z')]),
};

/** `[[:name:]]` inside a bracket expression, ASCII only as in RE2. */
export const POSIX_CLASSES: Record<string, CharSet> = {
  alnum: charSet([...r('0', '9'), ...r('A', 'Z'), ...r('a', 'z')]),
  alpha: charSet([...r('A', 'Z'), ...r('a', 'z')]),
  ascii: charSet([0, 0x7f]),
  blank: charSet([...r('\t'), ...r(' ')]),
  cntrl: charSet([0, 0x1f, 0x7f, 0x7f]),
  digit: charSet(r('0', '9')),
  graph: charSet(r('!', '~')),
  lower: charSet(r('a', 'z')),
  print: charSet(r(' ', '~')),
  punct: charSet([...r('!', '/'), ...r(':', '@'), ...r('[', '`'), ...r('{', '~')]),
  space: charSet([...r('\t', '\r'), ...r(' ')]),
  upper: charSet(r('A', 'Z')),
  word: PERL_CLASSES.w,
  xdigit: charSet([...r('0', '9'), ...r('A', 'F'), ...r('a', 'f')]),
};
