/**
 * Help for a secrets path, rendered from its declaration: the text Vault's `path-help` prints and a small
 * OpenAPI document. Nothing here is written by hand per endpoint, so the help cannot drift from what the
 * server accepts.
 */
import { nameAliasNote, valueAliasNote, type FieldSchema, type FieldType, type Fields, type Operation } from '../../framework/schema/field-schema.js';
import type { Backend, PathDef } from './path.js';

/** Vault's names for its field types, so help text reads the same as Vault's. */
const HELP_TYPE_NAMES: Record<FieldType, string> = {
  string: 'string',
  'lowercase-string': 'lowercase string',
  int: 'int',
  bool: 'bool',
  duration: 'duration (sec)',
  list: 'slice',
  map: 'keypair',
  object: 'map',
  headers: 'header',
};

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pattern as an anchored regex with named groups, for the "Matching Route" line. */
export function patternRegex(pattern: string): string {
  const body = pattern
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) return `(?<${seg.slice(1)}>[^/]+)`;
      if (seg.startsWith('*')) return `(?<${seg.slice(1)}>.+)`;
      return escapeRegex(seg);
    })
    .join('/');
  return `^${body}$`;
}

function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
}

/**
 * Vault's path-help text. As in Vault, `Request` and `Matching Route` are relative to the mount (the
 * pattern stands in for the request when there is none).
 */
export function renderPathHelp(def: PathDef, mountPath: string, requestPath?: string): string {
  const out: string[] = [];
  out.push(`Request:        ${requestPath ?? def.pattern}`);
  out.push(`Matching Route: ${patternRegex(def.pattern)}`);
  out.push('', def.synopsis.trim() || '<no synopsis>', '');
  const names = Object.keys(def.fields).sort();
  if (names.length > 0) {
    out.push('## PARAMETERS', '');
    for (const name of names) {
      const field = def.fields[name];
      const description = [field.description.trim() || '<no description>', nameAliasNote(field), valueAliasNote(field)].filter(Boolean).join(' ');
      out.push(indent(`${name} (${HELP_TYPE_NAMES[field.type]})`, 4), '');
      out.push(indent(field.deprecated ? `(DEPRECATED) ${description}` : description, 8), '');
    }
  }
  out.push('## DESCRIPTION', '', def.description.trim() || '<no description>');
  if (def.deprecatedFor) out.push('', `This path is deprecated; use ${mountPath}${def.deprecatedFor} instead.`);
  return `${out.join('\n')}\n`;
}

/** Help for a mount's root (`svc path-help auth/token`): the backend and the paths it serves. */
export function renderBackendHelp(backend: Backend): string {
  const out = ['## DESCRIPTION', '', backend.description.trim(), '', '## PATHS', ''];
  out.push(
    'The following paths are supported by this backend. To view help for any of the paths below, use the',
    'help command with any route matching the path pattern.',
    '',
  );
  for (const def of backend.paths) out.push(indent(patternRegex(def.pattern), 4), indent(def.synopsis.trim(), 8), '');
  return `${out.join('\n').trimEnd()}\n`;
}

export interface OpenApiSchema {
  type: 'string' | 'integer' | 'boolean' | 'array' | 'object';
  description?: string;
  format?: string;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  enum?: readonly string[];
  default?: unknown;
  deprecated?: boolean;
  'x-svc-sensitive'?: boolean;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  description: string;
  required: boolean;
  schema: OpenApiSchema;
  deprecated?: boolean;
}

export interface OpenApiOperation {
  summary: string;
  description?: string;
  operationId: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: {
    required: boolean;
    content: { 'application/json': { schema: { type: 'object'; properties: Record<string, OpenApiSchema>; required?: string[] } } };
  };
  responses: Record<string, { description: string }>;
  deprecated?: boolean;
}

export interface OpenApiPathItem {
  description: string;
  parameters?: OpenApiParameter[];
  get?: OpenApiOperation;
  post?: OpenApiOperation;
  delete?: OpenApiOperation;
  'x-svc-unauthenticated'?: boolean;
  'x-svc-sudo'?: boolean;
}

export interface OpenApiDocument {
  openapi: '3.0.2';
  info: { title: string; description: string; version: string };
  paths: Record<string, OpenApiPathItem>;
}

export function fieldSchema(field: FieldSchema): OpenApiSchema {
  const base: OpenApiSchema = (() => {
    switch (field.type) {
      case 'int':
        return { type: 'integer' };
      case 'bool':
        return { type: 'boolean' };
      case 'duration':
        // Seconds or a duration string: the wire accepts both, so the schema says string (as Vault's does).
        return { type: 'string', format: 'duration' };
      case 'list':
        return { type: 'array', items: { type: 'string' } };
      case 'map':
        return { type: 'object', additionalProperties: { type: 'string' } };
      case 'object':
      case 'headers':
        return { type: 'object' };
      case 'lowercase-string':
        return { type: 'string', format: 'lowercase' };
      default:
        return { type: 'string' };
    }
  })();
  const schema: OpenApiSchema = { ...base, description: field.description };
  if (field.allowedValues) {
    if (schema.type === 'array') schema.items = { type: 'string', enum: field.allowedValues };
    else schema.enum = field.allowedValues;
  }
  if (field.default !== undefined) schema.default = field.default;
  if (field.deprecated) schema.deprecated = true;
  if (field.sensitive) schema['x-svc-sensitive'] = true;
  return schema;
}

function requiredFor(field: FieldSchema, ops: Operation[]): boolean {
  const required = field.required;
  if (Array.isArray(required)) return ops.some((op) => required.includes(op));
  return field.required === true && ops.some((op) => op === 'create' || op === 'update');
}

function pathParams(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':') || s.startsWith('*'))
    .map((s) => s.slice(1));
}

function openApiPathKey(mountPath: string, pattern: string): string {
  const rel = pattern
    .split('/')
    .map((s) => (s.startsWith(':') || s.startsWith('*') ? `{${s.slice(1)}}` : s))
    .join('/');
  return `/${mountPath}${rel}`.replace(/\/+$/, '') || '/';
}

function operationId(op: string, mountPath: string, pattern: string): string {
  const words = `${mountPath}${pattern}`
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  return [op, ...words].join('-');
}

function queryParams(fields: Fields, names: string[], ops: Operation[]): OpenApiParameter[] {
  return names.map((name) => ({
    name,
    in: 'query' as const,
    description: fields[name].description,
    required: requiredFor(fields[name], ops),
    schema: fieldSchema(fields[name]),
    ...(fields[name].deprecated ? { deprecated: true } : {}),
  }));
}

/**
 * The OpenAPI path items for one declaration, keyed by the full API path (under /v1). A list operation
 * is documented at the path with a trailing slash when the path can also be read, as GET serves both.
 */
export function openApiPaths(def: PathDef, mountPath: string): Record<string, OpenApiPathItem> {
  const key = openApiPathKey(mountPath, def.pattern);
  const tag = mountPath.split('/')[0] || 'system';
  const params = pathParams(def.pattern);
  const others = Object.keys(def.fields)
    .filter((n) => !params.includes(n))
    .sort();
  const responses = { '200': { description: 'OK' }, '204': { description: 'empty body' } };
  const deprecated = def.deprecatedFor ? { deprecated: true } : {};

  const item: OpenApiPathItem = { description: def.synopsis.trim() };
  if (params.length > 0) {
    item.parameters = params.map((name) => ({
      name,
      in: 'path',
      description: def.fields[name].description,
      required: true,
      schema: fieldSchema(def.fields[name]),
    }));
  }
  if (def.unauthenticated) item['x-svc-unauthenticated'] = true;
  if (def.sudo) item['x-svc-sudo'] = true;

  const ops = def.operations;
  /** A read or delete: its fields (other than the path's) are query parameters. */
  const simple = (op: 'read' | 'delete', summary: string): OpenApiOperation => ({
    summary,
    operationId: operationId(op, mountPath, def.pattern),
    tags: [tag],
    ...(others.length > 0 ? { parameters: queryParams(def.fields, others, [op]) } : {}),
    responses,
    ...deprecated,
  });
  if (ops.read) item.get = simple('read', ops.read.summary);
  const writeOps = (['create', 'update'] as const).filter((op) => ops[op]);
  if (writeOps.length > 0) {
    const summaries = [...new Set(writeOps.map((op) => ops[op]!.summary))];
    const bodyFields = others.filter((n) => !def.fields[n].query);
    const queryFields = others.filter((n) => def.fields[n].query);
    const required = bodyFields.filter((n) => requiredFor(def.fields[n], writeOps));
    item.post = {
      summary: summaries[0],
      ...(summaries.length > 1 ? { description: summaries.join(' ') } : {}),
      operationId: operationId('write', mountPath, def.pattern),
      tags: [tag],
      ...(queryFields.length > 0 ? { parameters: queryParams(def.fields, queryFields, writeOps) } : {}),
      ...(bodyFields.length > 0
        ? {
            requestBody: {
              required: required.length > 0,
              content: {
                'application/json': {
                  schema: {
                    type: 'object' as const,
                    properties: Object.fromEntries(bodyFields.map((n) => [n, fieldSchema(def.fields[n])])),
                    ...(required.length > 0 ? { required } : {}),
                  },
                },
              },
            },
          }
        : {}),
      responses,
      ...deprecated,
    };
  }
  if (ops.delete) item.delete = simple('delete', ops.delete.summary);
  const out: Record<string, OpenApiPathItem> = {};
  if (ops.list) {
    const listOp: OpenApiOperation = {
      summary: ops.list.summary,
      operationId: operationId('list', mountPath, def.pattern),
      tags: [tag],
      parameters: [
        { name: 'list', in: 'query', description: 'Must be true: lists instead of reading (or use the LIST method).', required: true, schema: { type: 'string', enum: ['true'] } },
        ...queryParams(def.fields, others, ['list']),
      ],
      responses: { '200': { description: 'OK' }, '404': { description: 'nothing to list' } },
      ...deprecated,
    };
    if (item.get) {
      out[key] = item;
      out[`${key}/`] = { description: def.synopsis.trim(), ...(item.parameters ? { parameters: item.parameters } : {}), get: listOp };
      return out;
    }
    item.get = listOp;
  }
  out[key] = item;
  return out;
}

/** A whole OpenAPI document for one path, as Vault returns with the help text. */
export function openApiDocument(def: PathDef, mountPath: string, version: string): OpenApiDocument {
  return {
    openapi: '3.0.2',
    info: { title: 'svc', description: 'The svc secrets API.', version },
    paths: openApiPaths(def, mountPath),
  };
}

/**
 * The body of `GET /v1/<path>?help=1`, answered without the envelope as Vault does. `requestPath` is
 * relative to the mount.
 */
export function pathHelpResponse(def: PathDef, mountPath: string, requestPath: string | undefined, version: string): { help: string; openapi: OpenApiDocument; see_also: null } {
  return { help: renderPathHelp(def, mountPath, requestPath), openapi: openApiDocument(def, mountPath, version), see_also: null };
}
