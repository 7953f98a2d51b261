/**
 * A struct's canonical form, from its field table: each field is the input's value of the field's kind,
 * else the table's default (Go's zero value where it gives none), and a nested struct is built from its
 * own table the same way. An empty string counts as unset, as Nomad's canonicalization treats it. A field
 * that follows a rule of its own (a name made from its parent's, a default that depends on another
 * field, a policy merged over another's) is given by the caller; a free-form or map field always is.
 * Reads input that normalizeObject has shaped: a value is of its field's kind or absent.
 */
import { copyValue } from './copy.js';
import { isPlainObject } from './schema.js';
import { defaultsOf, type Field, type StructOf, type Table } from '../wire/job/fields.js';

type In = Record<string, unknown>;

/** The fields no kind can build: free-form values and maps of structs. */
type Own<T extends Table> = {
  [F in keyof T as T[F] extends { inputOnly: true } ? never : T[F] extends { kind: 'any' | { readonly map: Table } } ? F : never]: StructOf<T>[F & keyof StructOf<T>];
};

export type Given<T extends Table> = Partial<StructOf<T>> & Own<T>;

const fieldsOf = new WeakMap<Table, [string, Field, unknown][]>();

function fieldList(table: Table): [string, Field, unknown][] {
  let fields = fieldsOf.get(table);
  if (!fields) {
    const defaults = defaultsOf(table) as In;
    fields = Object.entries(table).flatMap(([json, f]): [string, Field, unknown][] => (f.inputOnly ? [] : [[json, f, defaults[json]]]));
    fieldsOf.set(table, fields);
  }
  return fields;
}

export function canonicalStruct<T extends Table>(table: T, input: In, given: Given<T> = {} as Given<T>): StructOf<T> {
  const out: In = {};
  for (const [json, f, d] of fieldList(table)) {
    out[json] = Object.hasOwn(given, json) ? (given as In)[json] : valueOf(json, f, input[json], Array.isArray(d) ? [...d] : d);
  }
  return out as StructOf<T>;
}

function valueOf(json: string, f: Field, v: unknown, d: unknown): unknown {
  const kind = f.kind;
  if (typeof kind === 'object') {
    if ('obj' in kind) return isPlainObject(v) ? canonicalStruct(kind.obj, v) : f.nullable ? null : canonicalStruct(kind.obj, {});
    if ('list' in kind) return list(v, (item) => canonicalStruct(kind.list, item));
    throw new Error(`${json}: a map of structs is given by its parent`);
  }
  switch (kind) {
    case 'string':
      return str(v) || d;
    case 'int':
    case 'number':
    case 'duration':
      return typeof v === 'number' ? v : d;
    case 'bool':
      return typeof v === 'boolean' ? v : d;
    case 'strings':
      return strList(v) ?? d;
    case 'stringMap':
      return strMap(v) ?? d;
    case 'stringListMap':
      return stringListMap(v) ?? d;
    case 'object':
      return anyObj(v) ?? d;
    case 'any':
      throw new Error(`${json}: a free-form value is given by its parent`);
  }
}

// ---- reading the normalized input ----------------------------------------------------------------------

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: unknown, fallback: number): number {
  return typeof v === 'number' ? v : fallback;
}

export function obj(v: unknown): In {
  return isPlainObject(v) ? v : {};
}

function anyObj(v: unknown): Record<string, unknown> | null {
  return isPlainObject(v) && Object.keys(v).length > 0 ? (copyValue(v) as Record<string, unknown>) : null;
}

export function objList(v: unknown): In[] {
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

/** Nomad keeps an absent or empty list as nil, which its JSON renders as null. */
export function list<T>(v: unknown, each: (item: In) => T): T[] | null {
  const items = objList(v);
  return items.length > 0 ? items.map(each) : null;
}

export function strList(v: unknown): string[] | null {
  return Array.isArray(v) && v.length > 0 ? v.map(String) : null;
}

function strMap(v: unknown): Record<string, string> | null {
  if (!isPlainObject(v) || Object.keys(v).length === 0) return null;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) out[k] = String(val);
  return out;
}

function stringListMap(v: unknown): Record<string, string[]> | null {
  if (!isPlainObject(v) || Object.keys(v).length === 0) return null;
  const out: Record<string, string[]> = {};
  for (const [k, val] of Object.entries(v)) out[k] = Array.isArray(val) ? val.map(String) : [String(val)];
  return out;
}
