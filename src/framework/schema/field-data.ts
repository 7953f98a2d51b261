/**
 * Request data checked against a path's field schemas. Every provided field is coerced up front, so a
 * wrong type is a 400 naming the field before any handler runs; required and allowed values are enforced
 * here too, and unknown parameters are collected for the "ignored" warning. A field may come under one of
 * its aliases (the upstream's name for it) and with the upstream's spelling of a value; handlers only ever
 * see the field's own name and values.
 */
import { checkKeyPart } from '../../shared/key-length.js';
import { UserError } from '../../shared/errors.js';
import { parseDurationSeconds } from '../../shared/duration.js';
import { parseGoBool } from '../../shared/go-bool.js';
import { nestsDeeperThan } from '../../shared/json-depth.js';
import type { FieldSchema, Fields, Operation } from './field-schema.js';


const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

function bad(name: string, expected: string, v: unknown, schema: FieldSchema): UserError {
  const shown = schema.sensitive ? 'the given value' : describe(v);
  return new UserError(`field "${name}" must be ${expected}, got ${shown}`);
}

function scalarString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (nestsDeeperThan(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Coerces one raw value to the schema's type, or throws a UserError naming the field. */
export function coerceField(name: string, schema: FieldSchema, v: unknown): unknown {
  switch (schema.type) {
    case 'string':
    case 'lowercase-string': {
      const s = scalarString(v);
      if (s === undefined) throw bad(name, 'a string', v, schema);
      return schema.type === 'lowercase-string' ? s.toLowerCase() : s;
    }
    case 'int': {
      if (typeof v === 'string' && v.trim() === '') return 0;
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n)) throw bad(name, 'an integer', v, schema);
      return n;
    }
    case 'bool': {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
      if (typeof v === 'string') {
        if (v === '') return false;
        const b = parseGoBool(v);
        if (b !== undefined) return b;
      }
      throw bad(name, 'a boolean', v, schema);
    }
    case 'duration': {
      if (typeof v === 'string' && v.trim() === '') return 0;
      const secs = typeof v === 'number' || typeof v === 'string' ? parseDurationSeconds(v) : undefined;
      if (secs === undefined) throw bad(name, 'a duration (seconds, or a string such as "72h" or "30m")', v, schema);
      if (!Number.isSafeInteger(Math.trunc(secs))) throw bad(name, 'a duration of at most 2^53-1 seconds', v, schema);
      return Math.trunc(secs);
    }
    case 'list': {
      if (typeof v === 'string') {
        return v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
      }
      if (Array.isArray(v)) {
        return v.map((item) => {
          const s = scalarString(item);
          if (s === undefined) throw bad(name, 'a list of strings', v, schema);
          return s.trim();
        });
      }
      if (typeof v === 'number') return [String(v)];
      throw bad(name, 'a comma-separated string or an array of strings', v, schema);
    }
    case 'map': {
      let obj: Record<string, unknown> | undefined;
      if (isPlainObject(v)) obj = v;
      else if (typeof v === 'string') obj = v.trim() === '' ? {} : parseJsonObject(v);
      else if (Array.isArray(v) && v.every((i) => typeof i === 'string' && i.includes('='))) {
        obj = Object.fromEntries((v as string[]).map((i) => [i.slice(0, i.indexOf('=')), i.slice(i.indexOf('=') + 1)]));
      }
      if (!obj) throw bad(name, 'a map of string to string', v, schema);
      const out: Record<string, string> = {};
      for (const [k, val] of Object.entries(obj)) {
        const s = scalarString(val);
        if (s === undefined) throw new UserError(`field "${name}" must be a map of string to string; key "${k}" holds ${describe(val)}`);
        out[k] = s;
      }
      return out;
    }
    case 'object': {
      const obj = isPlainObject(v) ? v : typeof v === 'string' ? parseJsonObject(v) : undefined;
      if (!obj) throw bad(name, 'a JSON object', v, schema);
      return obj;
    }
    case 'headers': {
      if (isPlainObject(v) || typeof v === 'string') return v;
      throw bad(name, 'a JSON object of header names to values, or that object as JSON or base64 JSON text', v, schema);
    }
  }
}

function zeroValue(schema: FieldSchema): unknown {
  switch (schema.type) {
    case 'int':
    case 'duration':
      return 0;
    case 'bool':
      return false;
    case 'list':
      return [];
    case 'map':
    case 'object':
    case 'headers':
      return {};
    default:
      return '';
  }
}

/** What a schema says about every request, worked out on its first one: schemas are declared once and never change. */
interface SchemaIndex {
  /** alias → the field's own name */
  aliases: Map<string, string>;
  /** the fields an operation requires, by operation */
  required: Map<Operation, [string, FieldSchema][]>;
}

const indexes = new WeakMap<Fields, SchemaIndex>();

function indexOf(schema: Fields): SchemaIndex {
  let index = indexes.get(schema);
  if (!index) {
    const aliases = new Map<string, string>();
    for (const [name, field] of Object.entries(schema)) for (const alias of field.aliases ?? []) aliases.set(alias, name);
    indexes.set(schema, (index = { aliases, required: new Map() }));
  }
  return index;
}

function requiredFields(index: SchemaIndex, schema: Fields, op: Operation): [string, FieldSchema][] {
  let fields = index.required.get(op);
  if (!fields) index.required.set(op, (fields = Object.entries(schema).filter(([, field]) => requiredFor(field, op))));
  return fields;
}

function withValueAliases(schema: FieldSchema, v: unknown): unknown {
  const map = schema.valueAliases;
  if (!map) return v;
  const one = (item: unknown) => (typeof item === 'string' && Object.hasOwn(map, item) ? map[item] : item);
  return Array.isArray(v) ? v.map(one) : one(v);
}

function requiredFor(schema: FieldSchema, op: Operation): boolean {
  if (Array.isArray(schema.required)) return schema.required.includes(op);
  return schema.required === true && (op === 'create' || op === 'update');
}

export class FieldData {
  private readonly values = new Map<string, unknown>();
  readonly unknown: string[] = [];
  readonly deprecatedUsed: string[] = [];
  /** the name each field came under, its own or an alias, so errors name what the caller sent */
  private readonly sentAs = new Map<string, string>();

  constructor(
    raw: Record<string, unknown>,
    readonly schema: Fields,
    op: Operation,
  ) {
    const index = indexOf(schema);
    const aliases = index.aliases;
    for (const [sent, value] of Object.entries(raw)) {
      // Own properties only: `toString` or `__proto__` in a body must not match Object.prototype.
      const name = Object.hasOwn(schema, sent) ? sent : aliases.get(sent);
      if (name === undefined) {
        this.unknown.push(sent);
        continue;
      }
      const field = schema[name];
      if (value === null || value === undefined) continue;
      // The field's own name wins over an alias sent beside it.
      if (name !== sent && Object.hasOwn(raw, name) && raw[name] !== null && raw[name] !== undefined) continue;
      const coerced = withValueAliases(field, coerceField(sent, field, value));
      if (field.allowedValues) {
        const items = Array.isArray(coerced) ? coerced : [coerced];
        for (const item of items) {
          if (typeof item === 'string' && !field.allowedValues.includes(item)) {
            throw new UserError(`invalid value "${item}" for field "${sent}": must be one of ${field.allowedValues.join(', ')}`);
          }
        }
      }
      if (field.key) for (const item of Array.isArray(coerced) ? coerced : [coerced]) if (typeof item === 'string') checkKeyPart(`field "${sent}"`, item);
      if (field.deprecated) this.deprecatedUsed.push(name);
      this.values.set(name, coerced);
      this.sentAs.set(name, sent);
    }
    for (const [name, field] of requiredFields(index, schema, op)) {
      if (!this.values.has(name)) {
        throw new UserError(`missing required field "${name}"`);
      }
      if (field.type !== 'bool' && isEmpty(this.values.get(name))) {
        throw new UserError(`field "${this.sentAs.get(name)}" must not be empty`);
      }
    }
  }

  /** Whether the caller sent the field. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The coerced value, else the schema default, else the type's zero value. */
  get<T = unknown>(name: string): T {
    const field = this.schema[name];
    if (!field) throw new Error(`field "${name}" is not in the schema`);
    if (this.values.has(name)) return this.values.get(name) as T;
    return (field.default !== undefined ? structuredClone(field.default) : zeroValue(field)) as T;
  }

  /** The coerced value only when sent. */
  getOk<T = unknown>(name: string): T | undefined {
    return this.values.get(name) as T | undefined;
  }

  /** The warnings Vault gives for ignored and deprecated parameters. */
  warnings(): string[] {
    const out: string[] = [];
    if (this.unknown.length > 0) {
      out.push(`Endpoint ignored these unrecognized parameters: [${[...this.unknown].sort().join(' ')}]`);
    }
    for (const name of this.deprecatedUsed) {
      const replacement = this.schema[name].deprecated;
      out.push(
        typeof replacement === 'string'
          ? `Field "${name}" is deprecated; use "${replacement}" instead`
          : `Field "${name}" is deprecated`,
      );
    }
    return out;
  }
}

function isEmpty(v: unknown): boolean {
  return v === '' || (Array.isArray(v) && v.length === 0);
}
