/**
 * One field schema drives request validation, `svc path-help`, CLI flags, man pages and completions.
 * If a schema says something (required, allowed values), the server enforces it.
 */
import type { CompletionKind } from '../../shared/completion-kinds.js';

export type FieldType =
  | 'string'
  | 'lowercase-string'
  | 'int'
  | 'bool'
  /** seconds as a number, or a duration string such as "72h", "30m", "1h30m", "10s" */
  | 'duration'
  /** a comma-separated string or a JSON array of strings */
  | 'list'
  /** a JSON object of string to string (or a JSON string holding one) */
  | 'map'
  /** any JSON object */
  | 'object'
  /**
   * HTTP headers, as Vault's TypeHeader: a JSON object of name to a string or a list of strings, or that
   * object as JSON text or base64 JSON text. Kept as sent; the endpoint decodes it.
   */
  | 'headers';

export type Operation = 'read' | 'create' | 'update' | 'delete' | 'list';

export interface FieldSchema {
  type: FieldType;
  description: string;
  default?: unknown;
  /** true: required for create and update; or the operations that require it */
  required?: boolean | Operation[];
  allowedValues?: readonly string[];
  /** a replacement name to point at, or true */
  deprecated?: boolean | string;
  /**
   * other names the field is accepted under in requests: the upstream's (Vault's) where the product
   * renamed the field, so its clients and Terraform configurations work unchanged. The field's own name
   * wins when both are sent; reads answer only the field's own name.
   */
  aliases?: readonly string[];
  /** the upstream's spellings of values the product renamed (a list's items each) → the product's */
  valueAliases?: Readonly<Record<string, string>>;
  /** taken from the query string even on writes */
  query?: boolean;
  /** the value must never be echoed, logged or put in an error message */
  sensitive?: boolean;
  /** the value becomes part of a storage key, so it is held to MAX_KEY_PART_BYTES (src/shared/key-length.ts) */
  key?: boolean;
  /**
   * how the CLI shows the field as a flag, where the upstream CLI uses another name (Vault's -policy),
   * and what shell completion offers for its value (policy names, entity IDs ...)
   */
  cli?: { flag?: string; aliases?: string[]; hidden?: boolean; complete?: CompletionKind };
}

export type Fields = Record<string, FieldSchema>;

/** Help's sentence for a field's other names; '' when it has none. */
export function nameAliasNote(schema: FieldSchema): string {
  return schema.aliases?.length ? `Also accepted as ${schema.aliases.join(', ')}.` : '';
}

/** Help's and the flags' sentence for the upstream values a field takes in place of its own; '' when none. */
export function valueAliasNote(schema: FieldSchema): string {
  return Object.entries(schema.valueAliases ?? {})
    .map(([upstream, own]) => `The value ${upstream} is also accepted for ${own}.`)
    .join(' ');
}
