/**
 * Input variables and locals. Sources, lowest to highest precedence, as Nomad's CLI applies them:
 * `default` < NOMAD_VAR_<name> (and our SVC_VAR_<name>, which wins over it) < var files in order < -var.
 */
import { LineIndex } from '../shared/hcl/source.js';
import { JobspecError } from './errors.js';
import {
  evaluate,
  evaluateTop,
  fail,
  isObject,
  typeName,
  type EvalContext,
} from './expressions.js';
import { parseExpression, parseHcl, type Attribute, type Block, type Expr, type SourceFile, type Value } from '../shared/hcl/syntax.js';

export type VarType =
  | { k: 'any' | 'string' | 'number' | 'bool' }
  | { k: 'list' | 'set' | 'map'; of: VarType }
  | { k: 'object'; attrs: Record<string, VarType> }
  | { k: 'tuple'; items: VarType[] };

export interface VariableDecl {
  name: string;
  type: VarType;
  default: Value | undefined;
  description: string | undefined;
  validations: Array<{ condition: Expr; message: Expr }>;
  source: SourceFile;
  at: number;
}

function blankCtx(source: SourceFile, baseDir: string | undefined): EvalContext {
  return { source, vars: undefined, local: undefined, scope: new Map(), baseDir };
}

export function typeToString(t: VarType): string {
  switch (t.k) {
    case 'list':
    case 'set':
    case 'map':
      return `${t.k}(${typeToString(t.of)})`;
    case 'object':
      return `object({${Object.entries(t.attrs).map(([k, v]) => `${k}=${typeToString(v)}`).join(', ')}})`;
    case 'tuple':
      return `tuple([${t.items.map(typeToString).join(', ')}])`;
    default:
      return t.k;
  }
}

function parseType(ctx: EvalContext, e: Expr): VarType {
  if (e.k === 'ref' && ['any', 'string', 'number', 'bool'].includes(e.name)) return { k: e.name as 'any' };
  if (e.k === 'call' && ['list', 'set', 'map'].includes(e.name) && e.args.length === 1) {
    return { k: e.name as 'list', of: parseType(ctx, e.args[0]) };
  }
  if (e.k === 'call' && e.name === 'object' && e.args.length === 1 && e.args[0].k === 'object') {
    const attrs: Record<string, VarType> = {};
    for (const item of e.args[0].items) attrs[String(evaluate(ctx, item.key))] = parseType(ctx, item.value);
    return { k: 'object', attrs };
  }
  if (e.k === 'call' && e.name === 'tuple' && e.args.length === 1 && e.args[0].k === 'tuple') {
    return { k: 'tuple', items: e.args[0].items.map((i) => parseType(ctx, i)) };
  }
  return fail(ctx, e.start, 'Invalid type specification; use string, number, bool, any, list(...), set(...), map(...), object({...}) or tuple([...])');
}

/** Converts a value to a declared type the way HCL does (numbers and bools to strings, "5" to 5, ...). */
export function convertToType(v: Value, t: VarType): { ok: true; value: Value } | { ok: false; why: string } {
  if (v === null) return { ok: true, value: null };
  const bad = (): { ok: false; why: string } => ({ ok: false, why: `${typeToString(t)} required, got ${typeName(v)}` });
  switch (t.k) {
    case 'any':
      return { ok: true, value: v };
    case 'string':
      if (typeof v === 'string') return { ok: true, value: v };
      if (typeof v === 'number' || typeof v === 'boolean') return { ok: true, value: String(v) };
      return bad();
    case 'number':
      if (typeof v === 'number') return { ok: true, value: v };
      if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return { ok: true, value: Number(v) };
      return bad();
    case 'bool':
      if (typeof v === 'boolean') return { ok: true, value: v };
      if (v === 'true' || v === 'false') return { ok: true, value: v === 'true' };
      return bad();
    case 'list':
    case 'set': {
      if (!Array.isArray(v)) return bad();
      const out: Value[] = [];
      for (const [i, item] of v.entries()) {
        const r = convertToType(item, t.of);
        if (!r.ok) return { ok: false, why: `element ${i}: ${r.why}` };
        if (t.k === 'list' || !out.some((o) => JSON.stringify(o) === JSON.stringify(r.value))) out.push(r.value);
      }
      return { ok: true, value: out };
    }
    case 'map': {
      if (!isObject(v)) return bad();
      const out: Record<string, Value> = {};
      for (const [k, item] of Object.entries(v)) {
        const r = convertToType(item, t.of);
        if (!r.ok) return { ok: false, why: `element "${k}": ${r.why}` };
        out[k] = r.value;
      }
      return { ok: true, value: out };
    }
    case 'object': {
      if (!isObject(v)) return bad();
      const out: Record<string, Value> = {};
      for (const [k, at] of Object.entries(t.attrs)) {
        if (!(k in v)) return { ok: false, why: `attribute "${k}" is required` };
        const r = convertToType(v[k], at);
        if (!r.ok) return { ok: false, why: `attribute "${k}": ${r.why}` };
        out[k] = r.value;
      }
      return { ok: true, value: out };
    }
    case 'tuple': {
      if (!Array.isArray(v) || v.length !== t.items.length) return bad();
      const out: Value[] = [];
      for (const [i, item] of v.entries()) {
        const r = convertToType(item, t.items[i]);
        if (!r.ok) return { ok: false, why: `element ${i}: ${r.why}` };
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
  }
}

const VARIABLE_ATTRS = new Set(['type', 'default', 'description', 'sensitive', 'nullable']);

export function declareVariable(source: SourceFile, block: Block, baseDir: string | undefined): VariableDecl {
  const ctx = blankCtx(source, baseDir);
  if (block.labels.length !== 1) fail(ctx, block.start, 'A variable block needs exactly one label: its name');
  const name = block.labels[0];
  const decl: VariableDecl = { name, type: { k: 'any' }, default: undefined, description: undefined, validations: [], source, at: block.start };
  let defaultAttr: Attribute | undefined;
  for (const item of block.body.items) {
    if (item.kind === 'block') {
      if (item.type !== 'validation') fail(ctx, item.start, `variable "${name}": unsupported block type "${item.type}"`);
      const cond = item.body.items.find((i): i is Attribute => i.kind === 'attr' && i.name === 'condition');
      const msg = item.body.items.find((i): i is Attribute => i.kind === 'attr' && i.name === 'error_message');
      if (!cond || !msg) fail(ctx, item.start, `variable "${name}": a validation block needs condition and error_message`);
      decl.validations.push({ condition: cond.expr, message: msg.expr });
      continue;
    }
    if (!VARIABLE_ATTRS.has(item.name)) fail(ctx, item.start, `variable "${name}": unsupported argument "${item.name}"`);
    if (item.name === 'type') decl.type = parseType(ctx, item.expr);
    else if (item.name === 'default') defaultAttr = item;
    else if (item.name === 'description') decl.description = String(evaluate(ctx, item.expr));
  }
  if (defaultAttr) {
    const r = convertToType(evaluate(ctx, defaultAttr.expr), decl.type);
    if (!r.ok) fail(ctx, defaultAttr.expr.start, `Invalid default value for variable "${name}": ${r.why}`);
    decl.default = r.value;
  }
  return decl;
}

/** `variables { a = 1 }`: each attribute declares an untyped variable with that default. */
export function declareVariablesBlock(source: SourceFile, block: Block, baseDir: string | undefined): VariableDecl[] {
  const ctx = blankCtx(source, baseDir);
  return block.body.items.map((item) => {
    if (item.kind === 'block') return fail(ctx, item.start, `variables: blocks are not allowed here ("${item.type}")`);
    return { name: item.name, type: { k: 'any' }, default: evaluate(ctx, item.expr), description: undefined, validations: [], source, at: item.start };
  });
}

/** A -var or env value: a plain string for string/any types, an HCL expression for the others. */
function fromRawString(decl: VariableDecl, raw: string, origin: string): Value {
  if (decl.type.k === 'string' || decl.type.k === 'any') return raw;
  if (decl.type.k === 'number' || decl.type.k === 'bool') return raw.trim();
  const expr = parseExpression(raw, origin, JobspecError);
  return evaluate(blankCtx({ body: { items: [] }, text: raw, lines: new LineIndex(origin, raw) }, undefined), expr);
}

export interface VariableInputs {
  variables?: Record<string, string>;
  varFiles?: Array<{ name: string; content: string }>;
  env?: Record<string, string | undefined>;
}

export function resolveVariables(decls: Map<string, VariableDecl>, inputs: VariableInputs, baseDir: string | undefined): Record<string, Value> {
  const chosen = new Map<string, { value: Value; origin: string }>();
  for (const decl of decls.values()) if (decl.default !== undefined) chosen.set(decl.name, { value: decl.default, origin: `the default of variable "${decl.name}"` });

  for (const prefix of ['NOMAD_VAR_', 'SVC_VAR_']) {
    for (const [key, raw] of Object.entries(inputs.env ?? {})) {
      if (!key.startsWith(prefix) || raw === undefined) continue;
      const name = key.slice(prefix.length);
      // Unknown env variables are ignored, as upstream does: the environment is shared with other jobs.
      const decl = decls.get(name);
      if (decl) chosen.set(name, { value: fromRawString(decl, raw, key), origin: `environment variable ${key}` });
    }
  }

  for (const file of inputs.varFiles ?? []) {
    for (const [name, { value, at, source }] of readVarFile(file.name, file.content, baseDir)) {
      if (!decls.has(name)) throw new JobspecError(`Undefined variable "${name}": the var file sets a variable the job does not declare`, source.lines.pos(at));
      chosen.set(name, { value, origin: `var file ${file.name}` });
    }
  }

  for (const [name, raw] of Object.entries(inputs.variables ?? {})) {
    const decl = decls.get(name);
    if (!decl) throw new JobspecError(`Undefined -var variable "${name}": the job declares no variable "${name}"`);
    chosen.set(name, { value: fromRawString(decl, raw, `-var ${name}`), origin: `-var ${name}` });
  }

  const out: Record<string, Value> = {};
  for (const decl of decls.values()) {
    const got = chosen.get(decl.name);
    if (!got) {
      throw new JobspecError(`Unset variable "${decl.name}": a used variable must be set or have a default value`, decl.source.lines.pos(decl.at));
    }
    const r = convertToType(got.value, decl.type);
    if (!r.ok) throw new JobspecError(`Invalid value for variable "${decl.name}" from ${got.origin}: ${r.why}`);
    out[decl.name] = r.value;
  }

  for (const decl of decls.values()) {
    for (const v of decl.validations) {
      const ctx: EvalContext = { ...blankCtx(decl.source, baseDir), vars: { [decl.name]: out[decl.name] } };
      const ok = evaluate(ctx, v.condition);
      if (ok !== true) throw new JobspecError(`Invalid value for variable "${decl.name}": ${String(evaluate(ctx, v.message))}`, decl.source.lines.pos(v.condition.start));
    }
  }
  return out;
}

/** Reads `name = value` lines (or a JSON object) from a var file. */
function readVarFile(name: string, content: string, baseDir: string | undefined): Map<string, { value: Value; at: number; source: SourceFile }> {
  const out = new Map<string, { value: Value; at: number; source: SourceFile }>();
  const trimmed = content.trimStart();
  if (trimmed.startsWith('{')) {
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch (err) {
      throw new JobspecError(`${name}: invalid JSON var file: ${(err as Error).message}`);
    }
    const source = parseHcl('', name, JobspecError);
    if (!isObject(data as Value)) throw new JobspecError(`${name}: a JSON var file must hold an object`);
    for (const [k, v] of Object.entries(data as Record<string, Value>)) out.set(k, { value: v, at: 0, source });
    return out;
  }
  const source = parseHcl(content, name, JobspecError);
  const ctx = blankCtx(source, baseDir);
  for (const item of source.body.items) {
    if (item.kind === 'block') fail(ctx, item.start, `${item.type === 'variable' ? 'Variable declaration in a var file; declare variables in the job file' : `Unexpected block "${item.type}" in a var file`}`);
    out.set(item.name, { value: evaluate(ctx, item.expr), at: item.start, source });
  }
  return out;
}

/**
 * Builds the `local.*` resolver. Locals are evaluated on first use, which gives dependency order without
 * sorting; a local reached again while it is being evaluated is a cycle.
 */
export function makeLocals(
  entries: Array<{ attr: Attribute; source: SourceFile }>,
  vars: Record<string, Value>,
  baseDir: string | undefined,
): (name: string, at: number, from: SourceFile) => Value {
  const byName = new Map<string, { attr: Attribute; source: SourceFile }>();
  for (const e of entries) {
    if (byName.has(e.attr.name)) throw new JobspecError(`Duplicate local value "${e.attr.name}"`, e.source.lines.pos(e.attr.start));
    byName.set(e.attr.name, e);
  }
  const done = new Map<string, Value>();
  const active = new Set<string>();
  const resolve = (name: string, at: number, from: SourceFile): Value => {
    if (done.has(name)) return done.get(name)!;
    const entry = byName.get(name);
    if (!entry) throw new JobspecError(`Reference to undeclared local value "local.${name}"; declare it in a locals block`, from.lines.pos(at));
    if (active.has(name)) throw new JobspecError(`Cycle in local values: "local.${name}" depends on itself`, from.lines.pos(at));
    active.add(name);
    const ctx: EvalContext = {
      source: entry.source,
      vars,
      local: (n, a) => resolve(n, a, entry.source),
      scope: new Map(),
      baseDir,
    };
    const value = evaluateTop(ctx, entry.attr.expr);
    active.delete(name);
    done.set(name, value);
    return value;
  };
  for (const name of byName.keys()) resolve(name, byName.get(name)!.attr.start, byName.get(name)!.source);
  return resolve;
}
