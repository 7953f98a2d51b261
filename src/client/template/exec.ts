/**
 * The executor: walks a parsed template with Go's semantics (dot, variables and their scope, pipelines
 * passing their value as the last argument, truth, range over lists, maps in key order and integers,
 * `break`/`continue`), and reports errors at the action that failed.
 */
import { type FuncContext, FUNCS, truth } from './funcs.js';
import { type Value, formatValue, goType, isMap, isNil } from './go-format.js';
import type { SourceMap } from './lexer.js';
import type { Command, ControlNode, Node, Operand, ParsedTemplate, Pipeline } from './parser.js';
import { TemplateError } from './errors.js';

export interface ExecOptions extends FuncContext {
  /** `error_on_missing_key`: a missing map key is an error rather than `<no value>` */
  errMissingKey: boolean;
}

class BreakSignal {}
class ContinueSignal {}

interface Variable {
  name: string;
  value: Value;
}

/** Output larger than this is refused: a runaway `range loop` must not fill the disk or the heap. */
const MAX_OUTPUT = 64 * 1024 * 1024;

export function execute(tmpl: ParsedTemplate, opts: ExecOptions, data: Value = undefined): string {
  return new Executor(tmpl.src, opts).run(tmpl.nodes, data);
}

class Executor {
  private out: string[] = [];
  private size = 0;
  private vars: Variable[] = [];

  constructor(
    private readonly src: SourceMap,
    private readonly opts: ExecOptions,
  ) {}

  run(nodes: Node[], data: Value): string {
    this.vars = [{ name: '$', value: data }];
    this.walk(nodes, data);
    return this.out.join('');
  }

  private write(s: string, offset: number): void {
    this.size += s.length;
    if (this.size > MAX_OUTPUT) throw this.src.error(offset, `output is larger than ${MAX_OUTPUT / 1024 / 1024} MiB`);
    this.out.push(s);
  }

  private walk(nodes: Node[], dot: Value): void {
    for (const n of nodes) {
      switch (n.kind) {
        case 'text':
          this.write(n.text, 0);
          break;
        case 'action': {
          const v = this.pipeline(dot, n.pipe);
          // An action that declares or assigns a variable prints nothing.
          if (n.pipe.decl.length === 0) this.write(formatValue(v), n.offset);
          break;
        }
        case 'if':
        case 'with': {
          const mark = this.vars.length;
          const v = this.pipeline(dot, n.pipe);
          if (truth(v)) this.walk(n.body, n.kind === 'with' ? v : dot);
          else if (n.elseBody) this.walk(n.elseBody, dot);
          this.vars.length = mark;
          break;
        }
        case 'range':
          this.range(n, dot);
          break;
        case 'break':
          throw new BreakSignal();
        case 'continue':
          throw new ContinueSignal();
      }
    }
  }

  private range(n: ControlNode, dot: Value): void {
    const mark = this.vars.length;
    const v = this.pipeline(dot, n.pipe, true);
    let entries: [Value, Value][];
    if (isNil(v)) entries = [];
    else if (Array.isArray(v)) entries = v.map((x, i) => [i, x]);
    else if (isMap(v))
      entries = Object.keys(v)
        .sort()
        .map((k) => [k, v[k]]);
    else if (typeof v === 'number' && Number.isInteger(v)) {
      if (n.pipe.decl.length > 1) throw this.src.error(n.offset, `can't use ${v} to iterate over more than one variable`);
      entries = Array.from({ length: Math.max(0, v) }, (_, i) => [i, i]);
    } else throw this.src.error(n.pipe.offset, `range can't iterate over ${formatValue(v, false)}`);
    if (entries.length === 0) {
      if (n.elseBody) this.walk(n.elseBody, dot);
      this.vars.length = mark;
      return;
    }
    for (const [key, elem] of entries) {
      const inner = this.vars.length;
      const decl = n.pipe.decl;
      if (decl.length === 1) this.bind(decl[0], elem, n.pipe.assign);
      else if (decl.length === 2) {
        this.bind(decl[0], key, n.pipe.assign);
        this.bind(decl[1], elem, n.pipe.assign);
      }
      try {
        this.walk(n.body, elem);
      } catch (sig) {
        if (sig instanceof BreakSignal) break;
        if (!(sig instanceof ContinueSignal)) throw sig;
      } finally {
        this.vars.length = inner;
      }
    }
    this.vars.length = mark;
  }

  private bind(name: string, value: Value, assign: boolean): void {
    if (assign) {
      const v = this.lookupVar(name);
      if (v) {
        v.value = value;
        return;
      }
    }
    this.vars.push({ name, value });
  }

  private lookupVar(name: string): Variable | undefined {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].name === name) return this.vars[i];
    return undefined;
  }

  private pipeline(dot: Value, pipe: Pipeline, forRange = false): Value {
    let value: Value = undefined;
    let piped = false;
    for (const cmd of pipe.cmds) {
      value = this.command(dot, cmd, piped ? { value } : undefined);
      piped = true;
    }
    if (!forRange) for (const name of pipe.decl) this.bind(name, value, pipe.assign);
    return value;
  }

  private command(dot: Value, cmd: Command, final?: { value: Value }): Value {
    const [first, ...rest] = cmd.args;
    if (first.kind === 'func') return this.call(dot, first, rest, final);
    if (rest.length > 0 || final) throw this.src.error(first.offset, `can't give argument to non-function ${this.describe(first)}`);
    if (first.kind === 'nil') throw this.src.error(first.offset, 'nil is not a command');
    return this.operand(dot, first);
  }

  private describe(op: Operand): string {
    switch (op.kind) {
      case 'literal':
        return typeof op.value === 'string' ? JSON.stringify(op.value) : String(op.value);
      case 'variable':
        return op.name;
      case 'dot':
        return '.';
      case 'chain':
        return `${op.base.kind === 'dot' ? '' : this.describe(op.base)}.${op.fields.map((f) => f.name).join('.')}`;
      case 'pipe':
        return '(pipeline)';
      default:
        return op.kind;
    }
  }

  private operand(dot: Value, op: Operand): Value {
    switch (op.kind) {
      case 'literal':
        return op.value;
      case 'nil':
        return null;
      case 'dot':
        return dot;
      case 'variable': {
        const v = this.lookupVar(op.name);
        if (!v) throw this.src.error(op.offset, `undefined variable: ${op.name}`);
        return v.value;
      }
      case 'func':
        // A function as an argument is called without arguments: `{{ printf "%s" timestamp }}`.
        return this.call(dot, op, [], undefined);
      case 'pipe': {
        const mark = this.vars.length;
        const v = this.pipeline(dot, op.pipe);
        this.vars.length = mark;
        return v;
      }
      case 'chain': {
        let v = this.operand(dot, op.base);
        let path = op.base.kind === 'dot' ? '' : this.describe(op.base);
        for (const f of op.fields) {
          v = this.field(v, f.name, f.offset, path);
          path += `.${f.name}`;
        }
        return v;
      }
    }
  }

  /**
   * A field of a map. As with consul-template's missingkey=zero, a missing key is nil (a field of which is
   * an error); the template's own data is no value at all, whose fields are no value either.
   */
  private field(v: Value, name: string, offset: number, path: string): Value {
    if (isMap(v)) {
      if (Object.hasOwn(v, name)) return v[name];
      if (this.opts.errMissingKey) throw this.src.error(offset, `map has no entry for key "${name}"`);
      return null;
    }
    if (v === undefined) {
      if (this.opts.errMissingKey) throw this.src.error(offset, `nil data; no entry for key "${name}"`);
      return undefined;
    }
    if (v === null) throw this.src.error(offset, `nil pointer evaluating interface {}.${name}${path ? ` (in ${path})` : ''}`);
    throw this.src.error(offset, `can't evaluate field ${name} in type ${goType(v)}`);
  }

  private call(dot: Value, fnOp: Extract<Operand, { kind: 'func' }>, args: Operand[], final?: { value: Value }): Value {
    const name = fnOp.name;
    const def = FUNCS[name];
    const count = args.length + (final ? 1 : 0);
    const [min, max] = typeof def.arity === 'number' ? [def.arity, def.arity] : def.arity;
    if (count < min || count > max) {
      const want = min === max ? String(min) : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw this.src.error(fnOp.offset, `wrong number of args for ${name}: want ${want} got ${count}`);
    }
    // and/or stop at the first argument that decides them, as Go's do since 1.18.
    if (name === 'and' || name === 'or') {
      let v: Value = undefined;
      const all = [...args.map((a) => () => this.operand(dot, a)), ...(final ? [() => final.value] : [])];
      for (const get of all) {
        v = get();
        if (truth(v) === (name === 'or')) return v;
      }
      return v;
    }
    const values = args.map((a) => this.operand(dot, a));
    if (final) values.push(final.value);
    try {
      return def.fn(this.opts, values);
    } catch (err) {
      if (err instanceof TemplateError) throw err;
      throw this.src.error(fnOp.offset, `error calling ${name}: ${(err as Error).message}`);
    }
  }
}
