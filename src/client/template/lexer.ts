/**
 * The lexer of the template language (Go's text/template, as consul-template and so Nomad's `template`
 * blocks use it): text, and actions between the delimiters with their trim markers (`{{- ` and ` -}}`)
 * and comments (`{{/* … *\/}}`). Every token keeps its offset, so that errors can name line and column.
 */
import { TemplateError } from './errors.js';

export type TokenKind =
  | 'text'
  /** the left delimiter of an action */
  | 'left'
  | 'right'
  | 'space'
  | 'identifier'
  /** `.Name`; the value is the name without the dot */
  | 'field'
  /** `$` or `$name`; the value includes the `$` */
  | 'variable'
  | 'dot'
  | 'string'
  | 'number'
  | 'bool'
  | 'nil'
  | 'keyword'
  | 'pipe'
  | 'lparen'
  | 'rparen'
  | 'declare'
  | 'assign'
  | 'comma'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** the source text, except: decoded text for text and strings, the name for fields */
  value: string;
  /** the decoded value of numbers */
  num?: number;
  offset: number;
}

export const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'break', 'continue', 'define', 'template', 'block']);

/** Turns offsets into 1-based line and column, as errors show them. */
export class SourceMap {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly name: string,
    text: string,
  ) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
  }

  position(offset: number): { line: number; col: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - this.lineStarts[lo] + 1 };
  }

  error(offset: number, message: string): TemplateError {
    const { line, col } = this.position(offset);
    return new TemplateError(this.name, line, col, message);
  }
}

const SPACE = new Set([' ', '\t', '\r', '\n']);
const isSpace = (c: string | undefined): boolean => c !== undefined && SPACE.has(c);
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

export interface Delims {
  left: string;
  right: string;
}

export function lex(text: string, src: SourceMap, delims: Delims): Token[] {
  return new Lexer(text, src, delims).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];
  /** the next text is to lose its leading white space (the previous action ended with ` -}}`) */
  private trimNext = false;

  constructor(
    private readonly text: string,
    private readonly src: SourceMap,
    private readonly delims: Delims,
  ) {}

  run(): Token[] {
    const { left } = this.delims;
    while (this.pos < this.text.length) {
      const at = this.text.indexOf(left, this.pos);
      const end = at < 0 ? this.text.length : at;
      let chunk = this.text.slice(this.pos, end);
      let chunkStart = this.pos;
      if (this.trimNext) {
        const trimmed = chunk.replace(/^[ \t\r\n]+/, '');
        chunkStart += chunk.length - trimmed.length;
        chunk = trimmed;
        this.trimNext = false;
      }
      this.pos = end;
      if (at < 0) {
        this.pushText(chunk, chunkStart);
        break;
      }
      // `{{- ` trims the white space before the action.
      const trimBefore = this.text[at + left.length] === '-' && isSpace(this.text[at + left.length + 1]);
      if (trimBefore) chunk = chunk.replace(/[ \t\r\n]+$/, '');
      this.pushText(chunk, chunkStart);
      this.pos = at + left.length + (trimBefore ? 2 : 0);
      this.action(at);
    }
    this.tokens.push({ kind: 'eof', value: '', offset: this.text.length });
    return this.tokens;
  }

  private pushText(value: string, offset: number): void {
    if (value !== '') this.tokens.push({ kind: 'text', value, offset });
  }

  /** The right delimiter (with its trim marker) at the current position: its length, or 0. */
  private rightAt(): { len: number; trim: boolean } | undefined {
    const { right } = this.delims;
    const t = this.text;
    if (isSpace(t[this.pos]) && t[this.pos + 1] === '-' && t.startsWith(right, this.pos + 2)) return { len: 2 + right.length, trim: true };
    if (t.startsWith(right, this.pos)) return { len: right.length, trim: false };
    return undefined;
  }

  private action(start: number): void {
    // A comment takes the whole action: `{{/* … */}}`, with optional trim markers around it.
    while (isSpace(this.text[this.pos]) && this.text.startsWith('/*', this.pos + 1)) this.pos++;
    if (this.text.startsWith('/*', this.pos)) {
      const close = this.text.indexOf('*/', this.pos + 2);
      if (close < 0) throw this.src.error(this.pos, 'unclosed comment');
      this.pos = close + 2;
      const r = this.rightAt();
      if (!r) throw this.src.error(this.pos, 'comment ends before closing delimiter');
      this.pos += r.len;
      this.trimNext = r.trim;
      return;
    }
    this.tokens.push({ kind: 'left', value: this.delims.left, offset: start });
    let parens = 0;
    for (;;) {
      const r = this.rightAt();
      if (r && parens === 0) {
        this.tokens.push({ kind: 'right', value: this.delims.right, offset: this.pos });
        this.pos += r.len;
        this.trimNext = r.trim;
        return;
      }
      const c = this.text[this.pos];
      const at = this.pos;
      if (c === undefined) throw this.src.error(start, 'unclosed action');
      if (r && parens > 0) throw this.src.error(at, 'unclosed left paren');
      if (isSpace(c)) {
        while (isSpace(this.text[this.pos]) && !(this.rightAt()?.trim && parens === 0)) this.pos++;
        if (this.pos === at) {
          // ` -}}` right here: handled at the top of the loop.
          continue;
        }
        this.push('space', this.text.slice(at, this.pos), at);
        continue;
      }
      switch (c) {
        case '|':
          this.pos++;
          this.push('pipe', '|', at);
          continue;
        case '(':
          this.pos++;
          parens++;
          this.push('lparen', '(', at);
          continue;
        case ')':
          this.pos++;
          if (--parens < 0) throw this.src.error(at, 'unexpected right paren');
          this.push('rparen', ')', at);
          continue;
        case ',':
          this.pos++;
          this.push('comma', ',', at);
          continue;
        case '"':
          this.push('string', this.quoted(), at);
          continue;
        case '`':
          this.push('string', this.raw(), at);
          continue;
        case "'":
          this.char(at);
          continue;
        case ':':
          if (this.text[this.pos + 1] !== '=') throw this.src.error(at, 'expected :=');
          this.pos += 2;
          this.push('declare', ':=', at);
          continue;
        case '=':
          this.pos++;
          this.push('assign', '=', at);
          continue;
        case '$': {
          this.pos++;
          while (isAlnum(this.text[this.pos])) this.pos++;
          this.push('variable', this.text.slice(at, this.pos), at);
          continue;
        }
        case '.': {
          if (isDigit(this.text[this.pos + 1])) {
            this.number(at);
            continue;
          }
          this.pos++;
          if (!isAlnum(this.text[this.pos])) {
            this.push('dot', '.', at);
            continue;
          }
          const nameStart = this.pos;
          while (isAlnum(this.text[this.pos])) this.pos++;
          this.push('field', this.text.slice(nameStart, this.pos), at);
          continue;
        }
      }
      if (isDigit(c) || ((c === '-' || c === '+') && (isDigit(this.text[this.pos + 1]) || this.text[this.pos + 1] === '.'))) {
        this.number(at);
        continue;
      }
      if (isAlnum(c)) {
        while (isAlnum(this.text[this.pos])) this.pos++;
        const word = this.text.slice(at, this.pos);
        if (word === 'true' || word === 'false') this.push('bool', word, at);
        else if (word === 'nil') this.push('nil', word, at);
        else if (KEYWORDS.has(word)) this.push('keyword', word, at);
        else this.push('identifier', word, at);
        continue;
      }
      throw this.src.error(at, `unrecognized character in action: ${JSON.stringify(c)}`);
    }
  }

  private push(kind: TokenKind, value: string, offset: number, num?: number): void {
    this.tokens.push(num === undefined ? { kind, value, offset } : { kind, value, offset, num });
  }

  private number(at: number): void {
    const m = /^[+-]?(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(\d[\d_]*)?(\.\d[\d_]*)?([eE][+-]?\d+)?)/.exec(this.text.slice(at));
    const lit = m?.[0] ?? '';
    if (lit === '' || lit === '+' || lit === '-' || isAlnum(this.text[at + lit.length]) || this.text[at + lit.length] === '.') {
      const bad = /^[^\s|()]+/.exec(this.text.slice(at))?.[0] ?? this.text[at];
      throw this.src.error(at, `bad number syntax: ${JSON.stringify(bad)}`);
    }
    this.pos = at + lit.length;
    const clean = lit.replace(/_/g, '');
    const sign = clean.startsWith('-') ? -1 : 1;
    const body = clean.replace(/^[+-]/, '');
    let num: number;
    if (/^0[xX]/.test(body)) num = parseInt(body.slice(2), 16);
    else if (/^0[oO]/.test(body)) num = parseInt(body.slice(2), 8);
    else if (/^0[bB]/.test(body)) num = parseInt(body.slice(2), 2);
    else if (/^0\d+$/.test(body)) num = parseInt(body, 8);
    else num = Number(body);
    if (Number.isNaN(num)) throw this.src.error(at, `bad number syntax: ${JSON.stringify(lit)}`);
    this.push('number', lit, at, sign * num);
  }

  private char(at: number): void {
    this.pos++;
    let value: string;
    if (this.text[this.pos] === '\\') value = this.escape();
    else {
      const cp = this.text.codePointAt(this.pos);
      if (cp === undefined || this.text[this.pos] === "'") throw this.src.error(at, 'empty character constant');
      value = String.fromCodePoint(cp);
      this.pos += value.length;
    }
    if (this.text[this.pos] !== "'") throw this.src.error(at, 'unterminated character constant');
    this.pos++;
    this.push('number', this.text.slice(at, this.pos), at, value.codePointAt(0));
  }

  private quoted(): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === '\n') throw this.src.error(start, 'unterminated quoted string');
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === '\\') out += this.escape();
      else {
        out += c;
        this.pos++;
      }
    }
  }

  /** A Go escape sequence at the position (which is the backslash). */
  private escape(): string {
    const at = this.pos;
    const c = this.text[this.pos + 1];
    this.pos += 2;
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'" };
    if (c !== undefined && c in simple) return simple[c];
    const hex = (n: number): string => {
      const digits = this.text.slice(this.pos, this.pos + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) throw this.src.error(at, 'invalid escape sequence in string');
      this.pos += n;
      return digits;
    };
    if (c === 'x') return Buffer.from([parseInt(hex(2), 16)]).toString('latin1');
    if (c === 'u') return String.fromCodePoint(parseInt(hex(4), 16));
    if (c === 'U') return String.fromCodePoint(parseInt(hex(8), 16));
    if (c !== undefined && c >= '0' && c <= '7') {
      const digits = this.text.slice(this.pos - 1, this.pos + 2);
      if (!/^[0-7]{3}$/.test(digits)) throw this.src.error(at, 'invalid escape sequence in string');
      this.pos += 2;
      return String.fromCharCode(parseInt(digits, 8));
    }
    throw this.src.error(at, `unknown escape sequence: \\${c ?? ''}`);
  }

  private raw(): string {
    const start = this.pos;
    const close = this.text.indexOf('`', this.pos + 1);
    if (close < 0) throw this.src.error(start, 'unterminated raw quoted string');
    this.pos = close + 1;
    return this.text.slice(start + 1, close).replace(/\r/g, '');
  }
}
