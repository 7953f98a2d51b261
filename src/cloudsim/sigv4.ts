/**
 * Server-side Signature Version 4 verification, computed independently of any client library:
 * canonical request -> string to sign -> signing key (HMAC chain from the secret) -> signature.
 * Handles the Authorization-header form and the presigned (query) form.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface SigInput {
  method: string;
  /** Raw request target path (before `?`), as received. */
  path: string;
  /** Raw query string without `?` ('' when none). */
  query: string;
  /** Lower-cased header name -> list of raw values, in arrival order. */
  headers: Map<string, string[]>;
  body: Buffer;
}

export interface ParsedAuth {
  presigned: boolean;
  accessKeyId: string;
  date: string; // yyyymmdd
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
  amzDate: string; // yyyymmddThhmmssZ
  securityToken?: string;
  expiresSeconds?: number;
}

export class AuthError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 403,
  ) {
    super(message);
  }
}

const sha256hex = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const hmac = (k: string | Buffer, d: string) => createHmac('sha256', k).update(d, 'utf8').digest();

/** RFC 3986 encoding as SigV4 requires (unreserved: A-Z a-z 0-9 - _ . ~). */
export function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    return s;
  }
}

export function parseQuery(q: string): Array<[string, string]> {
  if (!q) return [];
  return q
    .split('&')
    .filter((p) => p.length > 0)
    .map((p) => {
      const i = p.indexOf('=');
      return i < 0 ? [safeDecode(p), ''] : [safeDecode(p.slice(0, i)), safeDecode(p.slice(i + 1))];
    });
}

function header1(h: Map<string, string[]>, n: string): string | undefined {
  const v = h.get(n);
  return v && v.length ? v.join(',') : undefined;
}

export function parseAuth(inp: SigInput): ParsedAuth | undefined {
  const authz = header1(inp.headers, 'authorization');
  const q = new Map(parseQuery(inp.query));
  if (authz) {
    const m = /^AWS4-HMAC-SHA256\s+(.*)$/s.exec(authz.trim());
    if (!m) throw new AuthError('IncompleteSignature', `Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=${authz}`, 400);
    const parts = new Map<string, string>();
    for (const kv of m[1].split(',')) {
      const i = kv.indexOf('=');
      if (i > 0) parts.set(kv.slice(0, i).trim(), kv.slice(i + 1).trim());
    }
    const cred = parts.get('Credential');
    const sh = parts.get('SignedHeaders');
    const sig = parts.get('Signature');
    if (!cred || !sh || !sig) {
      const missing = [!cred && 'Credential', !sh && 'SignedHeaders', !sig && 'Signature'].filter(Boolean).join(', ');
      throw new AuthError('IncompleteSignature', `Authorization header requires '${missing}' parameter(s). Authorization=${authz}`, 400);
    }
    const scope = cred.split('/');
    if (scope.length !== 5 || scope[4] !== 'aws4_request')
      throw new AuthError('IncompleteSignature', `Credential should be scoped to correct service/terminal. Credential=${cred}`, 400);
    const amzDate = header1(inp.headers, 'x-amz-date') ?? dateHeaderToAmz(header1(inp.headers, 'date'));
    if (!amzDate) throw new AuthError('IncompleteSignature', `Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=${authz}`, 400);
    return {
      presigned: false,
      accessKeyId: scope[0],
      date: scope[1],
      region: scope[2],
      service: scope[3],
      signedHeaders: sh.split(';'),
      signature: sig,
      amzDate,
      securityToken: header1(inp.headers, 'x-amz-security-token'),
    };
  }
  if (q.has('X-Amz-Algorithm') || q.has('X-Amz-Credential')) {
    if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') throw new AuthError('IncompleteSignature', 'Unsupported AWS \'algorithm\'', 400);
    const cred = q.get('X-Amz-Credential') ?? '';
    const scope = cred.split('/');
    const sig = q.get('X-Amz-Signature');
    const sh = q.get('X-Amz-SignedHeaders');
    const amzDate = q.get('X-Amz-Date');
    if (scope.length !== 5 || scope[4] !== 'aws4_request' || !sig || !sh || !amzDate)
      throw new AuthError('IncompleteSignature', 'AWS query-string parameters must include X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date and X-Amz-SignedHeaders', 400);
    return {
      presigned: true,
      accessKeyId: scope[0],
      date: scope[1],
      region: scope[2],
      service: scope[3],
      signedHeaders: sh.split(';'),
      signature: sig,
      amzDate,
      securityToken: q.get('X-Amz-Security-Token'),
      expiresSeconds: q.has('X-Amz-Expires') ? Number(q.get('X-Amz-Expires')) : undefined,
    };
  }
  return undefined;
}

function dateHeaderToAmz(d: string | undefined): string | undefined {
  if (!d) return undefined;
  const t = new Date(d);
  if (Number.isNaN(t.getTime())) return undefined;
  return t.toISOString().replace(/[:-]|\.\d{3}/g, '');
}

export function amzDateToMs(s: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) return undefined;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

/** Path normalisation used by non-S3 services: remove empty, `.` and `..` segments; each segment decoded then RFC 3986 encoded. */
export function canonicalUri(rawPath: string, normalize: boolean): string {
  let segs = rawPath.split('/');
  if (normalize) {
    const out: string[] = [];
    for (const s of segs.slice(1)) {
      if (s === '' || s === '.') continue;
      if (s === '..') out.pop();
      else out.push(s);
    }
    const trailing = rawPath.length > 1 && rawPath.endsWith('/') && out.length > 0;
    segs = ['', ...out];
    if (trailing) segs.push('');
    if (segs.length === 1) segs.push('');
  }
  return segs.map((s) => uriEncode(safeDecode(s))).join('/');
}

export function canonicalQuery(q: string, dropSignature: boolean): string {
  return parseQuery(q)
    .filter(([k]) => !(dropSignature && k === 'X-Amz-Signature'))
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export function canonicalRequest(inp: SigInput, auth: ParsedAuth, normalizePath: boolean): string {
  const hdrs = auth.signedHeaders
    .map((n) => {
      const vals = inp.headers.get(n) ?? [];
      return `${n}:${vals.map((v) => v.trim().replace(/\s+/g, ' ')).join(',')}\n`;
    })
    .join('');
  // Non-S3 services hash the payload they received (a presigned GET has an empty one).
  const payloadHash = sha256hex(inp.body);
  return [
    inp.method.toUpperCase(),
    canonicalUri(inp.path, normalizePath),
    canonicalQuery(inp.query, auth.presigned),
    hdrs,
    auth.signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
}

export function expectedSignature(secret: string, auth: ParsedAuth, canonical: string): { signature: string; stringToSign: string } {
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', auth.amzDate, scope, sha256hex(canonical)].join('\n');
  const kDate = hmac('AWS4' + secret, auth.date);
  const kRegion = hmac(kDate, auth.region);
  const kService = hmac(kRegion, auth.service);
  const kSigning = hmac(kService, 'aws4_request');
  return { signature: createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex'), stringToSign };
}

export function sigEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Check everything but the secret: signed headers include host, date consistency, skew. */
export function checkStructure(inp: SigInput, auth: ParsedAuth, nowMs: number): void {
  if (!auth.presigned) {
    if (!auth.signedHeaders.includes('host'))
      throw new AuthError('SignatureDoesNotMatch', "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
    if (inp.headers.has('x-amz-date') && !auth.signedHeaders.includes('x-amz-date') && !auth.signedHeaders.includes('date'))
      throw new AuthError('SignatureDoesNotMatch', "'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization.");
  }
  const declared = inp.headers.get('x-amz-content-sha256');
  if (declared && declared.join(',') !== sha256hex(inp.body) && declared.join(',') !== 'UNSIGNED-PAYLOAD')
    throw new AuthError('SignatureDoesNotMatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  const t = amzDateToMs(auth.amzDate);
  if (t === undefined) throw new AuthError('IncompleteSignature', `Date must be in ISO-8601 'basic format'. Got '${auth.amzDate}'.`, 400);
  if (auth.amzDate.slice(0, 8) !== auth.date)
    throw new AuthError('SignatureDoesNotMatch', `Credential should be scoped to a valid date. Credential date ${auth.date} does not match request date ${auth.amzDate.slice(0, 8)}.`);
  const fmt = (ms: number) => new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, '');
  if (auth.presigned) {
    const exp = auth.expiresSeconds ?? 900;
    if (t - 15 * 60_000 > nowMs) throw new AuthError('SignatureDoesNotMatch', `Signature not yet current: ${auth.amzDate} is still later than ${fmt(nowMs + 15 * 60_000)} (${fmt(nowMs)} + 15 min.)`);
    if (t + exp * 1000 < nowMs) throw new AuthError('AccessDenied', 'Request has expired');
    return;
  }
  if (t < nowMs - 15 * 60_000)
    throw new AuthError('SignatureDoesNotMatch', `Signature expired: ${auth.amzDate} is now earlier than ${fmt(nowMs - 15 * 60_000)} (${fmt(nowMs)} - 15 min.)`);
  if (t > nowMs + 15 * 60_000)
    throw new AuthError('SignatureDoesNotMatch', `Signature not yet current: ${auth.amzDate} is still later than ${fmt(nowMs + 15 * 60_000)} (${fmt(nowMs)} + 15 min.)`);
}
