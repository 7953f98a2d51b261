/**
 * CLI flags generated from an endpoint's field schemas, so a field is declared once and the server,
 * the flags, the help, the man page and the completions agree. `toRequestData` maps parsed flag values
 * back to the request body under the field names.
 */
import { valueAliasNote, type FieldSchema, type Fields } from '../../framework/schema/field-schema.js';
import type { FlagSpec, FlagType, FlagValues } from '../define.js';

const FLAG_TYPE: Record<FieldSchema['type'], FlagType> = {
  string: 'string',
  'lowercase-string': 'string',
  int: 'int',
  bool: 'bool',
  duration: 'duration',
  list: 'strings',
  map: 'strings',
  object: 'string',
  headers: 'string',
};

export const flagName = (field: string, schema: FieldSchema): string => schema.cli?.flag ?? field.replace(/_/g, '-');

function describeField(schema: FieldSchema): string {
  let text = schema.description;
  const required = schema.required === true || (Array.isArray(schema.required) && schema.required.includes('create'));
  if (required) text += ' Required.';
  if (schema.type === 'list') text += ' May be repeated, or given as a comma-separated list.';
  if (schema.type === 'map') text += ' Given as key=value; may be repeated.';
  if (typeof schema.deprecated === 'string') text += ` Deprecated: use -${schema.deprecated.replace(/_/g, '-')}.`;
  const values = valueAliasNote(schema);
  if (values) text += ` ${values}`;
  const d = schema.default;
  if (d !== undefined && d !== '' && !(Array.isArray(d) && d.length === 0)) text += ` The server's default is ${JSON.stringify(d)}.`;
  return text;
}

/** The flag's other names: the CLI's own, then the field's upstream names in flag form (-aws-public-cert). */
function flagAliases(schema: FieldSchema): string[] | undefined {
  const all = [...(schema.cli?.aliases ?? []), ...(schema.aliases ?? []).map((a) => a.replace(/_/g, '-'))];
  return all.length > 0 ? all : undefined;
}

export function flagsFromFields(fields: Fields, opts: { omit?: string[] } = {}): FlagSpec[] {
  return Object.entries(fields)
    .filter(([name, schema]) => !opts.omit?.includes(name) && !schema.cli?.hidden)
    .map(([name, schema]) => ({
      name: flagName(name, schema),
      type: FLAG_TYPE[schema.type],
      description: describeField(schema),
      aliases: flagAliases(schema),
      choices: schema.allowedValues,
      complete: schema.cli?.complete,
    }));
}

/**
 * Request data from the flags the user actually gave. Generated flags carry no default, so an unset flag
 * is undefined and the server applies the schema's default.
 */
export function toRequestData(fields: Fields, flags: FlagValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(fields)) {
    const value = flags[flagName(name, schema)];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (schema.type === 'list') out[name] = (value as string[]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    else if (schema.type === 'map') {
      out[name] = Object.fromEntries((value as string[]).map((kv) => [kv.slice(0, kv.indexOf('=') < 0 ? kv.length : kv.indexOf('=')), kv.indexOf('=') < 0 ? '' : kv.slice(kv.indexOf('=') + 1)]));
    } else if (schema.type === 'object') out[name] = JSON.parse(value as string);
    else out[name] = value;
  }
  return out;
}
