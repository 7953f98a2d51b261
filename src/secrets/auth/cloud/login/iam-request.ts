/**
 * The signed caller-identity request of an iam login: decoding the four iam_* fields, and the checks that
 * keep the server from being used as a signing oracle or a proxy — only GetCallerIdentity, only allowed
 * headers, and the server-ID header present, equal and signed when configured. The request is later sent
 * to the configured token-service endpoint, never to the host the client names (iam-forward.ts).
 */
import { UserError } from '../../../../shared/errors.js';
import { canonicalHeaderName as canonical } from '../header-name.js';

/** Header names that cannot be valid stay as sent: they match nothing allowed. */
export const canonicalHeaderName = (name: string): string => canonical(name) ?? name;

export const SERVER_ID_HEADER = 'X-Svc-Cloud-IAM-Server-ID';
/** The same header under the name Vault's clients sign (`vault login -method=aws header_value=...`). */
export const VAULT_SERVER_ID_HEADER = 'X-Vault-AWS-IAM-Server-ID';

/** The headers a signed caller-identity request carries; others named X-Amz-* need allowed_sts_header_values. */
export const DEFAULT_ALLOWED_AMZ_HEADERS = [
  'X-Amz-Algorithm',
  'X-Amz-Content-Sha256',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Security-Token',
  'X-Amz-Signature',
  'X-Amz-SignedHeaders',
  'X-Amz-User-Agent',
];

export interface IamLoginRequest {
  method: 'GET' | 'POST';
  url: URL;
  body: string;
  /** canonical header name → values */
  headers: Record<string, string[]>;
}

export interface IamLoginFields {
  iam_http_request_method?: string;
  iam_request_url?: string;
  iam_request_body?: string;
  iam_request_headers?: unknown;
}

/** Standard base64 as Go decodes it: line breaks (base64(1) wraps at 76 columns) are skipped, nothing else is. */
function decodeBase64Strict(value: string, field: string): string {
  const body = value.trim().replace(/[\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) throw new UserError(`failed to base64 decode ${field}`);
  return Buffer.from(body, 'base64').toString('utf8');
}

function headerValues(name: string, v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
  if (Array.isArray(v) && v.every((i) => typeof i === 'string' || typeof i === 'number')) return v.map(String);
  throw new UserError(`iam_request_headers: header "${name}" must be a string or a list of strings`);
}

/** A JSON object, or a string of JSON or of base64 JSON (base64 first, as the established clients send it). */
function decodeHeaders(raw: unknown): Record<string, string[]> {
  let obj: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text === '') throw new UserError('missing iam_request_headers');
    const candidates = [text.startsWith('{') ? undefined : Buffer.from(text, 'base64').toString('utf8'), text];
    obj = undefined;
    for (const c of candidates) {
      if (c === undefined) continue;
      try {
        obj = JSON.parse(c);
        break;
      } catch {
        // not this encoding; try the next
      }
    }
    if (obj === undefined) throw new UserError('iam_request_headers must be a JSON object, or a base64-encoded JSON object');
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new UserError('iam_request_headers must be a JSON object of header names to values');
  const out: Record<string, string[]> = {};
  for (const [name, v] of Object.entries(obj)) {
    const key = canonicalHeaderName(name);
    out[key] = [...(out[key] ?? []), ...headerValues(name, v)];
  }
  if (Object.keys(out).length === 0) throw new UserError('missing iam_request_headers');
  return out;
}

export function decodeIamRequest(fields: IamLoginFields): IamLoginRequest {
  const method = fields.iam_http_request_method;
  if (!method) throw new UserError('missing iam_http_request_method');
  if (method !== 'GET' && method !== 'POST') throw new UserError("invalid iam_http_request_method; currently only 'GET' and 'POST' are supported");
  if (!fields.iam_request_url) throw new UserError('missing iam_request_url');
  let url: URL;
  try {
    url = new URL(decodeBase64Strict(fields.iam_request_url, 'iam_request_url'));
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError('error parsing iam_request_url: it is not an absolute URL');
  }
  let body = '';
  if (method === 'POST') {
    if (!fields.iam_request_body) throw new UserError('missing iam_request_body which is required for POST requests');
    body = decodeBase64Strict(fields.iam_request_body, 'iam_request_body');
  }
  if (fields.iam_request_headers === undefined || fields.iam_request_headers === null) throw new UserError('missing iam_request_headers');
  return { method, url, body, headers: decodeHeaders(fields.iam_request_headers) };
}

/**
 * Only GetCallerIdentity may be asked for, and (when the mount has a client configuration, as the
 * established implementation does) only the allowed X-Amz-* headers and query parameters may be sent.
 */
export function validateIamRequest(req: IamLoginRequest, allowedExtraHeaders: readonly string[] | undefined): void {
  if (req.method === 'GET') {
    const actions = req.url.searchParams.getAll('Action');
    if (actions.length === 0) throw new UserError('no action found in request');
    if (actions.length > 1) throw new UserError('found multiple actions');
    if (actions[0] !== 'GetCallerIdentity') throw new UserError(`unexpected action parameter, ${actions[0]}`);
  } else {
    if (req.url.search !== '') throw new UserError('invalid request: a POST caller-identity request carries no query string');
    const form = new URLSearchParams(req.body);
    const keys = [...form.keys()];
    const ok = keys.every((k) => k === 'Action' || k === 'Version') && form.getAll('Action').length === 1 && form.get('Action') === 'GetCallerIdentity';
    if (!ok) throw new UserError('iam request body is invalid: only Action=GetCallerIdentity (and Version) may be sent');
  }
  if (allowedExtraHeaders === undefined) return;
  const allowed = new Set([...DEFAULT_ALLOWED_AMZ_HEADERS, ...allowedExtraHeaders.map(canonicalHeaderName)]);
  for (const name of Object.keys(req.headers)) {
    if (name.startsWith('X-Amz-') && !allowed.has(name)) throw new UserError(`invalid request header: ${name}`);
  }
  if (req.method === 'GET') {
    for (const key of req.url.searchParams.keys()) {
      if (key.startsWith('X-Amz-') && !allowed.has(key)) throw new UserError(`invalid request query param: ${key}`);
    }
  }
}

/**
 * Replay protection across servers: the header is there, equal to the configured value, and signed. Our
 * name is looked for first; a request carrying only Vault's name is checked under that name.
 */
export function checkServerIdHeader(req: IamLoginRequest, expected: string): void {
  const header = [SERVER_ID_HEADER, VAULT_SERVER_ID_HEADER].find((h) => (req.headers[canonicalHeaderName(h)] ?? []).length > 0);
  if (!header) throw new UserError(`error validating ${SERVER_ID_HEADER} header: missing header "${SERVER_ID_HEADER}"`);
  const fail = (why: string) => new UserError(`error validating ${header} header: ${why}`);
  const values = req.headers[canonicalHeaderName(header)];
  const got = values.join(',');
  if (got !== expected) throw fail(`expected "${expected}" but got "${got}"`);
  let signed: string[];
  if (req.method === 'POST') {
    const auth = req.headers.Authorization;
    if (!auth || auth.length === 0) throw fail('missing Authorization header');
    const m = /SignedHeaders=([^,\s]*)/.exec(auth.join(','));
    if (!m) throw fail('the header was not signed: no SignedHeaders in the Authorization header');
    signed = m[1].split(';');
  } else {
    const list = req.url.searchParams.get('X-Amz-SignedHeaders');
    if (!list) throw fail('the header was not signed: no X-Amz-SignedHeaders query parameter');
    signed = list.split(';');
  }
  if (!signed.includes(header.toLowerCase())) throw fail('the header was not signed');
}

/** use_sts_region_from_client: the region the client signed for, from the Authorization credential scope. */
export function regionFromAuthorization(req: IamLoginRequest): string {
  const auth = req.headers.Authorization?.join(',') ?? '';
  const m = /Credential=[^/\s,]+\/\d{8}\/([a-z0-9-]+)\/sts\/aws4_request/.exec(auth);
  if (!m) throw new UserError('region missing from Authorization header');
  return m[1];
}
