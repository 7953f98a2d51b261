/**
 * The character-level half of the filter parser. go-bexpr's grammar is a PEG in which whitespace is
 * significant (`in`, `contains`, `and` need blanks around them; `==` does not), so there is no separate
 * token stream: the parser asks this scanner for one lexical item at a time and backtracks by resetting
 * `pos`. The scanner also remembers the furthest position any attempt reached and what was expected
 * there, which is what a PEG reports when nothing matches.
 */
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
