/**
 * Unicode data for `\p{…}` classes and `(?i)`, taken from the runtime's own tables (V8's ICU) on first use
 * rather than shipped: each property is scanned once over a string holding every code point, and case
 * folding orbits come from the RegExp `iu` flags, which fold by Unicode simple case folding (CaseFolding.txt
 * C and S entries), the relation RE2's `(?i)` uses. Results are kept for the life of the process.
 */
import { type CharSet, MAX_RUNE, charSet, contains, size, union } from './charset.js';

/** Go's unicode.Categories. There is no Cn: unassigned code points belong to no category there. */
const CATEGORIES = new Set([
  'C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl',
  'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs',
]);

const properties = new Map<string, CharSet>();

/**
 * The code points of `\p{name}` (a general category, a script or `Any`), or undefined when RE2 has no such
 * class.
 */
export function unicodeClass(name: string): CharSet | undefined {
  const known = properties.get(name);
  if (known) return known;
  let source: string;
  if (name === 'Any') source = '';
  // Go's C is the union of its parts; JavaScript's also holds every unassigned code point.
  else if (name === 'C') source = '[\\p{Cc}\\p{Cf}\\p{Co}]';
  else if (CATEGORIES.has(name)) source = `\\p{${name}}`;
  else if (/^[A-Za-z_]+$/.test(name) && isScript(name)) source = `\\p{Script=${name}}`;
  else return undefined;
  // Surrogates (Cs) never occur in the well-formed text that patterns are matched against.
  const set = name === 'Any' ? charSet([0, MAX_RUNE]) : scan(new RegExp(`${source}+`, 'gu'));
  properties.set(name, set);
  return set;
}

function isScript(name: string): boolean {
  try {
    new RegExp(`\\p{Script=${name}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * Every code point (surrogates excepted) in one string, built only while a new property is scanned.
 * Code points map to UTF-16 offsets simply: BMP ones are one unit, the rest two.
 */
function everyCodePoint(): string {
  const units = new Uint16Array(0xd800 + 0x2000 + 2 * (MAX_RUNE - 0xffff));
  let at = 0;
  for (let cp = 0; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) units[at++] = cp;
  for (let cp = 0x10000; cp <= MAX_RUNE; cp++) {
    const v = cp - 0x10000;
    units[at++] = 0xd800 + (v >> 10);
    units[at++] = 0xdc00 + (v & 0x3ff);
  }
  return new TextDecoder('utf-16le').decode(units);
}

function codePointAt(offset: number): number {
  if (offset < 0xd800) return offset;
  if (offset < 0xf800) return offset + 0x800;
  return 0x10000 + ((offset - 0xf800) >> 1);
}

/** The code points matched by a global Unicode pattern of the form `class+`, as a set. */
function scan(re: RegExp): CharSet {
  const ranges: number[] = [];
  for (const m of everyCodePoint().matchAll(re)) {
    const first = codePointAt(m.index);
    const last = codePointAt(m.index + m[0].length - 1);
    // A run may go straight from U+D7FF to U+E000, which are neighbours in the string only.
    if (first < 0xd800 && last > 0xdfff) ranges.push(first, 0xd7ff, 0xe000, last);
    else ranges.push(first, last);
  }
  return charSet(ranges);
}

interface Orbits {
  /** Every code point whose simple case folding orbit has more than one member. */
  members: CharSet;
  orbit: Map<number, number[]>;
}

let orbits: Orbits | undefined;

/** The simple case folding orbits, e.g. k, K and U+212A KELVIN SIGN. */
function caseOrbits(): Orbits {
  if (orbits) return orbits;
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  const join = (a: number, b: number) => parent.set(find(a), find(b));
  const cased = scan(/\p{Changes_When_Casemapped}+/gu);
  for (let i = 0; i < cased.length; i += 2) {
    for (let cp = cased[i]; cp <= cased[i + 1]; cp++) {
      const c = String.fromCodePoint(cp);
      const sameFold = new RegExp(`^\\u{${cp.toString(16)}}$`, 'iu');
      for (const mapped of [c.toLowerCase(), c.toUpperCase()]) {
        const m = mapped.codePointAt(0) as number;
        if (mapped !== c && String.fromCodePoint(m) === mapped && sameFold.test(mapped)) join(cp, m);
      }
    }
  }
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const root = find(cp);
    const members = groups.get(root);
    if (members) members.push(cp);
    else groups.set(root, [cp]);
  }
  const orbit = new Map<number, number[]>();
  const ranges: number[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    members.sort((a, b) => a - b);
    for (const cp of members) {
      orbit.set(cp, members);
      ranges.push(cp, cp);
    }
  }
  orbits = { members: charSet(ranges), orbit };
  return orbits;
}

/** `set` with every case variant of its members added, as RE2 reads a class under `(?i)`. */
export function foldClosure(set: CharSet): CharSet {
  const { members, orbit } = caseOrbits();
  const extra: number[] = [];
  // Walk whichever is smaller: the set (a literal, `[a-z]`) or the few thousand code points that fold.
  const [walk, other] = size(set) < size(members) ? [set, members] : [members, set];
  for (let i = 0; i < walk.length; i += 2) {
    for (let cp = walk[i]; cp <= walk[i + 1]; cp++) {
      if (!contains(other, cp)) continue;
      for (const o of orbit.get(cp) as number[]) extra.push(o, o);
    }
  }
  return extra.length === 0 ? set : union(set, extra);
}
