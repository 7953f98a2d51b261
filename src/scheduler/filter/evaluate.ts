/**
 * Evaluates a parsed filter against a JSON datum with go-bexpr's semantics.
 *
 * Upstream evaluates Go structs and maps; we evaluate the JSON we emit. Choices that follow from that:
 * - Every JSON object is treated as a Go map: a key it does not have is a *missing map key*, never the
 *   "missing struct field" evaluation error, because the JSON cannot tell a struct from a map and omits
 *   zero-valued fields (`_struct omitempty`) that upstream would still find on the struct.
 * - `null` is a nil map/slice/pointer: selecting through it is a missing key; as an operand it is empty,
 *   `is nil`, contains nothing, matches nothing, and equals no literal.
 * - A list index past the end is a missing key as well.
 * - Selecting a key of a string, number or boolean, or a non-numeric key of a list, is an error.
 */
import { UserError } from '../../shared/errors.js';
import { parseGoBool } from '../../shared/go-bool.js';
import type { Re2 } from '../../shared/re2/index.js';
import type { CollectionExpr, Expr, MatchExpr, Selector } from './parser.js';

type Scope = ReadonlyMap<string, unknown>;

type Found = { found: true; value: unknown } | { found: false };

const MISSING: Found = { found: false };

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function selectorLabel(sel: Selector): string {
  return sel.form === 'pointer' ? `"${sel.text}"` : sel.text;
}

function findError(sel: Selector, reason: string): UserError {
  return new UserError(`error finding value in datum: selector ${selectorLabel(sel)}: ${reason}`);
}

function evalError(sel: Selector, reason: string): UserError {
  return new UserError(`error evaluating filter at selector ${selectorLabel(sel)}: ${reason}`);
}

/**
 * Walks a selector. A first segment naming a collection binding starts from the bound value; any other
 * selector starts from the datum being filtered, so a collection body can still compare against the
 * surrounding object.
 */
function resolve(sel: Selector, datum: unknown, scope: Scope): Found {
  let path = sel.path;
  let cur: unknown = datum;
  if (path.length > 0 && scope.has(path[0])) {
    cur = scope.get(path[0]);
    path = path.slice(1);
  }
  for (const seg of path) {
    const kind = kindOf(cur);
    if (kind === 'null') return MISSING;
    if (kind === 'map') {
      const obj = cur as Record<string, unknown>;
      if (!Object.prototype.hasOwnProperty.call(obj, seg)) return MISSING;
      cur = obj[seg];
      continue;
    }
    if (kind === 'list') {
      if (!/^[0-9]+$/.test(seg)) throw findError(sel, `cannot select key "${seg}" of a list; use a number`);
      const list = cur as unknown[];
      const i = Number(seg);
      if (i >= list.length) return MISSING;
      cur = list[i];
      continue;
    }
    throw findError(sel, `cannot select key "${seg}" of a ${kind}`);
  }
  return { found: true, value: cur };
}


/** Go's strconv.ParseInt (base prefixes allowed) / ParseFloat, as one JavaScript number. */
function coerceNumber(raw: string): number | undefined {
  const based = /^([+-]?)0([xXoObB])([0-9a-fA-F]+)$/.exec(raw);
  if (based) {
    const radix = { x: 16, o: 8, b: 2 }[based[2].toLowerCase() as 'x' | 'o' | 'b'];
    const n = parseInt(based[3], radix);
    return Number.isNaN(n) ? undefined : based[1] === '-' ? -n : n;
  }
  if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(raw)) return undefined;
  return Number(raw);
}

type Eq = { ok: true; equal: boolean } | { ok: false; reason: string };

/** Compares a literal to a field by first converting the literal to the field's kind, as upstream does. */
function literalEquals(raw: string, v: unknown): Eq {
  switch (kindOf(v)) {
    case 'string':
      return { ok: true, equal: raw === v };
    case 'bool': {
      const b = parseGoBool(raw);
      return b === undefined ? { ok: false, reason: `cannot read ${JSON.stringify(raw)} as a bool` } : { ok: true, equal: b === v };
    }
    case 'number': {
      const n = coerceNumber(raw);
      return n === undefined ? { ok: false, reason: `cannot read ${JSON.stringify(raw)} as a number` } : { ok: true, equal: n === v };
    }
    case 'null':
      return { ok: true, equal: false };
    default:
      return { ok: false, reason: `cannot compare a ${kindOf(v)} with a value` };
  }
}

function contains(expr: MatchExpr, v: unknown): boolean {
  const raw = expr.value ?? '';
  const kind = kindOf(v);
  if (kind === 'null') return false;
  if (kind === 'string') return (v as string).includes(raw);
  if (kind === 'map') return Object.prototype.hasOwnProperty.call(v, raw);
  if (kind === 'list') {
    for (const item of v as unknown[]) {
      const eq = literalEquals(raw, item);
      if (eq.ok) {
        if (eq.equal) return true;
        continue;
      }
      // Like upstream with a list of mixed kinds: an element the literal cannot be read as is skipped,
      // but a nested list or map cannot be compared at all.
      const ik = kindOf(item);
      if (ik === 'list' || ik === 'map') throw evalError(expr.selector, `cannot use "in"/"contains" on a list of ${ik}s`);
    }
    return false;
  }
  throw evalError(expr.selector, `cannot use "in"/"contains" on a ${kind}`);
}

function isEmpty(expr: MatchExpr, v: unknown): boolean {
  const kind = kindOf(v);
  if (kind === 'null') return true;
  if (kind === 'string' || kind === 'list') return (v as string | unknown[]).length === 0;
  if (kind === 'map') return Object.keys(v as object).length === 0;
  throw evalError(expr.selector, `cannot use "is empty" on a ${kind}`);
}

function matches(expr: MatchExpr, v: unknown): boolean {
  const kind = kindOf(v);
  if (kind === 'null') return false;
  if (kind !== 'string') throw evalError(expr.selector, `cannot use "matches" on a ${kind}; it needs a string`);
  return (expr.regex as Re2).test(v as string);
}

/** What each operator answers when its selector names a missing map key. */
const ON_MISSING: Record<MatchExpr['op'], boolean> = {
  '==': false,
  '!=': true,
  in: false,
  'not in': true,
  matches: false,
  'not matches': true,
  'is empty': true,
  'is not empty': false,
  'is nil': true,
  'is not nil': false,
};

function evalMatch(expr: MatchExpr, datum: unknown, scope: Scope): boolean {
  const found = resolve(expr.selector, datum, scope);
  if (!found.found) return ON_MISSING[expr.op];
  const v = found.value;
  switch (expr.op) {
    case '==':
    case '!=': {
      const eq = literalEquals(expr.value ?? '', v);
      if (!eq.ok) throw evalError(expr.selector, eq.reason);
      return expr.op === '==' ? eq.equal : !eq.equal;
    }
    case 'in':
      return contains(expr, v);
    case 'not in':
      return !contains(expr, v);
    case 'matches':
      return matches(expr, v);
    case 'not matches':
      return !matches(expr, v);
    case 'is empty':
      return isEmpty(expr, v);
    case 'is not empty':
      return !isEmpty(expr, v);
    case 'is nil':
      return kindOf(v) === 'null';
    case 'is not nil':
      return kindOf(v) !== 'null';
  }
}

/** Yields [index or key, element] for a list or map; a missing or null collection has no elements. */
function entries(
  expr: CollectionExpr,
  datum: unknown,
  scope: Scope,
): { isMap: boolean; items: Array<[string | number, unknown]> } {
  const found = resolve(expr.selector, datum, scope);
  const v = found.found ? found.value : null;
  const kind = kindOf(v);
  if (kind === 'null') return { isMap: false, items: [] };
  if (kind === 'list') return { isMap: false, items: (v as unknown[]).map((item, i) => [i, item]) };
  if (kind === 'map') return { isMap: true, items: Object.entries(v as Record<string, unknown>) };
  throw evalError(expr.selector, `"${expr.op}" needs a list or a map, found a ${kind}`);
}

function evalCollection(expr: CollectionExpr, datum: unknown, scope: Scope): boolean {
  const { isMap, items } = entries(expr, datum, scope);
  for (const [key, item] of items) {
    const inner = new Map(scope);
    const b = expr.binding;
    if (b.mode === 'single') {
      // One name binds what `in` would test: the element of a list, the key of a map.
      inner.set(b.name, isMap ? key : item);
    } else {
      if (b.index !== undefined) inner.set(b.index, key);
      if (b.value !== undefined) inner.set(b.value, item);
    }
    const result = evalExpr(expr.body, datum, inner);
    if (expr.op === 'any' && result) return true;
    if (expr.op === 'all' && !result) return false;
  }
  return expr.op === 'all';
}

export function evalExpr(expr: Expr, datum: unknown, scope: Scope): boolean {
  switch (expr.type) {
    case 'or':
      return evalExpr(expr.left, datum, scope) || evalExpr(expr.right, datum, scope);
    case 'and':
      return evalExpr(expr.left, datum, scope) && evalExpr(expr.right, datum, scope);
    case 'not':
      return !evalExpr(expr.operand, datum, scope);
    case 'match':
      return evalMatch(expr, datum, scope);
    case 'collection':
      return evalCollection(expr, datum, scope);
  }
}

export function evaluate(expr: Expr, datum: unknown): boolean {
  try {
    return evalExpr(expr, datum, new Map());
  } catch (err) {
    if (err instanceof RangeError) throw new UserError('error evaluating filter: expression is too deeply nested');
    throw err;
  }
}
