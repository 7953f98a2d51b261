/**
 * The character-level half of the filter parser. go-bexpr's grammar is a PEG in which whitespace is
 * significant (`in`, `contains`, `and` need blanks around them; `==` does not), so there is no separate
 * token stream: the parser asks this scanner for one lexical item at a time and backtracks by resetting
 * `pos`. The scanner also remembers the furthest position any attempt reached and what was expected
 * there, which is what a PEG reports when nothing matches.
 */
import { setFlagsFromString } from 'node:v8';
import { Script, createContext } from 'node:vm';
import { UserError } from '../../shared/errors.js';

export class FilterSyntaxError extends UserError {
  constructor(
    readonly offset: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    // Same shape as upstream (`<line>:<col> (<offset>): <reason>`) so messages users search for still match.
    super(`failed to read filter expression: ${line}:${column} (${offset}): ${reason}`);
  }
}

const WS = new Set([' ', '\t', '\r', '\n']);

export class Scanner {
  pos = 0;
  private furthest = 0;
  private expected = new Set<string>();

  constructor(readonly src: string) {}

  /** Matches a sticky pattern at the current position without consuming. */
  private at(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    return re.exec(this.src);
  }

  get eof(): boolean {
    return this.pos >= this.src.length;
  }

  peek(): string {
    return this.src.charAt(this.pos);
  }

  /** Notes that `what` would have been accepted at the current position. */
  expect(what: string): void {
    if (this.pos > this.furthest) {
      this.furthest = this.pos;
      this.expected = new Set([what]);
    } else if (this.pos === this.furthest) {
      this.expected.add(what);
    }
  }

  /** One or more blanks; false (and nothing consumed) when there are none. */
  ws(): boolean {
    const start = this.pos;
    while (WS.has(this.peek())) this.pos++;
    if (this.pos === start) {
      this.expect('whitespace');
      return false;
    }
    return true;
  }

  /** Zero or more blanks. */
  optWs(): void {
    while (WS.has(this.peek())) this.pos++;
  }

  literal(text: string): boolean {
    if (this.src.startsWith(text, this.pos)) {
      this.pos += text.length;
      return true;
    }
    this.expect(JSON.stringify(text));
    return false;
  }

  /** `[A-Za-z][A-Za-z0-9_/]*`; `/` is allowed so that node attributes like `unique/hostname` read as one name. */
  ident(): string | undefined {
    const m = this.at(/[A-Za-z][A-Za-z0-9_/]*/y);
    if (!m) {
      this.expect('identifier');
      return undefined;
    }
    this.pos += m[0].length;
    return m[0];
  }

  digits(): string | undefined {
    const m = this.at(/[0-9]+/y);
    if (!m) {
      this.expect('digits');
      return undefined;
    }
    this.pos += m[0].length;
    return m[0];
  }

  /** One `/segment` of the JSON-pointer selector form; returns the segment with `~1`/`~0` decoded. */
  pointerSegment(): string | undefined {
    const m = this.at(/\/([\p{L}\p{N}\-_.~:|]+)/uy);
    if (!m) {
      this.expect('json pointer segment');
      return undefined;
    }
    if (/~(?![01])/.test(m[1])) throw this.error(`invalid json pointer escape in "${m[1]}"`);
    this.pos += m[0].length;
    return m[1].replace(/~1/g, '/').replace(/~0/g, '~');
  }

  /**
   * `-? (0 | [1-9][0-9]*) (. [0-9]+)?`, which must be followed by a blank, the end, `)` or `}`; `12abc` is
   * an error rather than a number followed by garbage.
   */
  number(): string | undefined {
    const m = this.at(/-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?/y);
    if (!m) {
      this.expect('number');
      return undefined;
    }
    const after = this.src.charAt(this.pos + m[0].length);
    if (after !== '' && !WS.has(after) && after !== ')' && after !== '}') {
      throw this.error('Invalid number literal', this.pos);
    }
    this.pos += m[0].length;
    return m[0];
  }

  /** A double-quoted string with Go escapes, or a backtick raw string. Returns the decoded text. */
  string(): string | undefined {
    const q = this.peek();
    if (q === '`') {
      const end = this.src.indexOf('`', this.pos + 1);
      if (end < 0) throw this.error('Unterminated string literal');
      const text = this.src.slice(this.pos + 1, end);
      this.pos = end + 1;
      return text;
    }
    if (q !== '"') {
      this.expect('string');
      return undefined;
    }
    const start = this.pos;
    let out = '';
    let i = this.pos + 1;
    for (;;) {
      if (i >= this.src.length) throw this.error('Unterminated string literal', start);
      const c = this.src.charAt(i);
      if (c === '"') break;
      if (c !== '\\') {
        out += c;
        i++;
        continue;
      }
      const [decoded, len] = this.escape(i);
      out += decoded;
      i += len;
    }
    this.pos = i + 1;
    return out;
  }

  /** Decodes the Go escape starting at `at` (the backslash); returns the text and the length consumed. */
  private escape(at: number): [string, number] {
    const c = this.src.charAt(at + 1);
    const simple: Record<string, string> = {
      a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'",
    };
    if (c in simple) return [simple[c], 2];
    const hex = (n: number): [string, number] => {
      const h = this.src.slice(at + 2, at + 2 + n);
      if (h.length !== n || !/^[0-9a-fA-F]+$/.test(h)) throw this.error(`invalid escape \\${c}${h} in string`, at);
      const code = parseInt(h, 16);
      if (code > 0x10ffff) throw this.error(`invalid escape \\${c}${h} in string`, at);
      return [String.fromCodePoint(code), 2 + n];
    };
    if (c === 'x') return hex(2);
    if (c === 'u') return hex(4);
    if (c === 'U') return hex(8);
    if (/[0-7]/.test(c)) {
      const o = this.src.slice(at + 1, at + 4);
      if (!/^[0-7]{3}$/.test(o) || parseInt(o, 8) > 255) throw this.error(`invalid escape \\${o} in string`, at);
      return [String.fromCharCode(parseInt(o, 8)), 4];
    }
    throw this.error(`invalid escape \\${c} in string`, at);
  }

  /** An error at a known position (defaults to the current one). */
  error(reason: string, at = this.pos): FilterSyntaxError {
    const { line, column } = this.lineCol(at);
    return new FilterSyntaxError(at, line, column, reason);
  }

  /** The PEG-style "nothing matched" error at the furthest position any alternative reached. */
  noMatch(): FilterSyntaxError {
    const got = this.furthest >= this.src.length ? 'end of input' : JSON.stringify(this.src.charAt(this.furthest));
    const expected = [...this.expected].sort().join(', ');
    return this.error(`no match found, expected: ${expected}, found ${got}`, this.furthest);
  }

  private lineCol(at: number): { line: number; column: number } {
    const before = this.src.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    return { line, column };
  }
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Letter escapes RE2 knows (after \\a, \\x{…}, \\p, \\Q, \\A and \\z have been handled). */
const RE2_LETTER_ESCAPES = new Set([...'ftnrvxdDsSwWbB']);

/** Characters that may be escaped with a backslash under JavaScript's `u` flag. */
const JS_U_ESCAPABLE = new Set([...'^$\\.*+?()[]{}|/']);

/**
 * Compiles a Go (RE2) regular expression into a JavaScript RegExp. The two dialects agree on everyday
 * patterns; where they differ this follows RE2:
 * - leading flag groups `(?i)`, `(?s)`, `(?m)` become RegExp flags; `(?U)` and flag groups anywhere else
 *   are rejected (JavaScript on Node 20 has no inline modifiers);
 * - `(?P<name>…)` is accepted as a named group; `\A` and `\z` anchor at the start and end of the text;
 * - `\pL`/`\p{Greek}` style classes and POSIX classes such as `[[:alpha:]]` are translated;
 * - `\Q…\E` quotes literally;
 * - backreferences and look-around, which RE2 does not have, are errors rather than extra features.
 * Remaining differences, accepted: JavaScript's `\s` and `.` treat a few Unicode spaces and line separators
 * (U+2028/U+2029, `\r`) differently, and without the `u` flag `.` matches UTF-16 units, not code points.
 */
export function compileRe2(pattern: string): RegExp {
  let src = pattern;
  let flags = '';
  for (;;) {
    const m = /^\(\?([a-zA-Z]+)\)/.exec(src);
    if (!m) break;
    for (const f of m[1]) {
      if (!'ims'.includes(f)) throw new Error(`flag (?${f}) is not supported`);
      if (!flags.includes(f)) flags += f;
    }
    src = src.slice(m[0].length);
  }
  let out = '';
  let unicode = false;
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) throw new Error('trailing backslash at end of expression');
      if (n === 'Q') {
        const end = src.indexOf('\\E', i + 2);
        const lit = src.slice(i + 2, end < 0 ? undefined : end);
        out += [...lit].map((ch) => (JS_U_ESCAPABLE.has(ch) ? `\\${ch}` : ch)).join('');
        i = end < 0 ? src.length : end + 1;
        continue;
      }
      if (n === 'p' || n === 'P') {
        unicode = true;
        if (src[i + 2] === '{') {
          const end = src.indexOf('}', i + 3);
          if (end < 0) throw new Error('invalid character class range');
          const name = src.slice(i + 3, end);
          const general = /^(?:[A-Z][a-z]?|Any)$/.test(name);
          out += `\\${n}{${general ? name : `Script=${name}`}}`;
          i = end;
        } else {
          out += `\\${n}{${src[i + 2]}}`;
          i += 2;
        }
        continue;
      }
      if (n === 'A' && !inClass) {
        out += '(?<![\\s\\S])';
        i++;
        continue;
      }
      if (n === 'z' && !inClass) {
        out += '(?![\\s\\S])';
        i++;
        continue;
      }
      if (/[1-9]/.test(n)) throw new Error(`invalid escape sequence: \\${n} (RE2 has no backreferences)`);
      if (n === 'a') {
        out += '\\x07';
        i++;
        continue;
      }
      if (n === 'x' && src[i + 2] === '{') {
        const end = src.indexOf('}', i + 3);
        const hex = end < 0 ? '' : src.slice(i + 3, end);
        if (!/^[0-9A-Fa-f]{1,6}$/.test(hex)) throw new Error(`invalid escape sequence: \\x{${hex}`);
        out += `\\u{${hex}}`;
        unicode = true;
        i = end;
        continue;
      }
      // JavaScript would read an unknown letter escape such as \e or \Z as the letter itself.
      if (/[A-Za-z]/.test(n) && !RE2_LETTER_ESCAPES.has(n)) throw new Error(`invalid escape sequence: \\${n}`);
      // RE2 lets any punctuation be escaped; JavaScript's `u` mode only syntax characters (and `-` in a
      // class), so other escaped punctuation is written as the plain character it stands for.
      const keep = /[A-Za-z0-9]/.test(n) || JS_U_ESCAPABLE.has(n) || (inClass && n === '-');
      out += keep ? `\\${n}` : n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && src[i + 1] === ':') {
        const end = src.indexOf(':]', i + 2);
        const name = end < 0 ? '' : src.slice(i + 2, end);
        if (name in POSIX_CLASSES) {
          out += POSIX_CLASSES[name];
          i = end + 1;
          continue;
        }
        throw new Error(`invalid character class range: [:${name}:]`);
      }
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A `]` or `^]` right after the opening bracket is a literal in RE2.
      if (src[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (src[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && src[i + 1] === '?') {
      if (src[i + 2] === 'P' && src[i + 3] === '<') {
        out += '(?<';
        i += 3;
        continue;
      }
      if (src[i + 2] === ':' || (src[i + 2] === '<' && /[A-Za-z_]/.test(src[i + 3] ?? ''))) {
        out += '(?';
        i++;
        continue;
      }
      throw new Error(`invalid or unsupported Perl syntax: (?${src[i + 2] ?? ''}`);
    }
    out += c;
  }
  if (unicode) flags += 'u';
  // RE2 runs in linear time; JavaScript's default engine backtracks, and a filter such as
  // `Meta.x matches "^(a+)+$"` over data the caller controls could hold the server for minutes. V8's
  // linear-time engine takes most patterns; those it refuses (case-insensitive, Unicode classes,
  // \A and \z) are matched under a time limit by safeRegexTest.
  enableLinearRegexps();
  try {
    return new RegExp(out, `${flags}l`);
  } catch {
    return new RegExp(out, flags);
  }
}

let linearEnabled = false;
function enableLinearRegexps(): void {
  if (linearEnabled) return;
  setFlagsFromString('--enable-experimental-regexp-engine');
  linearEnabled = true;
}

const MATCH_SCRIPT = new Script('re.test(s)');
const matchContext = createContext({});
/** How long one match on the backtracking engine may run. */
export const REGEX_TIME_LIMIT_MS = 50;

/** `re.test(s)`, bounded in time when `re` is not on the linear-time engine. */
export function safeRegexTest(re: RegExp, s: string): boolean {
  if (re.flags.includes('l')) return re.test(s);
  matchContext.re = re;
  matchContext.s = s;
  try {
    return MATCH_SCRIPT.runInContext(matchContext, { timeout: REGEX_TIME_LIMIT_MS }) as boolean;
  } catch {
    throw new UserError(`the regular expression /${re.source}/ took too long to match; simplify it (nested repetition is the usual cause)`);
  }
}
