/**
 * Audit log entries in the shape of Vault's file audit device: one `request` entry before a request is
 * served and one `response` entry before its answer is sent, both with the caller's `auth` and the
 * `request`. Every string that may be a secret is HMAC'd: the token and its accessor, each string value
 * of the request data (query and body), the response data and the auth block a login or token create
 * answers with. Error messages are kept as they are; they never carry secret values.
 */
import { parseGoBool } from '../../shared/go-bool.js';
import type { TokenEntry } from '../../secrets/token/token-entry.js';
import { isSecretsPath, isSecretsSidePath } from '../../framework/http/router.js';
import type { RawRequest, RawResponse } from '../../framework/http/types.js';
import type { AuditHasher } from './hasher.js';

export interface AuditAuth {
  client_token?: string;
  accessor?: string;
  display_name?: string;
  /** the token's policies and its entity's */
  policies?: string[];
  token_policies?: string[];
  identity_policies?: string[];
  entity_id?: string;
  token_type?: string;
}

export interface AuditRequest {
  id: string;
  operation: string;
  /** relative to /v1/, as Vault writes it: `auth/token/create`, `jobs` */
  path: string;
  remote_address: string;
  /** `root` for the secrets API (Vault's only namespace), the scheduler namespace asked for otherwise */
  namespace: { id: string };
  data?: unknown;
}

export interface AuditResponse {
  status: number;
  data?: unknown;
  auth?: Record<string, unknown>;
  warnings?: string[];
}

export interface AuditEntry {
  time: string;
  type: 'request' | 'response';
  auth: AuditAuth;
  request: AuditRequest;
  response?: AuditResponse;
  error: string;
}

export interface AuditCaller {
  /** the token the request carried, whether or not it is one */
  secret?: string;
  /** the live token it names, if any */
  token?: TokenEntry;
  identityPolicies: string[];
}

/**
 * Whether `raw` is the secrets side's, as the router decides: its prefixes, or a path whose first segment
 * has a secrets engine mounted below it (`engineAt`: kv at secret/).
 */
export function isSecretsRequest(raw: RawRequest, engineAt: (segment: string) => boolean): boolean {
  const parts = raw.path.split('/').slice(1);
  try {
    return isSecretsSidePath(parts.map(decodeURIComponent), engineAt);
  } catch {
    return isSecretsPath(parts);
  }
}

export function auditAuth(caller: AuditCaller, hasher: AuditHasher): AuditAuth {
  if (!caller.secret) return {};
  const auth: AuditAuth = { client_token: hasher.hash(caller.secret) };
  const t = caller.token;
  if (!t) return auth;
  return {
    ...auth,
    accessor: hasher.hash(t.accessor),
    display_name: t.displayName,
    policies: [...new Set([...t.policies, ...caller.identityPolicies])],
    token_policies: t.policies,
    identity_policies: caller.identityPolicies,
    entity_id: t.entityId,
    token_type: t.type,
  };
}

export function auditRequest(raw: RawRequest, requestId: string, hasher: AuditHasher, secrets: boolean): AuditRequest {
  const request: AuditRequest = {
    id: requestId,
    operation: operationOf(raw, secrets),
    path: pathOf(raw),
    remote_address: raw.remoteAddress,
    namespace: { id: secrets ? 'root' : raw.query.get('namespace') || 'default' },
  };
  const data = requestData(raw);
  if (data !== undefined) request.data = hasher.values(data);
  return request;
}

export function auditResponse(answer: RawResponse, hasher: AuditHasher, secrets: boolean): { response: AuditResponse; error: string } {
  const response: AuditResponse = { status: answer.status };
  // A streamed body (logs, files) is produced after the answer's headers go out; only its status is known.
  if (answer.stream) return { response, error: '' };
  const text = typeof answer.body === 'string' ? answer.body : answer.body.toString('utf8');
  if (text === '') return { response, error: '' };
  const json = /\bjson\b/i.test(answer.headers['content-type'] ?? '') ? parseJson(text) : undefined;
  if (answer.status >= 400) {
    const errors = (json as { errors?: unknown } | undefined)?.errors;
    return { response, error: Array.isArray(errors) ? errors.map(String).join('; ') : text };
  }
  if (json === undefined) return { response: { ...response, data: hasher.hash(text) }, error: '' };
  if (secrets && isEnvelope(json)) {
    if (json.data != null) response.data = hasher.values(json.data);
    if (json.auth) response.auth = hashAuthBlock(json.auth, hasher);
    if (Array.isArray(json.warnings) && json.warnings.length > 0) response.warnings = json.warnings.map(String);
    return { response, error: '' };
  }
  return { response: { ...response, data: hasher.values(json) }, error: '' };
}

/** Vault's operation names: the secrets pipeline decides create vs update later, so every write is `update`. */
function operationOf(raw: RawRequest, secrets: boolean): string {
  switch (raw.method) {
    case 'GET':
      return secrets && parseGoBool(raw.query.get('list') ?? '') === true ? 'list' : 'read';
    case 'LIST':
      return 'list';
    case 'POST':
    case 'PUT':
      return 'update';
    case 'DELETE':
      return 'delete';
    default:
      return raw.method.toLowerCase();
  }
}

function pathOf(raw: RawRequest): string {
  const rel = raw.path.replace(/^\/v1\//, '').replace(/^\//, '');
  try {
    return decodeURIComponent(rel);
  } catch {
    return rel;
  }
}

/** The query parameters and the body's fields together, as the secrets pipeline reads them; a body that is not a JSON object is `body`. */
function requestData(raw: RawRequest): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const [k, v] of raw.query) data[k] = v;
  if (raw.body.length > 0) {
    const text = raw.body.toString('utf8');
    const parsed = parseJson(text) ?? text;
    if (isObject(parsed)) Object.assign(data, parsed);
    else data.body = parsed;
  }
  return Object.keys(data).length > 0 ? data : undefined;
}

/** The token and accessor hashed, and the metadata's values (a login's nonce is there); policies and the rest stay readable. */
function hashAuthBlock(auth: Record<string, unknown>, hasher: AuditHasher): Record<string, unknown> {
  const out = { ...auth };
  for (const k of ['client_token', 'accessor']) if (typeof out[k] === 'string') out[k] = hasher.hash(out[k]);
  if (out.metadata != null) out.metadata = hasher.values(out.metadata);
  return out;
}

interface Envelope {
  request_id: string;
  data?: unknown;
  auth?: Record<string, unknown> | null;
  warnings?: unknown;
}

function isEnvelope(json: unknown): json is Envelope {
  return isObject(json) && typeof json.request_id === 'string' && 'wrap_info' in json;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
