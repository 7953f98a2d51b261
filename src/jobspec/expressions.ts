/**
 * Evaluates parsed HCL expressions. References rooted at anything other than `var`, `local` or a `for`
 * iterator are runtime interpolations (`${attr.kernel.name}`, `${NOMAD_PORT_http}`, `${env["X"]}`) that
 * the client resolves later, so they are kept as their original `${...}` text rather than rejected.
 */
import { JobspecError } from './errors.js';
import type { Expr, SourceFile, TemplatePart, Value } from '../shared/hcl/syntax.js';
import { callFunction } from './functions.js';

/** Thrown through the evaluator when an expression depends on something only the client knows. */
export class RuntimeReference extends Error {}

export interface EvalContext {
  source: SourceFile;
  /** `var.*` values; undefined when variables are not in scope (inside `variable` blocks). */
  vars: Record<string, Value> | undefined;
  /** Resolves `local.<name>`; lazy so locals are evaluated in dependency order. */
  local: ((name: string, at: number) => Value) | undefined;
  scope: Map<string, Value>;
  baseDir: string | undefined;
}

export function isObject(v: Value | undefined): v is { [key: string]: Value } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function typeName(v: Value): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'tuple';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

export function fail(ctx: EvalContext, at: number, message: string): never {
  throw new JobspecError(message, ctx.source.lines.pos(at));
}

/** HCL's implicit conversion to string: numbers and bools convert, collections do not. */
export function asString(ctx: EvalContext, v: Value, at: number, what = 'value'): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return String(v);
  return fail(ctx, at, `Invalid ${what}: a ${typeName(v)} cannot be used as a string`);
}

export function asNumber(ctx: EvalContext, v: Value, at: number): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return fail(ctx, at, `Invalid value: a number is required, got ${typeName(v)} ${JSON.stringify(v)}`);
}

export function asBool(ctx: EvalContext, v: Value, at: number): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return fail(ctx, at, `Invalid value: a bool is required, got ${typeName(v)} ${JSON.stringify(v)}`);
}

function equal(a: Value, b: Value): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Evaluates an attribute's expression. A runtime reference at the top becomes the `${...}` text of the
 * expression, as jobspec2 does with its undefined-variable hook.
 */
export function evaluateTop(ctx: EvalContext, e: Expr): Value {
  try {
    return evaluate(ctx, e);
  } catch (err) {
    if (err instanceof RuntimeReference) return '${' + ctx.source.text.slice(e.start, e.end) + '}';
    throw err;
  }
}

export function evaluate(ctx: EvalContext, e: Expr): Value {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'tmpl':
      return evalTemplate(ctx, e.parts);
    case 'ref': {
      if (ctx.scope.has(e.name)) return ctx.scope.get(e.name)!;
      if (e.name === 'var' || e.name === 'local') {
        return fail(ctx, e.start, `Invalid reference: "${e.name}" must be followed by an attribute, as in ${e.name}.name`);
      }
      throw new RuntimeReference(e.name);
    }
    case 'attr': {
      if (e.obj.k === 'ref' && !ctx.scope.has(e.obj.name)) {
        if (e.obj.name === 'var') {
          if (!ctx.vars) return fail(ctx, e.start, 'Variables may not be used here');
          if (!(e.name in ctx.vars)) return fail(ctx, e.start, `Reference to undeclared input variable "var.${e.name}"; declare it with a variable "${e.name}" block`);
          return ctx.vars[e.name];
        }
        if (e.obj.name === 'local') {
          if (!ctx.local) return fail(ctx, e.start, 'Local values may not be used here');
          return ctx.local(e.name, e.start);
        }
      }
      const obj = evaluate(ctx, e.obj);
      if (!isObject(obj)) return fail(ctx, e.start, `Unsupported attribute "${e.name}": a ${typeName(obj)} has no attributes`);
      if (!(e.name in obj)) return fail(ctx, e.start, `Unsupported attribute: this object has no attribute "${e.name}"`);
      return obj[e.name];
    }
    case 'index': {
      const obj = evaluate(ctx, e.obj);
      const key = evaluate(ctx, e.key);
      return indexValue(ctx, obj, key, e.start);
    }
    case 'splat': {
      const obj = evaluate(ctx, e.obj);
      const list = obj === null ? [] : Array.isArray(obj) ? obj : [obj];
      return list.map((item) => {
        let v = item;
        for (const step of e.path) {
          if ('attr' in step) {
            if (!isObject(v) || !(step.attr in v)) return fail(ctx, e.start, `Unsupported attribute "${step.attr}" in splat expression`);
            v = v[step.attr];
          } else v = indexValue(ctx, v, evaluate(ctx, step.index), e.start);
        }
        return v;
      });
    }
    case 'call': {
      // try() and can() must see their arguments fail, so they are evaluated here rather than eagerly.
      if (e.name === 'try' || e.name === 'can') return tryOrCan(ctx, e.name, e.args, e.start);
      const args = e.args.map((a) => evaluate(ctx, a));
      if (e.expand) {
        const last = args.pop();
        if (!Array.isArray(last)) return fail(ctx, e.start, `The final argument of ${e.name}() with "..." must be a list`);
        args.push(...last);
      }
      return callFunction(ctx, e.name, args, e.start);
    }
    case 'unary': {
      const v = evaluate(ctx, e.e);
      return e.op === '!' ? !asBool(ctx, v, e.start) : -asNumber(ctx, v, e.start);
    }
    case 'bin':
      return evalBinary(ctx, e.op, e.l, e.r, e.start);
    case 'cond':
      return asBool(ctx, evaluate(ctx, e.c), e.c.start) ? evaluate(ctx, e.t) : evaluate(ctx, e.f);
    case 'tuple':
      return e.items.map((i) => evaluate(ctx, i));
    case 'object': {
      const out: Record<string, Value> = {};
      for (const { key, value } of e.items) out[asString(ctx, evaluate(ctx, key), key.start, 'object key')] = evaluate(ctx, value);
      return out;
    }
    case 'for':
      return evalFor(ctx, e);
  }
}

function tryOrCan(ctx: EvalContext, name: 'try' | 'can', args: Expr[], at: number): Value {
  if (name === 'can' && args.length !== 1) return fail(ctx, at, `Invalid function call: can() takes 1 argument, got ${args.length}`);
  for (const arg of args) {
    try {
      const v = evaluate(ctx, arg);
      return name === 'can' ? true : v;
    } catch (err) {
      if (!(err instanceof JobspecError)) throw err;
    }
  }
  if (name === 'can') return false;
  return fail(ctx, at, 'Invalid function call: no argument of try() could be evaluated without an error');
}

function indexValue(ctx: EvalContext, obj: Value, key: Value, at: number): Value {
  if (Array.isArray(obj)) {
    const i = asNumber(ctx, key, at);
    if (!Number.isInteger(i) || i < 0 || i >= obj.length) return fail(ctx, at, `Invalid index: the index ${i} is out of range for a list of ${obj.length} elements`);
    return obj[i];
  }
  if (isObject(obj)) {
    const k = asString(ctx, key, at, 'key');
    if (!(k in obj)) return fail(ctx, at, `Invalid index: the given key "${k}" does not exist in the map`);
    return obj[k];
  }
  return fail(ctx, at, `Invalid index: a ${typeName(obj)} cannot be indexed`);
}

function evalBinary(ctx: EvalContext, op: string, l: Expr, r: Expr, at: number): Value {
  if (op === '&&' || op === '||') {
    const a = asBool(ctx, evaluate(ctx, l), l.start);
    if (op === '&&' ? !a : a) return a;
    return asBool(ctx, evaluate(ctx, r), r.start);
  }
  const a = evaluate(ctx, l);
  const b = evaluate(ctx, r);
  if (op === '==') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  const x = asNumber(ctx, a, l.start);
  const y = asNumber(ctx, b, r.start);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) return fail(ctx, at, 'Division by zero');
      return x / y;
    default:
      if (y === 0) return fail(ctx, at, 'Division by zero');
      return x % y;
  }
}

/**
 * How many values the `for` expressions of one file may produce in all. Nested loops multiply, and the
 * server parses files sent by callers on its main thread, so one file must not be able to stall it.
 */
export const FOR_VALUE_BUDGET = 1_000_000;
const forBudgets = new WeakMap<SourceFile, { left: number }>();

function spend(ctx: EvalContext, at: number): void {
  let budget = forBudgets.get(ctx.source);
  if (!budget) forBudgets.set(ctx.source, (budget = { left: FOR_VALUE_BUDGET }));
  if (--budget.left < 0) fail(ctx, at, `for expressions in this file produce more than ${FOR_VALUE_BUDGET} values`);
}

function evalFor(ctx: EvalContext, e: Extract<Expr, { k: 'for' }>): Value {
  const coll = evaluate(ctx, e.coll);
  let entries: Array<[Value, Value]>;
  if (Array.isArray(coll)) entries = coll.map((v, i) => [i, v]);
  else if (isObject(coll)) entries = Object.keys(coll).sort().map((k) => [k, coll[k]]);
  else return fail(ctx, e.coll.start, `A for expression needs a list or map, got ${typeName(coll)}`);
  const tupleOut: Value[] = [];
  const objOut: Record<string, Value> = {};
  for (const [k, v] of entries) {
    spend(ctx, e.start);
    const scope = new Map(ctx.scope);
    if (e.keyVar) scope.set(e.keyVar, k);
    scope.set(e.valVar, v);
    const inner: EvalContext = { ...ctx, scope };
    if (e.cond && !asBool(inner, evaluate(inner, e.cond), e.cond.start)) continue;
    const value = evaluate(inner, e.valExpr);
    if (!e.keyExpr) {
      tupleOut.push(value);
      continue;
    }
    const key = asString(inner, evaluate(inner, e.keyExpr), e.keyExpr.start, 'object key');
    if (e.group) ((objOut[key] ??= []) as Value[]).push(value);
    else if (key in objOut) return fail(ctx, e.keyExpr.start, `Duplicate object key "${key}" in for expression; use "..." after the value to group`);
    else objOut[key] = value;
  }
  return e.keyExpr ? objOut : tupleOut;
}

function evalTemplate(ctx: EvalContext, parts: TemplatePart[]): Value {
  // A template of exactly one interpolation yields the value itself, not its string form, as in HCL.
  if (parts.length === 1 && typeof parts[0] !== 'string' && 'expr' in parts[0]) {
    const p = parts[0];
    try {
      return evaluate(ctx, p.expr);
    } catch (err) {
      if (err instanceof RuntimeReference) return p.text;
      throw err;
    }
  }
  return renderParts(ctx, parts);
}

function renderParts(ctx: EvalContext, parts: TemplatePart[]): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') {
      out += p;
    } else if ('expr' in p) {
      try {
        out += asString(ctx, evaluate(ctx, p.expr), p.expr.start, 'template interpolation');
      } catch (err) {
        if (err instanceof RuntimeReference) out += p.text;
        else throw err;
      }
    } else if (p.dir === 'if') {
      out += renderParts(ctx, asBool(ctx, directiveValue(ctx, p.cond), p.cond.start) ? p.then : p.otherwise);
    } else {
      const coll = directiveValue(ctx, p.coll);
      let entries: Array<[Value, Value]>;
      if (Array.isArray(coll)) entries = coll.map((v, i) => [i, v]);
      else if (isObject(coll)) entries = Object.keys(coll).sort().map((k) => [k, coll[k]]);
      else return fail(ctx, p.coll.start, `A %{ for } directive needs a list or map, got ${typeName(coll)}`);
      for (const [k, v] of entries) {
        const scope = new Map(ctx.scope);
        if (p.keyVar) scope.set(p.keyVar, k);
        scope.set(p.valVar, v);
        out += renderParts({ ...ctx, scope }, p.body);
      }
    }
  }
  return out;
}

/** Directives decide the text's shape now, so they cannot wait for a runtime value. */
function directiveValue(ctx: EvalContext, e: Expr): Value {
  try {
    return evaluate(ctx, e);
  } catch (err) {
    if (err instanceof RuntimeReference) return fail(ctx, e.start, 'Template directives cannot depend on runtime values such as NOMAD_* or attr.*; use $${...} inside the text instead');
    throw err;
  }
}
