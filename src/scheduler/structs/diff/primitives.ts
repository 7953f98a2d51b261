/**
 * The building blocks every diff is made of, with Nomad's rules: objects are flattened to name → string
 * maps, an empty string counts as "not set" (so "" → "x" is Added, not Edited), unchanged fields are kept
 * (as None) only in contextual diffs, and fields and objects are sorted.
 */
import { deepEqual } from '../copy.js';
import type { DiffType, FieldDiff, ObjectDiff } from './types.js';

/** A flattened object; null stands for "no object on this side" (Go's nil map). */
export type Flat = Record<string, string> | null;

type Obj = object | null | undefined;

export const listOrNull = <T>(list: T[]): T[] | null => (list.length === 0 ? null : list);

/** An int64 (or uint64) field as Go prints it. */
export function intString(v: number): string {
  return Number.isInteger(v) ? v.toFixed(0) : String(v);
}

/**
 * A float64 as Go's %v prints it: the shortest digits, in exponent form (two-digit exponent) below 1e-4 and
 * from 1e6 on. Driver config values are float64 in Nomad (decoded JSON), so `1000000` shows as `1e+06`.
 */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, e] = v.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return intString(v);
  return undefined;
}

export interface FlatOptions {
  /** string-keyed maps flattened as `Name[key]` (map[string]string fields: Meta, Env, …) */
  maps?: readonly string[];
  /** keys removed after flattening (Go flatmap's filter: exact names, map entries included) */
  filter?: readonly string[];
}

/**
 * The primitive fields of a struct (flatmap.Flatten(obj, filter, true)): scalars, and the entries of the
 * named string maps. Nested objects, lists and nulls are left to their own diffs.
 */
export function primitiveFlat(obj: Obj, opts: FlatOptions = {}): Flat {
  if (obj === null || obj === undefined) return null;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (opts.maps?.includes(key)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) {
          const s = scalar(v);
          if (s !== undefined) out[`${key}[${k}]`] = s;
        }
      }
      continue;
    }
    const s = scalar(value);
    if (s !== undefined) out[key] = s;
  }
  for (const f of opts.filter ?? []) delete out[f];
  return out;
}

/**
 * Everything, flattened (flatmap.Flatten(obj, nil, false)): map keys as `a[b]`, list items as `a[0]`,
 * struct fields (style 'struct') as `a.b`, null as `nil`. Numbers are float64 unless `ints` says otherwise.
 */
export function fullFlat(obj: Obj, opts: { style?: 'map' | 'struct'; ints?: boolean } = {}): Flat {
  if (obj === null || obj === undefined) return null;
  const out: Record<string, string> = {};
  const num = opts.ints ? intString : goFloat;
  const walk = (prefix: string, v: unknown): void => {
    if (v === null || v === undefined) out[prefix] = 'nil';
    else if (typeof v === 'number') out[prefix] = num(v);
    else if (typeof v === 'string' || typeof v === 'boolean') out[prefix] = scalar(v)!;
    else if (Array.isArray(v)) v.forEach((item, i) => walk(`${prefix}[${i}]`, item));
    else if (typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const sub = prefix === '' ? k : opts.style === 'struct' ? `${prefix}.${k}` : `${prefix}[${k}]`;
        walk(sub, item);
      }
    }
  };
  walk('', obj);
  delete out[''];
  return out;
}

/** One field; undefined when unchanged and not contextual. */
export function fieldDiff(oldV: string, newV: string, name: string, contextual: boolean): FieldDiff | undefined {
  if (oldV === newV) return contextual ? { Type: 'None', Name: name, Old: oldV, New: newV, Annotations: null } : undefined;
  if (oldV === '') return { Type: 'Added', Name: name, Old: '', New: newV, Annotations: null };
  if (newV === '') return { Type: 'Deleted', Name: name, Old: oldV, New: '', Annotations: null };
  return { Type: 'Edited', Name: name, Old: oldV, New: newV, Annotations: null };
}

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function compareFields(a: FieldDiff, b: FieldDiff): number {
  return byteOrder(a.Name, b.Name) || byteOrder(a.Old, b.Old) || byteOrder(a.New, b.New);
}

/** Edited, Added, Deleted, None: the order Nomad sorts same-named objects in. */
const TYPE_RANK: Record<DiffType, number> = { Edited: 0, Added: 1, Deleted: 2, None: 3 };

export function compareObjects(a: ObjectDiff, b: ObjectDiff): number {
  const byName = byteOrder(a.Name, b.Name) || TYPE_RANK[a.Type] - TYPE_RANK[b.Type];
  if (byName) return byName;
  const af = a.Fields ?? [];
  const bf = b.Fields ?? [];
  const ao = a.Objects ?? [];
  const bo = b.Objects ?? [];
  if (af.length !== bf.length) return af.length - bf.length;
  if (ao.length !== bo.length) return ao.length - bo.length;
  for (let i = 0; i < af.length; i++) {
    const c = compareFields(af[i], bf[i]);
    if (c) return c;
  }
  for (let i = 0; i < ao.length; i++) {
    const c = compareObjects(ao[i], bo[i]);
    if (c) return c;
  }
  return 0;
}

export const sortObjects = (list: ObjectDiff[]): ObjectDiff[] => list.sort(compareObjects);

/** The diffs of two flattened objects, sorted; null when none. */
export function fieldDiffs(oldFlat: Flat, newFlat: Flat, contextual: boolean): FieldDiff[] | null {
  const o = oldFlat ?? {};
  const n = newFlat ?? {};
  const out: FieldDiff[] = [];
  for (const name of new Set([...Object.keys(o), ...Object.keys(n)])) {
    const d = fieldDiff(o[name] ?? '', n[name] ?? '', name, contextual);
    if (d) out.push(d);
  }
  return listOrNull(out.sort(compareFields));
}

/** Added and Deleted fields make the object Added, Deleted, or (both, or any Edited) Edited; undefined if none. */
export function typeFromFields(fields: FieldDiff[] | null): DiffType | undefined {
  let added = false;
  let deleted = false;
  for (const f of fields ?? []) {
    if (f.Type === 'Edited') return 'Edited';
    if (f.Type === 'Added') added = true;
    if (f.Type === 'Deleted') deleted = true;
  }
  if (added && deleted) return 'Edited';
  return added ? 'Added' : deleted ? 'Deleted' : undefined;
}

/** Added / Deleted / Edited from which side exists; for objects whose type Nomad takes from equality. */
export const sideType = (oldV: unknown, newV: unknown): DiffType =>
  oldV === null || oldV === undefined ? 'Added' : newV === null || newV === undefined ? 'Deleted' : 'Edited';

/** A list of strings compared as a set: one field per element, named after the list. */
export function stringSetDiff(oldList: readonly string[] | null | undefined, newList: readonly string[] | null | undefined, name: string, contextual: boolean): ObjectDiff | null {
  const o = new Set(oldList ?? []);
  const n = new Set(newList ?? []);
  const same = o.size === n.size && [...o].every((v) => n.has(v));
  if (same && !contextual) return null;
  const fields: FieldDiff[] = [];
  let added = false;
  let removed = false;
  for (const v of o) {
    if (!n.has(v)) {
      fields.push(fieldDiff(v, '', name, contextual)!);
      removed = true;
    } else if (contextual) fields.push(fieldDiff(v, v, name, contextual)!);
  }
  for (const v of n) {
    if (!o.has(v)) {
      fields.push(fieldDiff('', v, name, contextual)!);
      added = true;
    }
  }
  if (!added && !removed && fields.length === 0) return null;
  const type: DiffType = added && removed ? 'Edited' : added ? 'Added' : removed ? 'Deleted' : 'None';
  return { Type: type, Name: name, Fields: listOrNull(fields.sort(compareFields)), Objects: null };
}

/** A struct of primitive fields; null when nothing changed. */
export function primitiveObjectDiff(oldObj: Obj, newObj: Obj, name: string, contextual: boolean, opts: FlatOptions = {}): ObjectDiff | null {
  const fields = fieldDiffs(primitiveFlat(oldObj, opts), primitiveFlat(newObj, opts), contextual);
  const type = typeFromFields(fields);
  return type ? { Type: type, Name: name, Fields: fields, Objects: null } : null;
}

/** A key for "the same element" in a set of objects: Nomad hashes the whole struct. */
export function contentKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(contentKey).join(',')}]`;
  const entries = Object.entries(value).sort(([a], [b]) => byteOrder(a, b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${contentKey(v)}`).join(',')}}`;
}

/**
 * A list of objects compared as a set by content: any change shows as the old element Deleted and the
 * new one Added, as Nomad does for constraints, affinities and artifacts.
 */
export function primitiveObjectSetDiff(oldList: readonly Obj[] | null | undefined, newList: readonly Obj[] | null | undefined, name: string, contextual: boolean, opts: FlatOptions = {}): ObjectDiff[] {
  const o = new Map((oldList ?? []).map((v) => [contentKey(v), v]));
  const n = new Map((newList ?? []).map((v) => [contentKey(v), v]));
  const out: ObjectDiff[] = [];
  for (const [k, v] of o) {
    const d = primitiveObjectDiff(v, n.get(k), name, contextual, opts);
    if (d) out.push(d);
  }
  for (const [k, v] of n) {
    if (o.has(k)) continue;
    const d = primitiveObjectDiff(null, v, name, contextual, opts);
    if (d) out.push(d);
  }
  return sortObjects(out);
}

/**
 * Pairs up the elements of two lists by a key (a group's tasks by name, a service's checks by name, …)
 * and diffs each pair; unmatched elements are diffed against nothing.
 */
export function keyedDiffs<T, D>(oldList: readonly T[] | null | undefined, newList: readonly T[] | null | undefined, key: (v: T) => string, diff: (o: T | null, n: T | null) => D | null): D[] {
  const o = new Map((oldList ?? []).map((v) => [key(v), v]));
  const n = new Map((newList ?? []).map((v) => [key(v), v]));
  const out: D[] = [];
  for (const [k, v] of o) {
    const d = diff(v, n.get(k) ?? null);
    if (d) out.push(d);
  }
  for (const [k, v] of n) {
    if (o.has(k)) continue;
    const d = diff(null, v);
    if (d) out.push(d);
  }
  return out;
}

export const same = (a: unknown, b: unknown): boolean => deepEqual(a ?? null, b ?? null);
