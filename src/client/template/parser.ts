/**
 * The parser: tokens to a tree of text, actions and control structures (`if`/`else if`/`else`, `range`,
 * `with`, `break`, `continue`), with Go's rules for pipelines, variables and their scope. Function names
 * are checked here, as Go does, so a template that uses a function svc does not have fails before any
 * file is written.
 */
import { type Delims, SourceMap, type Token, lex } from './lexer.js';

export type Operand =
  | { kind: 'literal'; value: string | number | boolean; offset: number }
  | { kind: 'nil'; offset: number }
  | { kind: 'dot'; offset: number }
  | { kind: 'func'; name: string; offset: number }
  | { kind: 'variable'; name: string; offset: number }
  | { kind: 'pipe'; pipe: Pipeline; offset: number }
  /** `.A.B`, `$x.A`, `(pipeline).A` */
  | { kind: 'chain'; base: Operand; fields: { name: string; offset: number }[]; offset: number };

export interface Command {
  args: Operand[];
  offset: number;
}

export interface Pipeline {
  /** variables declared (`:=`) or assigned (`=`) */
  decl: string[];
  assign: boolean;
  cmds: Command[];
  offset: number;
}

export interface ControlNode {
  kind: 'if' | 'with' | 'range';
  pipe: Pipeline;
  body: Node[];
  elseBody: Node[] | null;
  offset: number;
}

export type Node = { kind: 'text'; text: string } | { kind: 'action'; pipe: Pipeline; offset: number } | ControlNode | { kind: 'break' | 'continue'; offset: number };

/** What the parser needs to know of the functions: whether a name is one, and why not when it is refused. */
export interface FuncLookup {
  has(name: string): boolean;
  /** a message when svc knows the function but does not provide it (it needs Consul, Vault, Nomad's API…) */
  refusal(name: string): string | undefined;
}

export interface ParsedTemplate {
  nodes: Node[];
  src: SourceMap;
}

export function parseTemplate(name: string, text: string, funcs: FuncLookup, delims: Delims = { left: '{{', right: '}}' }): ParsedTemplate {
  const src = new SourceMap(name, text);
  const tokens = lex(text, src, delims);
  const nodes = new Parser(tokens, src, funcs).parse();
  return { nodes, src };
}

type Terminator = { kind: 'end' } | { kind: 'else' } | { kind: 'else-chain'; control: 'if' | 'with'; offset: number } | { kind: 'eof' };

class Parser {
  private i = 0;
  /** variables in scope; `$` always is */
  private vars: string[] = ['$'];
  private rangeDepth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly src: SourceMap,
    private readonly funcs: FuncLookup,
  ) {}

  parse(): Node[] {
    const { nodes, term, offset } = this.list();
    if (term.kind === 'end') throw this.src.error(offset, 'unexpected {{end}}');
    if (term.kind !== 'eof') throw this.src.error(offset, 'unexpected {{else}}');
    return nodes;
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private skipSpace(): Token {
    while (this.peek().kind === 'space') this.i++;
    return this.peek();
  }

  private expect(kind: Token['kind'], what: string): Token {
    const t = this.skipSpace();
    if (t.kind !== kind) throw this.unexpected(t, what);
    return this.next();
  }

  private unexpected(t: Token, context: string): Error {
    const shown = t.kind === 'eof' ? 'EOF' : t.kind === 'right' ? `"${t.value}"` : JSON.stringify(t.value);
    return this.src.error(t.offset, `unexpected ${shown} in ${context}`);
  }

  /** Nodes up to `{{end}}`, `{{else…}}` or the end of the template. */
  private list(): { nodes: Node[]; term: Terminator; offset: number } {
    const nodes: Node[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind === 'eof') return { nodes, term: { kind: 'eof' }, offset: t.offset };
      if (t.kind === 'text') {
        nodes.push({ kind: 'text', text: t.value });
        continue;
      }
      // t is a left delimiter
      const first = this.skipSpace();
      if (first.kind === 'keyword') {
        this.next();
        switch (first.value) {
          case 'end':
            this.expect('right', 'end');
            return { nodes, term: { kind: 'end' }, offset: first.offset };
          case 'else': {
            const after = this.skipSpace();
            if (after.kind === 'keyword' && (after.value === 'if' || after.value === 'with')) {
              // `{{else if …}}` is `{{else}}{{if …}}…{{end}}` sharing the outer `{{end}}`, as Go rewrites it.
              this.next();
              return { nodes, term: { kind: 'else-chain', control: after.value, offset: after.offset }, offset: first.offset };
            }
            this.expect('right', 'else');
            return { nodes, term: { kind: 'else' }, offset: first.offset };
          }
          case 'if':
          case 'with':
          case 'range':
            nodes.push(this.control(first.value, first.offset));
            continue;
          case 'break':
          case 'continue':
            if (this.rangeDepth === 0) throw this.src.error(first.offset, `{{${first.value}}} outside {{range}}`);
            this.expect('right', first.value);
            nodes.push({ kind: first.value, offset: first.offset });
            continue;
          default:
            throw this.src.error(first.offset, `{{${first.value}}} is not supported by svc's templates (only one template per file)`);
        }
      }
      const pipe = this.pipeline('command', 'right');
      this.next();
      nodes.push({ kind: 'action', pipe, offset: first.offset });
    }
  }

  /** `if`, `with` or `range` after its keyword, through its `{{end}}`. */
  private control(kind: 'if' | 'with' | 'range', offset: number): Node {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, 'right');
    this.next();
    if (kind === 'range') this.rangeDepth++;
    const body = this.list();
    if (kind === 'range') this.rangeDepth--;
    let elseBody: Node[] | null = null;
    if (body.term.kind === 'eof') throw this.src.error(offset, `unexpected EOF: {{${kind}}} has no {{end}}`);
    if (body.term.kind === 'else') {
      const rest = this.list();
      if (rest.term.kind === 'eof') throw this.src.error(offset, `unexpected EOF: {{${kind}}} has no {{end}}`);
      if (rest.term.kind !== 'end') throw this.src.error(rest.offset, `expected {{end}} after {{else}}, found another {{else}}`);
      elseBody = rest.nodes;
    } else if (body.term.kind === 'else-chain') {
      elseBody = [this.control(body.term.control, body.term.offset)];
    }
    this.vars.length = mark;
    return { kind, pipe, body: body.nodes, elseBody, offset };
  }

  /** A pipeline up to `end` (a right delimiter or paren, left unconsumed). */
  private pipeline(context: string, end: 'right' | 'rparen'): Pipeline {
    const start = this.skipSpace();
    const decl: string[] = [];
    let assign = false;
    // Declarations: `$x :=`, `$x =`, and in range `$i, $v :=`.
    const save = this.i;
    if (start.kind === 'variable') {
      const names: Token[] = [this.next()];
      let t = this.skipSpace();
      if (t.kind === 'comma' && context === 'range') {
        this.next();
        const second = this.skipSpace();
        if (second.kind !== 'variable') throw this.unexpected(second, 'range declaration');
        names.push(this.next());
        t = this.skipSpace();
        if (t.kind !== 'declare' && t.kind !== 'assign') throw this.unexpected(t, 'range declaration');
      }
      if (t.kind === 'comma') throw this.src.error(t.offset, 'too many declarations in command');
      if (t.kind === 'declare' || t.kind === 'assign') {
        this.next();
        assign = t.kind === 'assign';
        for (const n of names) {
          if (assign && !this.vars.includes(n.value)) throw this.src.error(n.offset, `undefined variable "${n.value}"`);
          decl.push(n.value);
        }
      } else {
        this.i = save;
      }
    }
    const cmds: Command[] = [];
    for (;;) {
      const t = this.skipSpace();
      if (t.kind === end) break;
      if (t.kind === 'pipe') {
        if (cmds.length === 0) throw this.src.error(t.offset, 'missing command before "|"');
        this.next();
        const after = this.skipSpace();
        if (after.kind === end || after.kind === 'pipe') throw this.src.error(after.offset, 'missing command after "|"');
        continue;
      }
      cmds.push(this.command(end));
    }
    if (cmds.length === 0) throw this.src.error(start.offset, `missing value for ${context}`);
    // Declared after the pipeline is read: `$x := $x` refers to an outer $x.
    if (!assign) this.vars.push(...decl);
    return { decl, assign, cmds, offset: start.offset };
  }

  private command(end: 'right' | 'rparen'): Command {
    const offset = this.skipSpace().offset;
    const args: Operand[] = [];
    for (;;) {
      const t = this.skipSpace();
      if (t.kind === end || t.kind === 'pipe') break;
      if (args.length > 0 && this.tokens[this.i - 1].kind !== 'space') throw this.src.error(t.offset, `missing space before ${JSON.stringify(t.value)}`);
      args.push(this.operand());
    }
    return { args, offset };
  }

  private operand(): Operand {
    const t = this.next();
    let op: Operand;
    switch (t.kind) {
      case 'identifier': {
        const refusal = this.funcs.refusal(t.value);
        if (refusal) throw this.src.error(t.offset, refusal);
        if (!this.funcs.has(t.value)) throw this.src.error(t.offset, `function "${t.value}" not defined`);
        op = { kind: 'func', name: t.value, offset: t.offset };
        break;
      }
      case 'string':
        op = { kind: 'literal', value: t.value, offset: t.offset };
        break;
      case 'number':
        op = { kind: 'literal', value: t.num!, offset: t.offset };
        break;
      case 'bool':
        op = { kind: 'literal', value: t.value === 'true', offset: t.offset };
        break;
      case 'nil':
        op = { kind: 'nil', offset: t.offset };
        break;
      case 'dot':
        op = { kind: 'dot', offset: t.offset };
        break;
      case 'field':
        // `.A` is a field of dot; the chain below picks up `.B` of `.A.B`.
        op = { kind: 'chain', base: { kind: 'dot', offset: t.offset }, fields: [{ name: t.value, offset: t.offset }], offset: t.offset };
        break;
      case 'variable':
        if (!this.vars.includes(t.value)) throw this.src.error(t.offset, `undefined variable "${t.value}"`);
        op = { kind: 'variable', name: t.value, offset: t.offset };
        break;
      case 'lparen': {
        const pipe = this.pipeline('parenthesized pipeline', 'rparen');
        this.next();
        op = { kind: 'pipe', pipe, offset: t.offset };
        break;
      }
      case 'keyword':
        throw this.src.error(t.offset, `unexpected {{${t.value}}} in operand`);
      default:
        throw this.unexpected(t, 'operand');
    }
    // Fields right after the term (no space) chain onto it.
    const fields: { name: string; offset: number }[] = [];
    while (this.peek().kind === 'field') {
      const f = this.next();
      fields.push({ name: f.value, offset: f.offset });
    }
    if (fields.length === 0) return op;
    if (op.kind === 'func' || op.kind === 'literal' || op.kind === 'nil') throw this.src.error(this.tokens[this.i - 1].offset, `unexpected . after term ${JSON.stringify(t.value)}`);
    if (op.kind === 'chain') return { ...op, fields: [...op.fields, ...fields] };
    return { kind: 'chain', base: op, fields, offset: op.offset };
  }
}
