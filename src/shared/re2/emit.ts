/**
 * The parsed tree as JavaScript RegExp source for V8's linear-time engine (the `l` flag). That engine takes
 * neither `i` nor `u`, so nothing here relies on them: case folding is already in the character sets, and
 * a code point above U+FFFF is written as its surrogate pair, so `.` and classes consume whole code points
 * as RE2 does. The engine also refuses a quantifier that would replicate its body more than 16 times,
 * nesting included; such counted repetitions are written out as RE2 itself simplifies them.
 */
import { type CharSet, MAX_RUNE, clip, size, union } from './charset.js';
import { type Assertion, type Node, Re2SyntaxError } from './parse.js';

export interface Emitted {
  source: string;
  /** Whether the source needs the `m` flag: the pattern's `^`/`$` are (?m) line anchors. */
  multiline: boolean;
  /**
   * An upper bound on the engine's work per input character, in character ranges tried. The engine
   * tries every range of a class in turn, so a class such as `\pL` (hundreds of ranges) costs hundreds
   * of steps per character wherever it may match, and repetition multiplies that.
   */
  cost: number;
}

/** V8's kMaxReplicationFactor. */
const MAX_REPLICATION = 16;
/** Beyond this much source the pattern is refused, as RE2 refuses a program that grows too large. */
const MAX_SOURCE = 1_000_000;

const ASSERTIONS: Record<Assertion, string> = {
  'line-start': '^',
  'line-end': '$',
  'text-start': '^',
  'text-end': '$',
  'word-boundary': '\\b',
  'not-word-boundary': '\\B',
};

export function emitJs(tree: Node, pattern: string): Emitted {
  const anchors = new Set<Assertion>();
  collectAssertions(tree, anchors);
  const line = anchors.has('line-start') || anchors.has('line-end');
  // One RegExp has one `m` flag, and the linear engine has no look-behind to tell a line start from the
  // text start without it.
  if (line && (anchors.has('text-start') || anchors.has('text-end'))) {
    throw new Re2SyntaxError('(?m) line anchors cannot be combined with \\A, \\z, or ^ and $ outside (?m), in one pattern', pattern);
  }
  const source = new Emitter(pattern).emit(tree, 1, true).src;
  if (source.length > MAX_SOURCE) throw new Re2SyntaxError('expression too large', pattern);
  return { source, multiline: line, cost: cost(tree) };
}

function collectAssertions(node: Node, into: Set<Assertion>): void {
  if (node.kind === 'assert') into.add(node.what);
  else if (node.kind === 'group' || node.kind === 'repeat') collectAssertions(node.sub, into);
  else if (node.kind === 'concat' || node.kind === 'alt') for (const s of node.subs) collectAssertions(s, into);
}

function cost(node: Node): number {
  switch (node.kind) {
    case 'chars':
      return Math.max(1, node.set.length / 2);
    case 'group':
      return cost(node.sub);
    case 'repeat':
      // Counted repetition is replicated, in the source or by the engine, as many times as its bound.
      return cost(node.sub) * Math.max(1, node.max === -1 ? node.min + 1 : node.max);
    case 'concat':
    case 'alt':
      return node.subs.reduce((sum, s) => sum + cost(s), 0);
    default:
      return 1;
  }
}

interface Piece {
  src: string;
  /** A quantifier may follow directly (otherwise the piece is wrapped in `(?:…)` first). */
  atom: boolean;
}

const wrap = (p: Piece): string => (p.atom ? p.src : `(?:${p.src})`);

class Emitter {
  constructor(private readonly pattern: string) {}

  /**
   * `factor` is how many times enclosing quantifiers already replicate this node; `captures` is false in
   * the copies of a written-out repetition, so that group numbers stay as the pattern has them.
   */
  emit(node: Node, factor: number, captures: boolean): Piece {
    switch (node.kind) {
      case 'empty':
        return { src: '', atom: false };
      case 'chars':
        return charClass(node.set);
      case 'assert':
        return { src: ASSERTIONS[node.what], atom: false };
      case 'group': {
        const inner = this.emit(node.sub, factor, captures);
        if (node.capture > 0 && captures) return { src: `(${inner.src})`, atom: true };
        return node.sub.kind === 'alt' ? { src: `(?:${inner.src})`, atom: true } : inner;
      }
      case 'concat':
        return { src: node.subs.map((s) => this.emit(s, factor, captures).src).join(''), atom: false };
      case 'alt':
        return { src: node.subs.map((s) => this.emit(s, factor, captures).src).join('|'), atom: false };
      case 'repeat':
        return this.repeat(node, factor, captures);
    }
  }

  private repeat(node: Extract<Node, { kind: 'repeat' }>, factor: number, captures: boolean): Piece {
    const { min, max } = node;
    const lazy = node.greedy ? '' : '?';
    // V8 counts an unbounded quantifier as min + 1 copies and a bounded one as max.
    const local = max === -1 ? min + 1 : max;
    if (min <= MAX_REPLICATION && max <= MAX_REPLICATION && factor * local <= MAX_REPLICATION) {
      const body = wrap(this.emit(node.sub, factor * local, captures));
      return { src: body + quantifier(min, max) + lazy, atom: false };
    }
    // x{n,m} is n copies of x, then m-n nested optional ones: x{2,4} is xx(?:x(?:x)?)?. Only the first copy
    // captures (so a group reports its first iteration here, not its last as in RE2).
    const first = wrap(this.emit(node.sub, factor, captures));
    const rest = captures ? wrap(this.emit(node.sub, factor, false)) : first;
    const copies = max === -1 ? min + 1 : max;
    if (rest.length * copies > MAX_SOURCE) throw new Re2SyntaxError('expression too large', this.pattern);
    const copy = (i: number) => (i === 0 ? first : rest);
    let src = '';
    for (let i = 0; i < min; i++) src += copy(i);
    if (max === -1) return { src: `${src}${copy(min)}*${lazy}`, atom: false };
    let optional = '';
    for (let i = max - 1; i >= min; i--) optional = `(?:${copy(i)}${optional})?${lazy}`;
    return { src: src + optional, atom: false };
  }
}

function quantifier(min: number, max: number): string {
  if (max === -1) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

const HIGH = (cp: number) => 0xd800 + ((cp - 0x10000) >> 10);
const LOW = (cp: number) => 0xdc00 + ((cp - 0x10000) & 0x3ff);

/** One code point out of `set`: a BMP class and, for code points above U+FFFF, surrogate pair alternatives. */
function charClass(set: CharSet): Piece {
  // Surrogates never occur alone in the (well-formed) text, so they are left out of the BMP part.
  const bmp = union(clip(set, 0, 0xd7ff), clip(set, 0xe000, 0xffff));
  const alternatives = [...(bmp.length > 0 ? [bmpClass(bmp)] : []), ...astralAlternatives(clip(set, 0x10000, MAX_RUNE))];
  if (alternatives.length === 0) return { src: '[]', atom: true };
  if (alternatives.length === 1) return { src: alternatives[0], atom: bmp.length > 0 };
  return { src: `(?:${alternatives.join('|')})`, atom: true };
}

/**
 * Always a positive class: Node 20's linear engine misreads a negated class that holds U+FFFF (`[^a\uFFFF]`
 * matches `a` there), and the sets are complete already.
 */
function bmpClass(set: CharSet): string {
  return size(set) === 1 ? literal(set[0]) : `[${ranges(set)}]`;
}

/** Code points above U+FFFF grouped by high surrogate: `\uD83D[\uDE00-\uDE4F]`, `[\uD800-\uDBFF][\uDC00-\uDFFF]`. */
function astralAlternatives(set: CharSet): string[] {
  const out: { highs: [number, number]; lows: number[] }[] = [];
  const add = (hLo: number, hHi: number, lLo: number, lHi: number) => {
    const last = out.at(-1);
    if (last && hLo === hHi && last.highs[0] === hLo && last.highs[1] === hLo) last.lows.push(lLo, lHi);
    else out.push({ highs: [hLo, hHi], lows: [lLo, lHi] });
  };
  for (let i = 0; i < set.length; i += 2) {
    const [lo, hi] = [set[i], set[i + 1]];
    if (HIGH(lo) === HIGH(hi)) {
      add(HIGH(lo), HIGH(lo), LOW(lo), LOW(hi));
      continue;
    }
    // A partial block at each end, and the whole blocks between them.
    const head = LOW(lo) !== 0xdc00;
    const tail = LOW(hi) !== 0xdfff;
    if (head) add(HIGH(lo), HIGH(lo), LOW(lo), 0xdfff);
    const [from, to] = [HIGH(lo) + (head ? 1 : 0), HIGH(hi) - (tail ? 1 : 0)];
    if (from <= to) add(from, to, 0xdc00, 0xdfff);
    if (tail) add(HIGH(hi), HIGH(hi), 0xdc00, LOW(hi));
  }
  return out.map(({ highs, lows }) => {
    const high = highs[0] === highs[1] ? unit(highs[0]) : `[${unit(highs[0])}-${unit(highs[1])}]`;
    const low = lows.length === 2 && lows[0] === lows[1] ? unit(lows[0]) : `[${ranges(lows)}]`;
    return high + low;
  });
}

function ranges(set: CharSet): string {
  let out = '';
  for (let i = 0; i < set.length; i += 2) {
    out += classChar(set[i]);
    if (set[i + 1] > set[i]) out += `${set[i + 1] > set[i] + 1 ? '-' : ''}${classChar(set[i + 1])}`;
  }
  return out;
}

const unit = (u: number) => `\\u${u.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Whether a code unit can stand for itself in the source. Most characters can, which keeps large Unicode
 * classes compact; controls, line terminators and surrogate halves are written as `\uXXXX`.
 */
function plain(cp: number): boolean {
  return (cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp !== 0x2028 && cp !== 0x2029 && (cp < 0xd800 || cp > 0xdfff));
}

/** A code unit outside a class: syntax characters escaped. */
function literal(cp: number): string {
  const ch = String.fromCharCode(cp);
  if ('^$\\.*+?()[]{}|/'.includes(ch)) return `\\${ch}`;
  return plain(cp) ? ch : unit(cp);
}

/** A code unit inside a class: the class's own syntax characters escaped. */
function classChar(cp: number): string {
  const ch = String.fromCharCode(cp);
  if ('\\]^-['.includes(ch)) return `\\${ch}`;
  return plain(cp) ? ch : unit(cp);
}
