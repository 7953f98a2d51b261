/**
 * Field tables: each struct of a job declared once, field by field, with its JSON name (the key), its input
 * kind, the job-file argument that sets it, its default and its per-field rules. The input schema that
 * validateJobInput and canonicalizeJob read, the jobspec mapping's arguments, the defaults and the
 * TypeScript type are all derived from the table, so a field added here reaches every one of them.
 */

/** Nanoseconds per unit: durations are int64 nanoseconds on the wire, as Nomad's JSON carries them. */
export const NS = {
  second: 1_000_000_000,
  minute: 60 * 1_000_000_000,
  hour: 3600 * 1_000_000_000,
} as const;

export type Kind =
  | 'string'
  | 'int'
  | 'number'
  | 'bool'
  /** int nanoseconds, or a Go duration string such as "30s" */
  | 'duration'
  | 'strings'
  | 'stringMap'
  | 'stringListMap'
  /** free-form JSON kept verbatim (driver config, mesh settings) */
  | 'any'
  | 'object'
  | { obj: Schema }
  | { list: Schema }
  | { map: Schema };

/** The input shape of one struct: field name → kind. Keys match case-insensitively when read. */
export type Schema = { readonly [field: string]: Kind };

/** Nomad's defaults that differ by job type: the value for each type named, `otherwise` for the rest. */
export interface PerJobType<V> {
  readonly byType: Readonly<Record<string, V>>;
  readonly otherwise: V;
}

/** The kinds a table field may have: a scalar kind, or another table's struct, alone, in a list or in a map. */
export type FieldKind =
  | Exclude<Kind, { obj: Schema } | { list: Schema } | { map: Schema }>
  | { readonly obj: Table }
  | { readonly list: Table }
  | { readonly map: Table };

export interface Field<K extends FieldKind = FieldKind> {
  readonly kind: K;
  /** The job-file argument that sets the field; absent when job files cannot set it. */
  readonly hcl?: string;
  /** What the argument's value is converted to, when not the field's kind (free-form config taken as it evaluates). */
  readonly hclType?: HclArgument['type'];
  readonly default?: unknown;
  /** The values the field accepts (checked by the job's validation, which words the error). */
  readonly oneOf?: readonly string[];
  /** The least and the greatest value the field accepts. */
  readonly min?: number;
  readonly max?: number;
  /** The field is null on the wire when unset (Go's nil pointer, slice or map). */
  readonly nullable?: true;
  /** Accepted on input and read while canonicalizing, but not a field of the stored struct. */
  readonly inputOnly?: true;
}

export type Table = { readonly [json: string]: Field };

export function field<const K extends FieldKind, const O extends Omit<Field<K>, 'kind'> = {}>(kind: K, opts?: O): { kind: K } & O {
  return { kind, ...(opts ?? ({} as O)) };
}

/** The TypeScript type of a field whose kind cannot say it (free-form JSON kept verbatim). */
export function typed<T>(): { readonly type?: T } {
  return {};
}

export function perJobType<const V>(byType: Record<string, V>, otherwise: V): PerJobType<V> {
  return { byType, otherwise };
}

type Scalar<K> = K extends 'string'
  ? string
  : K extends 'int' | 'number' | 'duration'
    ? number
    : K extends 'bool'
      ? boolean
      : K extends 'strings'
        ? string[]
        : K extends 'stringMap'
          ? Record<string, string>
          : K extends 'stringListMap'
            ? Record<string, string[]>
            : K extends 'object'
              ? Record<string, unknown>
              : K extends { obj: infer T extends Table }
                ? StructOf<T>
                : K extends { list: infer T extends Table }
                  ? StructOf<T>[]
                  : K extends { map: infer T extends Table }
                    ? Record<string, StructOf<T>>
                    : unknown;

type Declared<F> = F extends { type?: infer T } ? T : unknown;

/** A field's TypeScript type: the declared one or its kind's, with null when the table says the field may be nil. */
type FieldType<F> = F extends { kind: infer K }
  ? (unknown extends Declared<F> ? Scalar<K> : Declared<F>) | (F extends { nullable: true } ? null : never)
  : never;

/** The struct a table declares, as the server stores and returns it. */
export type StructOf<T extends Table> = { -readonly [F in keyof T as T[F] extends { inputOnly: true } ? never : F]: FieldType<T[F]> };

/** The input schema entry of a table: what validateJobInput checks and canonicalizeJob normalizes. */
export function schemaOf(table: Table): Schema {
  return Object.fromEntries(
    Object.entries(table).map(([json, f]) => [json, kindOf(f.kind)]),
  );
}

function kindOf(kind: FieldKind): Kind {
  if (typeof kind !== 'object') return kind;
  if ('obj' in kind) return { obj: schemaOf(kind.obj) };
  return 'list' in kind ? { list: schemaOf(kind.list) } : { map: schemaOf(kind.map) };
}

/** A job-file argument: the JSON field it sets and the kind its value is converted to. */
export interface HclArgument {
  json: string;
  type: Exclude<FieldKind, 'object' | { obj: Table } | { list: Table } | { map: Table }>;
}

/** The arguments a job-file block accepts for the table's struct, by their HCL names. */
export function hclArgumentsOf(table: Table): Record<string, HclArgument> {
  const out: Record<string, HclArgument> = {};
  for (const [json, f] of Object.entries(table)) {
    if (f.hcl === undefined) continue;
    const type = f.hclType ?? f.kind;
    if (typeof type === 'object' || type === 'object') throw new Error(`${json}: a block, not an argument`);
    out[f.hcl] = { json, type };
  }
  return out;
}

function zero(f: Field): unknown {
  if (f.nullable) return null;
  switch (f.kind) {
    case 'string':
      return '';
    case 'int':
    case 'number':
    case 'duration':
      return 0;
    case 'bool':
      return false;
    default:
      return null;
  }
}

function isPerJobType(v: unknown): v is PerJobType<unknown> {
  return typeof v === 'object' && v !== null && 'byType' in v && 'otherwise' in v;
}

/** The struct with every field at its default for `jobType` (Go's zero value where the table gives none). */
export function defaultsOf<T extends Table>(table: T, jobType = ''): StructOf<T> {
  const out: Record<string, unknown> = {};
  for (const [json, f] of Object.entries(table)) {
    if (f.inputOnly) continue;
    const d = f.default;
    const v = d === undefined ? zero(f) : isPerJobType(d) ? (Object.hasOwn(d.byType, jobType) ? d.byType[jobType] : d.otherwise) : d;
    out[json] = Array.isArray(v) ? [...v] : v;
  }
  return out as StructOf<T>;
}

/** The struct with every field at Go's zero value, defaults ignored. */
export function zeroOf<T extends Table>(table: T): StructOf<T> {
  return Object.fromEntries(Object.entries(table).flatMap(([json, f]) => (f.inputOnly ? [] : [[json, zero(f)]]))) as StructOf<T>;
}
