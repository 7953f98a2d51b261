/**
 * The HCL function subset that job files use. Names and argument rules follow the HCL/Terraform stdlib
 * so a job file that works with Nomad gives the same value here.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type Re2, Re2SyntaxError, compileRe2 } from '../shared/re2/index.js';
import {
  asBool,
  asNumber,
  asString,
  fail,
  isObject,
  typeName,
  type EvalContext,
} from './expressions.js';
import type { Value } from '../shared/hcl/syntax.js';

type Fn = (ctx: EvalContext, args: Value[], at: number) => Value;

function arity(ctx: EvalContext, name: string, args: Value[], at: number, min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    fail(ctx, at, `Invalid function call: ${name}() takes ${want} argument${want === '1' ? '' : 's'}, got ${args.length}`);
  }
}

function list(ctx: EvalContext, name: string, v: Value, at: number): Value[] {
  if (Array.isArray(v)) return v;
  return fail(ctx, at, `Invalid function argument: ${name}() needs a list, got ${typeName(v)}`);
}

function map(ctx: EvalContext, name: string, v: Value, at: number): Record<string, Value> {
  if (isObject(v)) return v;
  return fail(ctx, at, `Invalid function argument: ${name}() needs a map, got ${typeName(v)}`);
}

/** An RE2 pattern argument, as Go's regexp reads it. */
function pattern(ctx: EvalContext, name: string, source: string, at: number): Re2 {
  try {
    return compileRe2(source);
  } catch (err) {
    if (!(err instanceof Re2SyntaxError)) throw err;
    return fail(ctx, at, `Invalid function argument: ${name}() got an invalid pattern: ${err.message}`);
  }
}

/** Go's fmt verbs as HCL's format() supports them: %s %d %f %v %q %t %x %o %b %e and %%. */
function format(ctx: EvalContext, spec: string, args: Value[], at: number): string {
  let i = 0;
  return spec.replace(/%([-+ 0#]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g, (_m, flags: string, width?: string, prec?: string, verb?: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return fail(ctx, at, `Invalid function argument: format() has too few arguments for "${spec}"`);
    const v = args[i++];
    let s: string;
    switch (verb) {
      case 's':
        s = asString(ctx, v, at);
        break;
      case 'v':
        s = typeof v === 'object' && v !== null ? JSON.stringify(v) : asString(ctx, v, at);
        break;
      case 'q':
        s = JSON.stringify(asString(ctx, v, at));
        break;
      case 'd':
        s = String(Math.trunc(asNumber(ctx, v, at)));
        break;
      case 'f':
        s = asNumber(ctx, v, at).toFixed(prec === undefined ? 6 : Number(prec));
        break;
      case 'e':
        s = asNumber(ctx, v, at).toExponential(prec === undefined ? 6 : Number(prec));
        break;
      case 't':
        s = String(asBool(ctx, v, at));
        break;
      case 'x':
        s = Math.trunc(asNumber(ctx, v, at)).toString(16);
        break;
      case 'X':
        s = Math.trunc(asNumber(ctx, v, at)).toString(16).toUpperCase();
        break;
      case 'o':
        s = Math.trunc(asNumber(ctx, v, at)).toString(8);
        break;
      case 'b':
        s = Math.trunc(asNumber(ctx, v, at)).toString(2);
        break;
      default:
        return fail(ctx, at, `Invalid function argument: format() does not support the verb %${verb}`);
    }
    if (flags.includes('+') && /[df]/.test(verb) && !s.startsWith('-')) s = '+' + s;
    const w = width === undefined ? 0 : Number(width);
    if (s.length < w) {
      if (flags.includes('-')) s = s.padEnd(w);
      else if (flags.includes('0') && /[dfe]/.test(verb)) s = (s.startsWith('-') ? '-' : '') + s.replace(/^-/, '').padStart(w - (s.startsWith('-') ? 1 : 0), '0');
      else s = s.padStart(w);
    }
    return s;
  });
}

function toValue(x: unknown): Value {
  if (x === undefined) return null;
  return x as Value;
}

const FUNCTIONS: Record<string, Fn> = {
  upper: (ctx, a, at) => (arity(ctx, 'upper', a, at, 1), asString(ctx, a[0], at).toUpperCase()),
  lower: (ctx, a, at) => (arity(ctx, 'lower', a, at, 1), asString(ctx, a[0], at).toLowerCase()),
  title: (ctx, a, at) => (arity(ctx, 'title', a, at, 1), asString(ctx, a[0], at).replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase())),
  trimspace: (ctx, a, at) => (arity(ctx, 'trimspace', a, at, 1), asString(ctx, a[0], at).trim()),
  format: (ctx, a, at) => (arity(ctx, 'format', a, at, 1, Infinity), format(ctx, asString(ctx, a[0], at), a.slice(1), at)),
  join: (ctx, a, at) => {
    arity(ctx, 'join', a, at, 2, Infinity);
    const sep = asString(ctx, a[0], at);
    return a.slice(1).flatMap((l) => list(ctx, 'join', l, at)).map((v) => asString(ctx, v, at)).join(sep);
  },
  split: (ctx, a, at) => {
    arity(ctx, 'split', a, at, 2);
    const s = asString(ctx, a[1], at);
    return s === '' ? [] : s.split(asString(ctx, a[0], at));
  },
  replace: (ctx, a, at) => {
    arity(ctx, 'replace', a, at, 3);
    const s = asString(ctx, a[0], at);
    const find = asString(ctx, a[1], at);
    const rep = asString(ctx, a[2], at);
    // As in Terraform: a search string wrapped in slashes is a regular expression.
    if (find.length > 1 && find.startsWith('/') && find.endsWith('/')) {
      return pattern(ctx, 'replace', find.slice(1, -1), at).replaceAll(s, rep);
    }
    return s.split(find).join(rep);
  },
  substr: (ctx, a, at) => {
    arity(ctx, 'substr', a, at, 3);
    const chars = Array.from(asString(ctx, a[0], at));
    let offset = asNumber(ctx, a[1], at);
    const length = asNumber(ctx, a[2], at);
    if (offset < 0) offset = Math.max(0, chars.length + offset);
    return chars.slice(offset, length < 0 ? undefined : offset + length).join('');
  },
  concat: (ctx, a, at) => a.flatMap((l) => list(ctx, 'concat', l, at)),
  merge: (ctx, a, at) => Object.assign({}, ...a.filter((m) => m !== null).map((m) => map(ctx, 'merge', m, at))) as Value,
  lookup: (ctx, a, at) => {
    arity(ctx, 'lookup', a, at, 2, 3);
    const m = map(ctx, 'lookup', a[0], at);
    const k = asString(ctx, a[1], at);
    if (k in m) return m[k];
    if (a.length === 3) return a[2];
    return fail(ctx, at, `Invalid function argument: lookup() found no key "${k}" and no default was given`);
  },
  keys: (ctx, a, at) => (arity(ctx, 'keys', a, at, 1), Object.keys(map(ctx, 'keys', a[0], at)).sort()),
  values: (ctx, a, at) => {
    arity(ctx, 'values', a, at, 1);
    const m = map(ctx, 'values', a[0], at);
    return Object.keys(m).sort().map((k) => m[k]);
  },
  contains: (ctx, a, at) => {
    arity(ctx, 'contains', a, at, 2);
    const needle = JSON.stringify(a[1]);
    return list(ctx, 'contains', a[0], at).some((v) => JSON.stringify(v) === needle);
  },
  element: (ctx, a, at) => {
    arity(ctx, 'element', a, at, 2);
    const l = list(ctx, 'element', a[0], at);
    if (l.length === 0) return fail(ctx, at, 'Invalid function argument: element() cannot use an empty list');
    const i = Math.trunc(asNumber(ctx, a[1], at));
    if (i < 0) return fail(ctx, at, 'Invalid function argument: element() index must not be negative');
    return l[i % l.length];
  },
  length: (ctx, a, at) => {
    arity(ctx, 'length', a, at, 1);
    const v = a[0];
    if (typeof v === 'string') return Array.from(v).length;
    if (Array.isArray(v)) return v.length;
    if (isObject(v)) return Object.keys(v).length;
    return fail(ctx, at, `Invalid function argument: length() needs a string, list or map, got ${typeName(v)}`);
  },
  coalesce: (ctx, a, at) => {
    const found = a.find((v) => v !== null && v !== '');
    if (found === undefined) return fail(ctx, at, 'Invalid function argument: coalesce() got no non-null, non-empty argument');
    return found;
  },
  min: (ctx, a, at) => (arity(ctx, 'min', a, at, 1, Infinity), Math.min(...a.map((v) => asNumber(ctx, v, at)))),
  max: (ctx, a, at) => (arity(ctx, 'max', a, at, 1, Infinity), Math.max(...a.map((v) => asNumber(ctx, v, at)))),
  abs: (ctx, a, at) => (arity(ctx, 'abs', a, at, 1), Math.abs(asNumber(ctx, a[0], at))),
  ceil: (ctx, a, at) => (arity(ctx, 'ceil', a, at, 1), Math.ceil(asNumber(ctx, a[0], at))),
  floor: (ctx, a, at) => (arity(ctx, 'floor', a, at, 1), Math.floor(asNumber(ctx, a[0], at))),
  range: (ctx, a, at) => {
    arity(ctx, 'range', a, at, 1, 3);
    const n = a.map((v) => asNumber(ctx, v, at));
    const [start, end, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? (n[0] <= n[1] ? 1 : -1)];
    if (step === 0) return fail(ctx, at, 'Invalid function argument: range() step must not be zero');
    const out: number[] = [];
    for (let x = start; step > 0 ? x < end : x > end; x += step) {
      out.push(x);
      if (out.length > 1024) return fail(ctx, at, 'Invalid function argument: range() may produce at most 1024 numbers');
    }
    return out;
  },
  tostring: (ctx, a, at) => (arity(ctx, 'tostring', a, at, 1), a[0] === null ? null : asString(ctx, a[0], at)),
  tonumber: (ctx, a, at) => (arity(ctx, 'tonumber', a, at, 1), a[0] === null ? null : asNumber(ctx, a[0], at)),
  tobool: (ctx, a, at) => (arity(ctx, 'tobool', a, at, 1), a[0] === null ? null : asBool(ctx, a[0], at)),
  tolist: (ctx, a, at) => (arity(ctx, 'tolist', a, at, 1), list(ctx, 'tolist', a[0], at)),
  tomap: (ctx, a, at) => (arity(ctx, 'tomap', a, at, 1), map(ctx, 'tomap', a[0], at)),
  jsonencode: (ctx, a, at) => (arity(ctx, 'jsonencode', a, at, 1), JSON.stringify(a[0])),
  jsondecode: (ctx, a, at) => {
    arity(ctx, 'jsondecode', a, at, 1);
    try {
      return toValue(JSON.parse(asString(ctx, a[0], at)));
    } catch (err) {
      return fail(ctx, at, `Invalid function argument: jsondecode() got invalid JSON: ${(err as Error).message}`);
    }
  },
  trim: (ctx, a, at) => {
    arity(ctx, 'trim', a, at, 2);
    const cut = new Set(Array.from(asString(ctx, a[1], at)));
    const chars = Array.from(asString(ctx, a[0], at));
    let i = 0;
    let j = chars.length;
    while (i < j && cut.has(chars[i])) i++;
    while (j > i && cut.has(chars[j - 1])) j--;
    return chars.slice(i, j).join('');
  },
  trimprefix: (ctx, a, at) => {
    arity(ctx, 'trimprefix', a, at, 2);
    const s = asString(ctx, a[0], at);
    const p = asString(ctx, a[1], at);
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
  trimsuffix: (ctx, a, at) => {
    arity(ctx, 'trimsuffix', a, at, 2);
    const s = asString(ctx, a[0], at);
    const p = asString(ctx, a[1], at);
    return p !== '' && s.endsWith(p) ? s.slice(0, -p.length) : s;
  },
  chomp: (ctx, a, at) => (arity(ctx, 'chomp', a, at, 1), asString(ctx, a[0], at).replace(/(\r?\n)+$/, '')),
  startswith: (ctx, a, at) => (arity(ctx, 'startswith', a, at, 2), asString(ctx, a[0], at).startsWith(asString(ctx, a[1], at))),
  endswith: (ctx, a, at) => (arity(ctx, 'endswith', a, at, 2), asString(ctx, a[0], at).endsWith(asString(ctx, a[1], at))),
  strrev: (ctx, a, at) => (arity(ctx, 'strrev', a, at, 1), Array.from(asString(ctx, a[0], at)).reverse().join('')),
  indent: (ctx, a, at) => {
    arity(ctx, 'indent', a, at, 2);
    const pad = ' '.repeat(asNumber(ctx, a[0], at));
    return asString(ctx, a[1], at).replace(/\n/g, '\n' + pad);
  },
  regex_replace: (ctx, a, at) => {
    arity(ctx, 'regex_replace', a, at, 3);
    return pattern(ctx, 'regex_replace', asString(ctx, a[1], at), at).replaceAll(asString(ctx, a[0], at), asString(ctx, a[2], at));
  },
  base64encode: (ctx, a, at) => (arity(ctx, 'base64encode', a, at, 1), Buffer.from(asString(ctx, a[0], at), 'utf8').toString('base64')),
  base64decode: (ctx, a, at) => (arity(ctx, 'base64decode', a, at, 1), Buffer.from(asString(ctx, a[0], at), 'base64').toString('utf8')),
  formatlist: (ctx, a, at) => {
    arity(ctx, 'formatlist', a, at, 1, Infinity);
    const spec = asString(ctx, a[0], at);
    const rest = a.slice(1);
    const lengths = rest.filter(Array.isArray).map((l) => (l as Value[]).length);
    if (new Set(lengths).size > 1) return fail(ctx, at, 'Invalid function argument: formatlist() lists must all have the same length');
    const n = lengths[0] ?? 1;
    return Array.from({ length: n }, (_v, i) => format(ctx, spec, rest.map((r) => (Array.isArray(r) ? r[i] : r)), at));
  },
  flatten: (ctx, a, at) => {
    arity(ctx, 'flatten', a, at, 1);
    const flat = (l: Value[]): Value[] => l.flatMap((v) => (Array.isArray(v) ? flat(v) : [v]));
    return flat(list(ctx, 'flatten', a[0], at));
  },
  distinct: (ctx, a, at) => {
    arity(ctx, 'distinct', a, at, 1);
    const seen = new Set<string>();
    return list(ctx, 'distinct', a[0], at).filter((v) => {
      const k = JSON.stringify(v);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  },
  compact: (ctx, a, at) => (arity(ctx, 'compact', a, at, 1), list(ctx, 'compact', a[0], at).filter((v) => v !== null && v !== '')),
  reverse: (ctx, a, at) => (arity(ctx, 'reverse', a, at, 1), [...list(ctx, 'reverse', a[0], at)].reverse()),
  sort: (ctx, a, at) => (arity(ctx, 'sort', a, at, 1), list(ctx, 'sort', a[0], at).map((v) => asString(ctx, v, at)).sort()),
  slice: (ctx, a, at) => {
    arity(ctx, 'slice', a, at, 3);
    const l = list(ctx, 'slice', a[0], at);
    const from = asNumber(ctx, a[1], at);
    const to = asNumber(ctx, a[2], at);
    if (from < 0 || to > l.length || from > to) return fail(ctx, at, `Invalid function argument: slice() indexes ${from}..${to} are out of range for a list of ${l.length}`);
    return l.slice(from, to);
  },
  index: (ctx, a, at) => {
    arity(ctx, 'index', a, at, 2);
    const needle = JSON.stringify(a[1]);
    const i = list(ctx, 'index', a[0], at).findIndex((v) => JSON.stringify(v) === needle);
    if (i < 0) return fail(ctx, at, 'Invalid function argument: index() did not find the item in the list');
    return i;
  },
  sum: (ctx, a, at) => (arity(ctx, 'sum', a, at, 1), list(ctx, 'sum', a[0], at).reduce<number>((t, v) => t + asNumber(ctx, v, at), 0)),
  zipmap: (ctx, a, at) => {
    arity(ctx, 'zipmap', a, at, 2);
    const k = list(ctx, 'zipmap', a[0], at);
    const v = list(ctx, 'zipmap', a[1], at);
    if (k.length !== v.length) return fail(ctx, at, 'Invalid function argument: zipmap() lists must have the same length');
    return Object.fromEntries(k.map((key, i) => [asString(ctx, key, at), v[i]]));
  },
  toset: (ctx, a, at) => (arity(ctx, 'toset', a, at, 1), FUNCTIONS.distinct(ctx, a, at)),
  file: (ctx, a, at) => {
    arity(ctx, 'file', a, at, 1);
    if (ctx.baseDir === undefined) return fail(ctx, at, 'Invalid function call: file() is not available here; files are only read when a job file is parsed from disk');
    const p = asString(ctx, a[0], at);
    try {
      return readFileSync(isAbsolute(p) ? p : resolve(ctx.baseDir, p), 'utf8');
    } catch (err) {
      return fail(ctx, at, `Invalid function argument: file() could not read "${p}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  },
};

export function callFunction(ctx: EvalContext, name: string, args: Value[], at: number): Value {
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!fn) return fail(ctx, at, `Call to unknown function "${name}"`);
  return fn(ctx, args, at);
}
