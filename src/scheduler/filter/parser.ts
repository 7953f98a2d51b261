/**
 * Recursive-descent parser for go-bexpr filter expressions (go-bexpr's grammar). Each rule
 * returns its node or undefined after restoring the scanner, which is how the PEG's ordered choice
 * behaves; the few rules upstream turns into hard errors (unmatched parenthesis, bad number, bad index)
 * throw at once so the message points at the real mistake.
 *
 * One deliberate superset: upstream only accepts an `any`/`all` collection expression as a whole
 * or-expression, so `any X as x { … } and Y == 1` needs extra parentheses there. Here a collection
 * expression may stand wherever a match expression may; every expression upstream accepts parses the same.
 */
import { type Re2, compileRe2 } from '../../shared/re2/index.js';
import { Scanner } from './lexer.js';

export interface Selector {
  /** `ident` form (`Meta.team`, `Tags.0`, `Meta["a.b"]`) or the JSON-pointer form (`"/Meta/team"`) */
  form: 'path' | 'pointer';
  path: string[];
  /** how the selector reads when used as a bare-word value: segments joined by `.` (or `/` for pointers) */
  text: string;
}

export type MatchOp =
  | '=='
  | '!='
  | 'in'
  | 'not in'
  | 'matches'
  | 'not matches'
  | 'is empty'
  | 'is not empty'
  | 'is nil'
  | 'is not nil';

export interface MatchExpr {
  type: 'match';
  selector: Selector;
  op: MatchOp;
  /** the literal as written (strings decoded); absent for the `is …` operators */
  value?: string;
  /** compiled once at parse time for `matches` / `not matches` */
  regex?: Re2;
}

/**
 * How `as …` names the parts of each element. `single` binds the element of a list or the key of a map;
 * `pair` binds index/key and value; `_` in either place of a pair ignores that part.
 */
export type Binding =
  | { mode: 'single'; name: string }
  | { mode: 'pair'; index?: string; value?: string };

export interface CollectionExpr {
  type: 'collection';
  op: 'any' | 'all';
  selector: Selector;
  binding: Binding;
  body: Expr;
}

export type Expr =
  | { type: 'or' | 'and'; left: Expr; right: Expr }
  | { type: 'not'; operand: Expr }
  | MatchExpr
  | CollectionExpr;

export function parseFilter(src: string): Expr {
  const scanner = new Scanner(src);
  try {
    return new Parser(scanner).input();
  } catch (err) {
    // Thousands of chained terms exhaust the stack; that is the caller's expression, not a server fault.
    if (err instanceof RangeError) throw scanner.error('expression is too long or too deeply nested', 0);
    throw err;
  }
}

class Parser {
  constructor(private readonly s: Scanner) {}

  input(): Expr {
    this.s.optWs();
    const expr = this.orExpr();
    if (!expr) throw this.s.noMatch();
    this.s.optWs();
    if (!this.s.eof) {
      this.s.expect('end of input');
      throw this.s.noMatch();
    }
    return expr;
  }

  /** Runs `rule`; on undefined puts the scanner back where it was. */
  private attempt<T>(rule: () => T | undefined): T | undefined {
    const start = this.s.pos;
    const out = rule();
    if (out === undefined) this.s.pos = start;
    return out;
  }

  /** Blank, `word`, blank: how every word operator is delimited. */
  private word(word: string, leading = true): boolean {
    return (
      this.attempt(() => ((!leading || this.s.ws()) && this.s.literal(word) && this.s.ws() ? true : undefined)) ??
      false
    );
  }

  private orExpr(): Expr | undefined {
    const left = this.andExpr();
    if (!left) return undefined;
    const right = this.attempt(() => (this.word('or') ? this.orExpr() : undefined));
    return right ? { type: 'or', left, right } : left;
  }

  private andExpr(): Expr | undefined {
    const left = this.notExpr();
    if (!left) return undefined;
    const right = this.attempt(() => (this.word('and') ? this.andExpr() : undefined));
    return right ? { type: 'and', left, right } : left;
  }

  private notExpr(): Expr | undefined {
    const negated = this.attempt(() => (this.word('not', false) ? this.notExpr() : undefined));
    if (negated) return negated.type === 'not' ? negated.operand : { type: 'not', operand: negated };
    return this.paren();
  }

  private paren(): Expr | undefined {
    const start = this.s.pos;
    if (this.s.literal('(')) {
      this.s.optWs();
      const inner = this.orExpr();
      if (!inner) {
        this.s.pos = start;
        return undefined;
      }
      this.s.optWs();
      if (!this.s.literal(')')) throw this.s.error('Unmatched parentheses', start);
      return inner;
    }
    return this.attempt(() => this.collection()) ?? this.match();
  }

  private collection(): CollectionExpr | undefined {
    const op = this.s.literal('any') ? 'any' : this.s.literal('all') ? 'all' : undefined;
    if (!op || !this.s.ws()) return undefined;
    const selector = this.selector();
    if (!selector || !this.word('as')) return undefined;
    const binding = this.binding();
    if (!binding) return undefined;
    this.s.optWs();
    if (!this.s.literal('{')) return undefined;
    this.s.optWs();
    const body = this.orExpr();
    if (!body) throw this.s.noMatch();
    this.s.optWs();
    if (!this.s.literal('}')) throw this.s.noMatch();
    return { type: 'collection', op, selector, binding, body };
  }

  private binding(): Binding | undefined {
    const first = this.s.literal('_') ? '_' : this.s.ident();
    if (first === undefined) return undefined;
    const second = this.attempt(() => {
      this.s.optWs();
      if (!this.s.literal(',')) return undefined;
      this.s.optWs();
      return this.s.literal('_') ? '_' : this.s.ident();
    });
    if (second === undefined) {
      if (first === '_') throw this.s.error('a single collection binding cannot be "_"');
      return { mode: 'single', name: first };
    }
    if (first === '_' && second === '_') throw this.s.error('at most one collection binding can be "_"');
    if (first !== '_' && first === second) throw this.s.error(`collection bindings must differ, both are "${first}"`);
    return { mode: 'pair', index: first === '_' ? undefined : first, value: second === '_' ? undefined : second };
  }

  private match(): MatchExpr | undefined {
    return (
      this.attempt(() => this.selectorOpValue()) ??
      this.attempt(() => this.selectorIs()) ??
      this.attempt(() => this.valueInSelector())
    );
  }

  private selectorOpValue(): MatchExpr | undefined {
    const selector = this.selector();
    if (!selector) return undefined;
    const op = this.binaryOp();
    if (!op) return undefined;
    const valueAt = this.s.pos;
    const value = this.value();
    if (value === undefined) return undefined;
    const expr: MatchExpr = { type: 'match', selector, op, value };
    if (op === 'matches' || op === 'not matches') {
      try {
        expr.regex = compileRe2(value);
      } catch (err) {
        throw this.s.error(`invalid regular expression ${JSON.stringify(value)}: ${(err as Error).message}`, valueAt);
      }
    }
    return expr;
  }

  private binaryOp(): MatchOp | undefined {
    const eq = this.attempt(() => {
      this.s.optWs();
      const op = this.s.literal('==') ? '==' : this.s.literal('!=') ? '!=' : undefined;
      if (op) this.s.optWs();
      return op;
    });
    if (eq) return eq;
    if (this.word('contains')) return 'in';
    if (this.attempt(() => (this.word('not') && this.word('contains', false) ? true : undefined))) return 'not in';
    if (this.word('matches')) return 'matches';
    if (this.attempt(() => (this.word('not') && this.word('matches', false) ? true : undefined))) return 'not matches';
    return undefined;
  }

  private selectorIs(): MatchExpr | undefined {
    const selector = this.selector();
    if (!selector) return undefined;
    // `is` is followed by a blank; the final word needs no blank after it but must end the word.
    const op = this.attempt((): MatchOp | undefined => {
      if (!this.word('is')) return undefined;
      const negated = this.attempt(() => (this.s.literal('not') && this.s.ws() ? true : undefined)) ?? false;
      const what = this.s.literal('empty') ? 'empty' : this.s.literal('nil') ? 'nil' : undefined;
      if (!what || /[A-Za-z0-9_/]/.test(this.s.peek())) return undefined;
      return `is ${negated ? 'not ' : ''}${what}` as MatchOp;
    });
    return op ? { type: 'match', selector, op } : undefined;
  }

  private valueInSelector(): MatchExpr | undefined {
    const value = this.value();
    if (value === undefined) return undefined;
    const op = this.word('in')
      ? 'in'
      : this.attempt(() => (this.word('not') && this.word('in', false) ? true : undefined))
        ? 'not in'
        : undefined;
    if (!op) return undefined;
    const selector = this.selector();
    if (!selector) throw this.s.error('Invalid selector');
    return { type: 'match', selector, op, value };
  }

  private selector(): Selector | undefined {
    if (this.s.peek() === '"') return this.attempt(() => this.pointerSelector());
    const first = this.s.ident();
    if (first === undefined) return undefined;
    const path = [first];
    for (;;) {
      const next =
        this.attempt(() => (this.s.literal('.') ? this.s.ident() : undefined)) ??
        this.attempt(() => (this.s.literal('.') ? this.s.digits() : undefined)) ??
        this.index();
      if (next === undefined) break;
      path.push(next);
    }
    return { form: 'path', path, text: path.join('.') };
  }

  private index(): string | undefined {
    const start = this.s.pos;
    if (!this.s.literal('[')) return undefined;
    this.s.optWs();
    const key = this.s.string();
    if (key === undefined) throw this.s.error('Invalid index', start);
    this.s.optWs();
    if (!this.s.literal(']')) throw this.s.error('Unclosed index expression', start);
    return key;
  }

  private pointerSelector(): Selector | undefined {
    this.s.literal('"');
    const path: string[] = [];
    for (;;) {
      const seg = this.s.pointerSegment();
      if (seg === undefined) break;
      path.push(seg);
    }
    if (!this.s.literal('"')) return undefined;
    return { form: 'pointer', path, text: path.map((p) => `/${p}`).join('') };
  }

  /** A bare word or dotted path (read as its text), a number, or a string. */
  private value(): string | undefined {
    if (this.s.peek() !== '"') {
      const sel = this.attempt(() => this.selector());
      if (sel) return sel.text;
      const n = this.s.number();
      if (n !== undefined) return n;
    }
    return this.s.string();
  }
}

