/**
 * The one HCL reader: job files, policies, the server's config file and `policy fmt` all parse here. We
 * parse HCL ourselves rather than through the wasm hcl2json package because that package drops source
 * positions (so errors could not cite lines), loses block order across types, is async per expression,
 * and costs a third of a second to instantiate before its first parse.
 */
import { HclError, LineIndex, type HclErrorClass } from './source.js';

/** What an expression evaluates to. */
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

export interface Span {
  start: number;
  end: number;
}

/** A stretch of text that layout must copy as written. */
export interface LexicalSpan extends Span {
  kind: 'comment' | 'string' | 'heredoc';
}

export type TemplatePart =
  | string
  | { expr: Expr; text: string }
  | { dir: 'if'; cond: Expr; then: TemplatePart[]; otherwise: TemplatePart[] }
  | { dir: 'for'; keyVar: string | undefined; valVar: string; coll: Expr; body: TemplatePart[] };

export type Expr = Span &
  (
    | { k: 'lit'; v: Value }
    | { k: 'tmpl'; parts: TemplatePart[] }
    | { k: 'ref'; name: string }
    | { k: 'attr'; obj: Expr; name: string }
    | { k: 'index'; obj: Expr; key: Expr }
    | { k: 'splat'; obj: Expr; path: Array<{ attr: string } | { index: Expr }> }
    | { k: 'call'; name: string; args: Expr[]; expand: boolean }
    | { k: 'unary'; op: '!' | '-'; e: Expr }
    | { k: 'bin'; op: string; l: Expr; r: Expr }
    | { k: 'cond'; c: Expr; t: Expr; f: Expr }
    | { k: 'tuple'; items: Expr[] }
    | { k: 'object'; items: Array<{ key: Expr; value: Expr }> }
    | {
        k: 'for';
        keyVar: string | undefined;
        valVar: string;
        coll: Expr;
        keyExpr: Expr | undefined;
        valExpr: Expr;
        cond: Expr | undefined;
        group: boolean;
      }
  );

export interface Attribute {
  kind: 'attr';
  name: string;
  expr: Expr;
  start: number;
}

export interface Block {
  kind: 'block';
  type: string;
  labels: string[];
  body: Body;
  start: number;
}

export interface Body {
  items: Array<Attribute | Block>;
}

/** A parsed file: the body plus what is needed to report positions and slice original text. */
export interface SourceFile {
  body: Body;
  text: string;
  lines: LineIndex;
}

const BINARY_LEVELS: string[][] = [['||'], ['&&'], ['==', '!='], ['<=', '>=', '<', '>'], ['+', '-'], ['*', '/', '%']];

/** Names as job files spell them; HCL2 itself, which strict mode follows, takes Unicode letters too. */
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_-]/;
const HCL2_NAME_START = /[\p{ID_Start}_]/u;
const HCL2_NAME_CHAR = /[\p{ID_Continue}-]/u;

class Parser {
  private pos = 0;
  /** Inside (), [] or {} of an expression newlines are insignificant; at attribute level they end it. */
  private nest = 0;
  readonly lines: LineIndex;
  /** Kept only for lexicalSpans, by start offset: backtracking reads some stretches twice. */
  spans: Map<number, LexicalSpan> | undefined;

  constructor(
    private readonly src: string,
    file: string,
    private readonly error: HclErrorClass,
    private readonly strict = false,
  ) {
    this.lines = new LineIndex(file, src);
    this.nameStart = strict ? HCL2_NAME_START : NAME_START;
    this.nameChar = strict ? HCL2_NAME_CHAR : NAME_CHAR;
  }

  private readonly nameStart: RegExp;
  private readonly nameChar: RegExp;

  private isIdStart(c: string): boolean {
    return this.nameStart.test(c);
  }

  private isIdChar(c: string): boolean {
    return this.nameChar.test(c);
  }

  fail(message: string, at = this.pos): never {
    throw new this.error(message, this.lines.pos(at));
  }

  private peek(n = 0): string {
    return this.src[this.pos + n] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Skips blanks and comments; newlines too when `newlines` is set or we are nested in brackets. */
  private ws(newlines = this.nest > 0): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\n' && newlines) this.pos++;
      else if (c === '#' || this.startsWith('//')) {
        const start = this.pos;
        while (this.pos < this.src.length && this.peek() !== '\n') this.pos++;
        this.spans?.set(start, { kind: 'comment', start, end: this.pos });
      } else if (this.startsWith('/*')) {
        const end = this.src.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('Unterminated comment; a /* comment must end with */');
        this.spans?.set(this.pos, { kind: 'comment', start: this.pos, end: end + 2 });
        this.pos = end + 2;
      } else return;
    }
  }

  private expect(s: string): void {
    this.ws();
    if (!this.startsWith(s)) this.fail(`Expected "${s}"${this.found()}`);
    this.pos += s.length;
  }

  private found(): string {
    if (this.pos >= this.src.length) return ', found end of file';
    const c = this.peek();
    return c === '\n' ? ', found a newline' : `, found "${c}"`;
  }

  private ident(): string {
    const start = this.pos;
    if (!this.isIdStart(this.peek())) this.fail(`Expected a name${this.found()}`);
    while (this.isIdChar(this.peek())) this.pos++;
    return this.src.slice(start, this.pos);
  }

  parseFile(): Body {
    const body = this.body(false);
    this.ws(true);
    if (this.pos < this.src.length) this.fail(`Unexpected "${this.peek()}"; expected an attribute or block`);
    return body;
  }

  private body(inBraces: boolean): Body {
    const items: Array<Attribute | Block> = [];
    const saved = this.nest;
    this.nest = 0;
    const opened = this.pos;
    this.ws(false);
    // HCL's single-line form, `name { key = value }`: an item on the line of the opening brace.
    const singleLine = inBraces && this.peek() !== '\n' && this.peek() !== '}';
    this.pos = opened;
    for (;;) {
      this.ws(true);
      if (this.pos >= this.src.length) {
        if (inBraces) this.fail('Unclosed block; expected "}" before the end of the file');
        break;
      }
      if (this.peek() === '}') {
        if (!inBraces) this.fail('Unexpected "}"; there is no block to close');
        break;
      }
      const start = this.pos;
      const name = this.ident();
      this.ws(false);
      if (this.peek() === '=' && this.peek(1) !== '=') {
        this.pos++;
        const expr = this.expr();
        items.push({ kind: 'attr', name, expr, start });
        this.ws(false);
        const c = this.peek();
        if (c !== '\n' && c !== '}' && c !== '' && c !== ',') {
          this.fail(`Missing newline after argument "${name}"; each argument goes on its own line${this.found()}`);
        }
        if (this.strict && c === ',') {
          this.fail('Unexpected comma after argument; Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.');
        }
        if (this.strict && (c === '}') !== (singleLine && items.length === 1)) {
          this.fail(
            c === '}'
              ? 'Missing newline after argument; An argument definition must end with a newline.'
              : 'Invalid single-argument block definition; An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block\'s closing brace immediately after the argument definition.',
          );
        }
        if (c === ',') this.pos++;
        continue;
      }
      if (this.strict && singleLine) {
        this.fail(`Argument definition required; A single-line block definition can contain only a single argument. If you meant to define argument "${name}", use an equals sign to assign it a value.`, start);
      }
      const labels: string[] = [];
      while (this.peek() !== '{') {
        if (this.peek() === '"') {
          const at = this.pos;
          const t = this.template();
          if (t.k !== 'lit' || typeof t.v !== 'string') this.fail('Block labels cannot contain interpolations', at);
          labels.push(t.v);
        } else if (this.isIdStart(this.peek())) labels.push(this.ident());
        else this.fail(`Expected "=" after "${name}" for an argument, or labels and "{" for a block${this.found()}`);
        this.ws(false);
      }
      this.pos++;
      const body = this.body(true);
      this.pos++;
      items.push({ kind: 'block', type: name, labels, body, start });
      if (this.strict) {
        this.ws(false);
        if (this.peek() !== '\n' && this.peek() !== '') this.fail('Missing newline after block definition; A block definition must end with a newline.');
      }
    }
    this.nest = saved;
    return { items };
  }

  exprOnly(): Expr {
    const e = this.expr();
    this.ws(true);
    if (this.pos < this.src.length) this.fail(`Unexpected "${this.peek()}" after the expression`);
    return e;
  }

  expr(): Expr {
    this.ws();
    const start = this.pos;
    const c = this.binary(0);
    this.ws();
    if (this.peek() === '?') {
      this.pos++;
      const t = this.expr();
      this.expect(':');
      const f = this.expr();
      return { k: 'cond', c, t, f, start, end: this.pos };
    }
    return c;
  }

  private binary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      this.ws();
      const op = BINARY_LEVELS[level].find((o) => this.startsWith(o));
      // `=` after < or > would be a different operator; `=>` in for-objects must not read as `=`.
      if (!op || (op === '<' && this.peek(1) === '<')) return left;
      this.pos += op.length;
      const right = this.binary(level + 1);
      left = { k: 'bin', op, l: left, r: right, start: left.start, end: this.pos };
    }
  }

  private unary(): Expr {
    this.ws();
    const start = this.pos;
    const c = this.peek();
    if (c === '!' || (c === '-' && !/[0-9]/.test(this.peek(1)))) {
      this.pos++;
      const e = this.unary();
      return { k: 'unary', op: c, e, start, end: this.pos };
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      // Postfix operators must follow without a newline at attribute level.
      const save = this.pos;
      this.ws();
      if (this.peek() === '.' && this.peek(1) !== '.') {
        this.pos++;
        if (this.peek() === '*') {
          this.pos++;
          e = this.splatRest(e, false);
          continue;
        }
        if (/[0-9]/.test(this.peek())) {
          const s = this.pos;
          while (/[0-9]/.test(this.peek())) this.pos++;
          const key: Expr = { k: 'lit', v: Number(this.src.slice(s, this.pos)), start: s, end: this.pos };
          e = { k: 'index', obj: e, key, start: e.start, end: this.pos };
          continue;
        }
        const name = this.ident();
        e = { k: 'attr', obj: e, name, start: e.start, end: this.pos };
        continue;
      }
      if (this.peek() === '[') {
        this.pos++;
        this.nest++;
        this.ws();
        if (this.peek() === '*') {
          this.pos++;
          this.expect(']');
          this.nest--;
          e = this.splatRest(e, true);
          continue;
        }
        const key = this.expr();
        this.expect(']');
        this.nest--;
        e = { k: 'index', obj: e, key, start: e.start, end: this.pos };
        continue;
      }
      this.pos = save;
      return e;
    }
  }

  private splatRest(obj: Expr, full: boolean): Expr {
    const path: Array<{ attr: string } | { index: Expr }> = [];
    for (;;) {
      if (this.peek() === '.' && this.isIdStart(this.peek(1))) {
        this.pos++;
        path.push({ attr: this.ident() });
      } else if (full && this.peek() === '[') {
        this.pos++;
        this.nest++;
        const key = this.expr();
        this.expect(']');
        this.nest--;
        path.push({ index: key });
      } else break;
    }
    return { k: 'splat', obj, path, start: obj.start, end: this.pos };
  }

  private primary(): Expr {
    this.ws();
    const start = this.pos;
    const c = this.peek();
    if (c === '"') return this.template();
    if (this.startsWith('<<')) return this.heredoc();
    if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(this.peek(1)))) {
      const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.src.slice(this.pos));
      this.pos += m![0].length;
      return { k: 'lit', v: Number(m![0]), start, end: this.pos };
    }
    if (c === '(') {
      this.pos++;
      this.nest++;
      const e = this.expr();
      this.expect(')');
      this.nest--;
      return { ...e, start, end: this.pos };
    }
    if (c === '[') return this.tuple();
    if (c === '{') return this.object();
    if (this.isIdStart(c)) {
      const name = this.ident();
      if (name === 'true' || name === 'false') return { k: 'lit', v: name === 'true', start, end: this.pos };
      if (name === 'null') return { k: 'lit', v: null, start, end: this.pos };
      const save = this.pos;
      this.ws(false);
      if (this.peek() === '(') {
        this.pos++;
        this.nest++;
        const args: Expr[] = [];
        let expand = false;
        this.ws();
        while (this.peek() !== ')') {
          args.push(this.expr());
          this.ws();
          if (this.startsWith('...')) {
            this.pos += 3;
            expand = true;
            this.ws();
          }
          if (this.peek() === ',') {
            this.pos++;
            this.ws();
          } else if (this.peek() !== ')') this.fail(`Expected "," or ")" in the arguments of ${name}()${this.found()}`);
        }
        this.pos++;
        this.nest--;
        return { k: 'call', name, args, expand, start, end: this.pos };
      }
      this.pos = save;
      return { k: 'ref', name, start, end: this.pos };
    }
    this.fail(`Invalid expression; expected the start of an expression${this.found()}`);
  }

  private isKeyword(word: string): boolean {
    this.ws();
    return this.startsWith(word) && !this.isIdChar(this.src[this.pos + word.length] ?? '');
  }

  private forHeader(): { keyVar: string | undefined; valVar: string; coll: Expr } {
    this.pos += 3;
    this.ws();
    let keyVar: string | undefined;
    let valVar = this.ident();
    this.ws();
    if (this.peek() === ',') {
      this.pos++;
      this.ws();
      keyVar = valVar;
      valVar = this.ident();
    }
    if (!this.isKeyword('in')) this.fail(`Expected "in" in the for expression${this.found()}`);
    this.pos += 2;
    const coll = this.expr();
    this.expect(':');
    return { keyVar, valVar, coll };
  }

  private forCond(): Expr | undefined {
    if (!this.isKeyword('if')) return undefined;
    this.pos += 2;
    return this.expr();
  }

  private tuple(): Expr {
    const start = this.pos;
    this.pos++;
    this.nest++;
    if (this.isKeyword('for')) {
      const h = this.forHeader();
      const valExpr = this.expr();
      const cond = this.forCond();
      this.expect(']');
      this.nest--;
      return { k: 'for', ...h, keyExpr: undefined, valExpr, cond, group: false, start, end: this.pos };
    }
    const items: Expr[] = [];
    this.ws();
    while (this.peek() !== ']') {
      items.push(this.expr());
      this.ws();
      if (this.peek() === ',') {
        this.pos++;
        this.ws();
      } else if (this.peek() !== ']') this.fail(`Expected "," or "]" in the list${this.found()}`);
    }
    this.pos++;
    this.nest--;
    return { k: 'tuple', items, start, end: this.pos };
  }

  private object(): Expr {
    const start = this.pos;
    this.pos++;
    this.nest++;
    if (this.isKeyword('for')) {
      const h = this.forHeader();
      const keyExpr = this.expr();
      this.expect('=>');
      const valExpr = this.expr();
      this.ws();
      let group = false;
      if (this.startsWith('...')) {
        this.pos += 3;
        group = true;
      }
      const cond = this.forCond();
      this.expect('}');
      this.nest--;
      return { k: 'for', ...h, keyExpr, valExpr, cond, group, start, end: this.pos };
    }
    const items: Array<{ key: Expr; value: Expr }> = [];
    this.ws();
    while (this.peek() !== '}') {
      const keyStart = this.pos;
      let key: Expr;
      // A bare name is a literal key, as in HCL; parenthesise to use a variable's value as the key.
      if (this.isIdStart(this.peek())) {
        const name = this.ident();
        key = { k: 'lit', v: name, start: keyStart, end: this.pos };
      } else key = this.expr();
      this.ws();
      if (this.peek() === '=' || this.peek() === ':') this.pos++;
      else this.fail(`Expected "=" after the object key${this.found()}`);
      const value = this.expr();
      items.push({ key, value });
      this.ws();
      if (this.peek() === ',') {
        this.pos++;
        this.ws();
      }
    }
    this.pos++;
    this.nest--;
    return { k: 'object', items, start, end: this.pos };
  }

  /** A quoted template. Collapses to a literal when it has no interpolation. */
  private template(): Expr {
    const start = this.pos;
    this.pos++;
    this.trimNext = false;
    const { parts } = this.templateParts((p) => {
      const c = this.src[p];
      if (c === '"') return true;
      if (c === '\n' || c === undefined) this.fail('Unterminated string; a quoted string must end on the same line', start);
      return false;
    }, true);
    this.pos++;
    this.spans?.set(start, { kind: 'string', start, end: this.pos });
    return this.templateExpr(parts, start);
  }

  private templateExpr(parts: TemplatePart[], start: number): Expr {
    if (parts.length === 0) return { k: 'lit', v: '', start, end: this.pos };
    if (parts.length === 1 && typeof parts[0] === 'string') return { k: 'lit', v: parts[0], start, end: this.pos };
    return { k: 'tmpl', parts, start, end: this.pos };
  }

  /** Set by a `~}` strip marker: whitespace that follows in the template source is dropped. */
  private trimNext = false;
  /** The heredoc line start whose indentation was last stripped, so it is stripped once. */
  private strippedLine = -1;

  private templateParts(
    atEnd: (p: number) => boolean,
    escapes: boolean,
    stripIndent = 0,
    stops: string[] = [],
  ): { parts: TemplatePart[]; stop: string | undefined } {
    const parts: TemplatePart[] = [];
    let lit = '';
    const flush = (): void => {
      if (lit) parts.push(lit);
      lit = '';
    };
    // A `~` after `${` or `%{` strips the whitespace before the sequence.
    const trimBefore = (): void => {
      lit = lit.trimEnd();
      const last = parts[parts.length - 1];
      if (!lit && typeof last === 'string') parts[parts.length - 1] = last.trimEnd();
    };
    const close = (what: string): void => {
      this.ws();
      if (this.peek() === '~') {
        this.pos++;
        this.trimNext = true;
      }
      if (this.peek() !== '}') this.fail(`Expected "}" to close the ${what}${this.found()}`);
      this.pos++;
      this.nest--;
    };
    while (!atEnd(this.pos)) {
      if (stripIndent > 0 && this.src[this.pos - 1] === '\n' && this.strippedLine !== this.pos) {
        this.strippedLine = this.pos;
        for (let i = 0; i < stripIndent && (this.peek() === ' ' || this.peek() === '\t'); i++) this.pos++;
        continue;
      }
      const c = this.peek();
      if (this.trimNext && /\s/.test(c)) {
        this.pos++;
        continue;
      }
      this.trimNext = false;
      if (this.startsWith('$${') || this.startsWith('%%{')) {
        // The escape is resolved here, once: template text is never re-parsed after this point.
        lit += c + '{';
        this.pos += 3;
      } else if (this.startsWith('${')) {
        const s = this.pos;
        this.pos += 2;
        if (this.peek() === '~') {
          this.pos++;
          trimBefore();
        }
        flush();
        this.nest++;
        const expr = this.expr();
        close('interpolation');
        parts.push({ expr, text: this.src.slice(s, this.pos) });
      } else if (this.startsWith('%{')) {
        const s = this.pos;
        this.pos += 2;
        if (this.peek() === '~') {
          this.pos++;
          trimBefore();
        }
        flush();
        this.nest++;
        this.ws();
        const keyword = this.isIdStart(this.peek()) ? this.ident() : '';
        if (stops.includes(keyword)) {
          close(`%{ ${keyword} }`);
          return { parts, stop: keyword };
        }
        if (keyword === 'if') {
          const cond = this.expr();
          close('%{ if } directive');
          const then = this.templateParts(atEnd, escapes, stripIndent, ['else', 'endif']);
          let otherwise: TemplatePart[] = [];
          if (then.stop === 'else') {
            const r = this.templateParts(atEnd, escapes, stripIndent, ['endif']);
            if (r.stop !== 'endif') this.fail('Unterminated %{ if }; expected %{ endif }', s);
            otherwise = r.parts;
          } else if (then.stop !== 'endif') this.fail('Unterminated %{ if }; expected %{ endif }', s);
          parts.push({ dir: 'if', cond, then: then.parts, otherwise });
        } else if (keyword === 'for') {
          this.ws();
          let keyVar: string | undefined;
          let valVar = this.ident();
          this.ws();
          if (this.peek() === ',') {
            this.pos++;
            this.ws();
            keyVar = valVar;
            valVar = this.ident();
          }
          if (!this.isKeyword('in')) this.fail(`Expected "in" in the %{ for } directive${this.found()}`);
          this.pos += 2;
          const coll = this.expr();
          close('%{ for } directive');
          const body = this.templateParts(atEnd, escapes, stripIndent, ['endfor']);
          if (body.stop !== 'endfor') this.fail('Unterminated %{ for }; expected %{ endfor }', s);
          parts.push({ dir: 'for', keyVar, valVar, coll, body: body.parts });
        } else {
          this.fail(`Unexpected template directive "${keyword}"; expected if, else, endif, for or endfor`, s);
        }
      } else if (escapes && c === '\\') {
        const n = this.peek(1);
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
        if (n in simple) {
          lit += simple[n];
          this.pos += 2;
        } else if (n === 'u' || n === 'U') {
          const len = n === 'u' ? 4 : 8;
          const hex = this.src.slice(this.pos + 2, this.pos + 2 + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail('Invalid unicode escape');
          lit += String.fromCodePoint(parseInt(hex, 16));
          this.pos += 2 + len;
        } else this.fail(`Invalid escape sequence "\\${n}"`);
      } else {
        lit += c;
        this.pos++;
      }
    }
    flush();
    return { parts, stop: undefined };
  }

  templateRegion(start: number, end: number): Expr {
    this.pos = start;
    this.trimNext = false;
    const { parts } = this.templateParts((p) => p >= end, false);
    return this.templateExpr(parts, start);
  }

  private heredoc(): Expr {
    const start = this.pos;
    this.pos += 2;
    const indent = this.peek() === '-';
    if (indent) this.pos++;
    const marker = this.ident();
    const nl = this.src.indexOf('\n', this.pos);
    if (nl < 0 || this.src.slice(this.pos, nl).trim() !== '') this.fail('Expected a newline after the heredoc marker');
    const bodyStart = nl + 1;
    // The closing marker is a line holding only the marker (plus indentation).
    const re = new RegExp(`^[ \\t]*${marker}[ \\t]*\\r?$`, 'm');
    const m = re.exec(this.src.slice(bodyStart));
    if (!m) this.fail(`Unterminated heredoc; expected a line with only "${marker}"`, start);
    const bodyEnd = bodyStart + m.index;
    let strip = 0;
    if (indent) {
      const lines = this.src.slice(bodyStart, bodyEnd).split('\n').filter((l) => l.trim() !== '');
      strip = lines.length ? Math.min(...lines.map((l) => /^[ \t]*/.exec(l)![0].length)) : 0;
    }
    this.pos = bodyStart;
    this.trimNext = false;
    const { parts } = this.templateParts((p) => p >= bodyEnd, false, strip);
    this.pos = bodyStart + m.index + m[0].length;
    this.spans?.set(start, { kind: 'heredoc', start, end: this.pos });
    return this.templateExpr(parts, start);
  }
}

/**
 * Parses regions of one text as templates without escape processing: used for HCL-JSON, whose strings
 * are templates but whose escapes JSON.parse has already resolved.
 */
export function templateParser(
  text: string,
  file: string,
  error: HclErrorClass = HclError,
): { source: SourceFile; parse: (start: number, end: number) => Expr } {
  const p = new Parser(text, file, error);
  return { source: { body: { items: [] }, text, lines: p.lines }, parse: (start, end) => p.templateRegion(start, end) };
}

/**
 * With `strict`, the layout rules of HashiCorp's HCL2 parser hold too (newline-terminated arguments and
 * blocks, single-line blocks of one argument), which the job-file dialect relaxes as Nomad's HCL1 did.
 */
export function parseHcl(text: string, file: string, error: HclErrorClass = HclError, strict = false): SourceFile {
  const p = new Parser(text, file, error, strict);
  return { body: p.parseFile(), text, lines: p.lines };
}

/** The comments, quoted strings and heredocs of a text that parses, by start offset. */
export function lexicalSpans(text: string, file: string, error: HclErrorClass = HclError): Map<number, LexicalSpan> {
  const p = new Parser(text, file, error);
  p.spans = new Map();
  p.parseFile();
  return p.spans;
}

/** Parses a single expression, as given to `-var` for non-string types. */
export function parseExpression(text: string, file: string, error: HclErrorClass = HclError): Expr {
  const p = new Parser(text, file, error);
  return p.exprOnly();
}
