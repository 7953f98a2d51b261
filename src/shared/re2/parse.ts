/**
 * RE2 syntax (Go's regexp/syntax with the Perl flags that regexp.Compile uses) into a small tree. The rules
 * and the error texts follow Go's parser, so a pattern Nomad accepts is accepted here and one it refuses is
 * refused with the message Go gives: "error parsing regexp: <what>: `<where>`".
 */
import { UserError } from '../errors.js';
import { type CharSet, MAX_RUNE, PERL_CLASSES, POSIX_CLASSES, charSet, negate, single, union } from './charset.js';
import { foldClosure, unicodeClass } from './unicode.js';

export type Node =
  | { kind: 'empty' }
  /** One code point out of a set: a literal, `.`, or a class. */
  | { kind: 'chars'; set: CharSet }
  | { kind: 'assert'; what: Assertion }
  /** `capture` is the group's number, 0 for a group that does not capture. */
  | { kind: 'group'; capture: number; sub: Node }
  | { kind: 'concat'; subs: Node[] }
  | { kind: 'alt'; subs: Node[] }
  /** `max` is -1 for no upper bound. */
  | { kind: 'repeat'; min: number; max: number; greedy: boolean; sub: Node };

/** `^`/`$` under (?m) are line anchors; without it, and `\A`/`\z`, anchor at the ends of the text. */
export type Assertion = 'line-start' | 'line-end' | 'text-start' | 'text-end' | 'word-boundary' | 'not-word-boundary';

export interface Parsed {
  tree: Node;
  /** Capture group names by number; index 0 (the whole match) and unnamed groups are ''. */
  names: string[];
}

/** Go's message, with a hint where Go's alone leaves the user guessing (`\1` is a backreference). */
export class Re2SyntaxError extends UserError {
  constructor(
    readonly reason: string,
    readonly expr: string,
    hint?: string,
  ) {
    super(`error parsing regexp: ${reason}: \`${expr}\`${hint ? ` (${hint})` : ''}`);
  }
}

interface Flags {
  /** (?i) */
  foldCase: boolean;
  /** (?m) */
  multiLine: boolean;
  /** (?s) */
  dotNL: boolean;
  /** (?U) */
  ungreedy: boolean;
}

/** Go's limits: repeat counts, the product of nested counts, and nesting depth. */
const MAX_REPEAT = 1000;
const MAX_DEPTH = 1000;

const NEWLINE = 10;

export function parseRe2(pattern: string): Parsed {
  return new Parser(pattern).parse();
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly names: string[] = [''];
  private flags: Flags = { foldCase: false, multiLine: false, dotNL: false, ungreedy: false };

  constructor(private readonly src: string) {}

  parse(): Parsed {
    const tree = this.alternation();
    if (this.pos < this.src.length) throw new Re2SyntaxError('unexpected )', this.src);
    return { tree, names: this.names };
  }

  private at(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  private peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }

  /** The code point at the current position, consumed. */
  private next(): number {
    const cp = this.src.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private alternation(): Node {
    const subs = [this.concat()];
    while (this.peek() === '|') {
      this.pos++;
      subs.push(this.concat());
    }
    return subs.length === 1 ? subs[0] : { kind: 'alt', subs };
  }

  private concat(): Node {
    const subs: Node[] = [];
    // The text from the repetition operator just read: RE2 refuses a second one (`a**`, and so `a*+`).
    let lastRepeat = '';
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const start = this.pos;
      const repeat = this.repeatOp();
      if (!repeat) {
        lastRepeat = '';
        subs.push(...this.atom());
        continue;
      }
      const lazy = this.peek() === '?';
      if (lazy) this.pos++;
      const text = this.src.slice(start, this.pos);
      if (lastRepeat) throw new Re2SyntaxError('invalid nested repetition operator', lastRepeat + text);
      // A repetition applies to the last item only: `ab*` repeats the b, as does `\Qab\E*`.
      const sub = subs.pop();
      if (!sub) throw new Re2SyntaxError('missing argument to repetition operator', text);
      const node: Node = { kind: 'repeat', ...repeat, greedy: lazy === this.flags.ungreedy, sub };
      if ((repeat.min >= 2 || repeat.max >= 2) && !repeatIsValid(node, MAX_REPEAT)) throw new Re2SyntaxError('invalid repeat count', text);
      subs.push(node);
      lastRepeat = text;
    }
    if (subs.length === 0) return { kind: 'empty' };
    return subs.length === 1 ? subs[0] : { kind: 'concat', subs };
  }

  /**
   * `*`, `+`, `?` or a well-formed `{n}`, `{n,}`, `{n,m}` at the current position, consumed (the lazy `?`
   * after it is not); undefined for anything else, including a `{` that is not a count, which is a literal.
   */
  private repeatOp(): { min: number; max: number } | undefined {
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      return c === '*' ? { min: 0, max: -1 } : c === '+' ? { min: 1, max: -1 } : { min: 0, max: 1 };
    }
    if (c !== '{') return undefined;
    COUNT.lastIndex = this.pos;
    const m = COUNT.exec(this.src);
    if (!m) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
    this.pos += m[0].length;
    if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) throw new Re2SyntaxError('invalid repeat count', m[0]);
    return { min, max };
  }

  /** The items one token adds to a concatenation: none for `(?i)` or an empty `\Q\E`, several for `\Qab\E`. */
  private atom(): Node[] {
    switch (this.peek()) {
      case '(': {
        const group = this.group();
        return group ? [group] : [];
      }
      case '[':
        return [this.bracket()];
      case '.':
        this.pos++;
        return [{ kind: 'chars', set: this.flags.dotNL ? charSet([0, MAX_RUNE]) : negate(single(NEWLINE)) }];
      case '^':
        this.pos++;
        return [{ kind: 'assert', what: this.flags.multiLine ? 'line-start' : 'text-start' }];
      case '$':
        this.pos++;
        return [{ kind: 'assert', what: this.flags.multiLine ? 'line-end' : 'text-end' }];
      case '\\':
        return this.escapeAtom();
      default:
        return [this.literal(this.next())];
    }
  }

  private literal(cp: number): Node {
    return { kind: 'chars', set: this.fold(single(cp)) };
  }

  private fold(set: CharSet): CharSet {
    return this.flags.foldCase ? foldClosure(set) : set;
  }

  /** `(…)`, `(?:…)`, `(?P<name>…)`, `(?<name>…)`, `(?flags:…)`, or `(?flags)` (undefined: no group). */
  private group(): Node | undefined {
    const outer = this.flags;
    const start = this.pos;
    const left = this.src.length - start;
    let capture = 0;
    if (this.at('(?<=') || this.at('(?<!')) {
      throw new Re2SyntaxError('invalid or unsupported Perl syntax', this.src.slice(start, start + 4), 'RE2 has no look-behind');
    }
    const prefix = left > 4 && this.at('(?P<') ? 4 : left > 3 && this.at('(?<') ? 3 : 0;
    if (prefix > 0) {
      const end = this.src.indexOf('>', start);
      if (end < 0) throw new Re2SyntaxError('invalid named capture', this.src.slice(start));
      const name = this.src.slice(start + prefix, end);
      if (!/^\w+$/.test(name)) throw new Re2SyntaxError('invalid named capture', this.src.slice(start, end + 1));
      capture = this.names.push(name) - 1;
      this.pos = end + 1;
    } else if (this.at('(?')) {
      if (!this.flagGroup()) return undefined;
    } else {
      capture = this.names.push('') - 1;
      this.pos++;
    }
    if (++this.depth > MAX_DEPTH) throw new Re2SyntaxError('expression nests too deeply', this.src);
    const sub = this.alternation();
    if (this.peek() !== ')') throw new Re2SyntaxError('missing closing )', this.src);
    this.pos++;
    this.depth--;
    // Flags set inside the group, by `(?flags:` or a `(?flags)` within it, end with it.
    this.flags = outer;
    return { kind: 'group', capture, sub };
  }

  /**
   * Reads `(?flags)` or `(?flags:` and sets the flags: i, m, s and U, with `-` before those to clear.
   * True when a group opens. Anything else after `(?` (look-ahead, atomic groups, comments, named
   * backreferences) is not RE2 syntax.
   */
  private flagGroup(): boolean {
    const start = this.pos;
    this.pos += 2;
    const flags = { ...this.flags };
    let negated = false;
    let sawFlag = false;
    while (this.pos < this.src.length) {
      const c = String.fromCodePoint(this.next());
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        flags[FLAG_NAMES[c]] = !negated;
        sawFlag = true;
      } else if (c === '-' && !negated) {
        negated = true;
        sawFlag = false;
      } else if ((c === ':' || c === ')') && (sawFlag || !negated)) {
        this.flags = flags;
        return c === ':';
      } else {
        break;
      }
    }
    const text = this.src.slice(start, this.pos);
    const hint = text === '(?=' || text === '(?!' ? 'RE2 has no look-ahead' : text === '(?>' ? 'RE2 has no atomic groups' : undefined;
    throw new Re2SyntaxError('invalid or unsupported Perl syntax', text, hint);
  }

  private escapeAtom(): Node[] {
    switch (this.peek(1)) {
      case 'A':
        this.pos += 2;
        return [{ kind: 'assert', what: 'text-start' }];
      case 'z':
        this.pos += 2;
        return [{ kind: 'assert', what: 'text-end' }];
      case 'b':
        this.pos += 2;
        return [{ kind: 'assert', what: 'word-boundary' }];
      case 'B':
        this.pos += 2;
        return [{ kind: 'assert', what: 'not-word-boundary' }];
      case 'C':
        throw new Re2SyntaxError('invalid escape sequence', '\\C');
      case 'Q': {
        const end = this.src.indexOf('\\E', this.pos + 2);
        const text = this.src.slice(this.pos + 2, end < 0 ? undefined : end);
        this.pos = end < 0 ? this.src.length : end + 2;
        return [...text].map((ch) => this.literal(ch.codePointAt(0) as number));
      }
    }
    const cls = this.classEscape();
    return [cls ? { kind: 'chars', set: cls } : this.literal(this.escape())];
  }

  /** `\pN`, `\p{Name}`, `\PN`, `\P{Name}` (a `^` before the name negates too) and `\d \s \w \D \S \W`. */
  private classEscape(): CharSet | undefined {
    const n = this.peek(1);
    if (n === 'p' || n === 'P') {
      const start = this.pos;
      this.pos += 2;
      let name: string;
      if (this.peek() === '{') {
        const end = this.src.indexOf('}', this.pos);
        if (end < 0) throw new Re2SyntaxError('invalid character class range', this.src.slice(start));
        name = this.src.slice(this.pos + 1, end);
        this.pos = end + 1;
      } else {
        name = this.pos < this.src.length ? String.fromCodePoint(this.next()) : '';
      }
      let negated = n === 'P';
      if (name.startsWith('^')) {
        negated = !negated;
        name = name.slice(1);
      }
      const set = unicodeClass(name);
      if (!set) throw new Re2SyntaxError('invalid character class range', this.src.slice(start, this.pos));
      return this.foldThenNegate(set, negated);
    }
    if (n.length === 1 && 'dDsSwW'.includes(n)) {
      this.pos += 2;
      const lower = n.toLowerCase();
      return this.foldThenNegate(PERL_CLASSES[lower], n !== lower);
    }
    return undefined;
  }

  /** Under (?i) a negated class is the complement of the folded one, as in RE2: `(?i)[^k]` excludes K. */
  private foldThenNegate(set: CharSet, negated: boolean): CharSet {
    const folded = this.fold(set);
    return negated ? negate(folded) : folded;
  }

  /** A single-character escape (Go's parseEscape): the code point it stands for. */
  private escape(): number {
    const start = this.pos;
    this.pos++;
    if (this.pos >= this.src.length) throw new Re2SyntaxError('trailing backslash at end of expression', '');
    const c = this.next();
    const ch = String.fromCodePoint(c);
    const invalid = (hint?: string) => new Re2SyntaxError('invalid escape sequence', this.src.slice(start, this.pos), hint);
    // Any ASCII punctuation may be escaped to stand for itself.
    if (c < 0x80 && !/[0-9A-Za-z]/.test(ch)) return c;
    if (/[1-7]/.test(ch) && !/[0-7]/.test(this.peek())) throw invalid('RE2 has no backreferences');
    if (/[0-7]/.test(ch)) {
      // Octal: \0, \12, \123 (up to three digits).
      let v = c - 0x30;
      for (let i = 1; i < 3 && /[0-7]/.test(this.peek()); i++) v = v * 8 + (this.next() - 0x30);
      return v;
    }
    if (ch === 'x') return this.hexEscape(invalid);
    const control = CONTROL_ESCAPES[ch];
    if (control === undefined) throw invalid();
    return control;
  }

  /**
   * After `\x`: two hex digits, or any number in braces up to U+10FFFF. Read digit by digit as Go does, so
   * that the error shows the text up to the character that made it invalid.
   */
  private hexEscape(invalid: () => Re2SyntaxError): number {
    const hex = (ch: string) => (/^[0-9A-Fa-f]$/.test(ch) ? parseInt(ch, 16) : -1);
    const digit = () => (this.pos < this.src.length ? hex(String.fromCodePoint(this.next())) : -1);
    if (this.peek() !== '{') {
      const [high, low] = [digit(), digit()];
      if (high < 0 || low < 0) throw invalid();
      return high * 16 + low;
    }
    this.pos++;
    let value = 0;
    let digits = 0;
    while (this.pos < this.src.length) {
      if (this.peek() === '}') {
        this.pos++;
        if (digits === 0) break;
        return value;
      }
      const v = digit();
      if (v < 0) break;
      value = value * 16 + v;
      if (value > MAX_RUNE) break;
      digits++;
    }
    throw invalid();
  }

  /** A bracket expression `[…]` / `[^…]`: ranges, escapes, `\d`-style and `\p` classes, `[:name:]`. */
  private bracket(): Node {
    const start = this.pos;
    this.pos++;
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const parts: CharSet[] = [];
    // A `]` right after the opening `[` or `[^` is a literal.
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.pos >= this.src.length) throw new Re2SyntaxError('missing closing ]', this.src.slice(start));
      first = false;
      const posix = this.posixClass();
      const cls = posix ?? (this.peek() === '\\' ? this.classEscape() : undefined);
      if (cls) {
        parts.push(cls);
        continue;
      }
      const rangeStart = this.pos;
      const lo = this.classChar(start);
      let hi = lo;
      if (this.peek() === '-' && this.pos + 1 < this.src.length && this.peek(1) !== ']') {
        this.pos++;
        hi = this.classChar(start);
        if (hi < lo) throw new Re2SyntaxError('invalid character class range', this.src.slice(rangeStart, this.pos));
      }
      parts.push(this.fold(charSet([lo, hi])));
    }
    this.pos++;
    // The whole class is negated after folding: `(?i)[^a]` matches neither a nor A.
    return { kind: 'chars', set: negated ? negate(union(...parts)) : union(...parts) };
  }

  /** `[:alpha:]` or `[:^alpha:]` inside a bracket expression; undefined when the text is not of that form. */
  private posixClass(): CharSet | undefined {
    if (this.peek() !== '[' || this.peek(1) !== ':') return undefined;
    const end = this.src.indexOf(':]', this.pos + 2);
    if (end < 0) return undefined;
    const text = this.src.slice(this.pos, end + 2);
    const negated = text[2] === '^';
    const name = text.slice(negated ? 3 : 2, -2);
    if (!Object.hasOwn(POSIX_CLASSES, name)) throw new Re2SyntaxError('invalid character class range', text);
    this.pos = end + 2;
    return this.foldThenNegate(POSIX_CLASSES[name], negated);
  }

  /** One character of a bracket expression that starts at `start`. */
  private classChar(start: number): number {
    if (this.pos >= this.src.length) throw new Re2SyntaxError('missing closing ]', this.src.slice(start));
    return this.peek() === '\\' ? this.escape() : this.next();
  }
}

/** `{n}`, `{n,}` or `{n,m}`, without leading zeros as in Go; anything else after `{` leaves it a literal. */
const COUNT = /\{(0|[1-9]\d*)(,(0|[1-9]\d*)?)?\}/y;

const FLAG_NAMES = { i: 'foldCase', m: 'multiLine', s: 'dotNL', U: 'ungreedy' } as const;

const CONTROL_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

/**
 * Go's repeatIsValid: counted repetitions nested inside each other may not ask for more than `n` copies of
 * the innermost expression in all.
 */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.kind === 'repeat') {
    if (node.max === 0) return true;
    // `*`, `+` and `?` count as 0 or 1 and so never reach the limit, as in Go where they are not counted.
    const m = node.max === -1 ? node.min : node.max;
    if (m > n) return false;
    if (m > 0) n = Math.floor(n / m);
  }
  if (node.kind === 'repeat' || node.kind === 'group') return repeatIsValid(node.sub, n);
  if (node.kind === 'concat' || node.kind === 'alt') return node.subs.every((s) => repeatIsValid(s, n));
  return true;
}
