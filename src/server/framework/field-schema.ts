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
