/**
 * Signature Version 4 for the query-protocol calls: a form-encoded POST, signed over its content type,
 * host, date and (for temporary credentials) session token, and the SHA-256 of its body. The signing
 * key is an HMAC chain over the secret, the day, the region and the service, the same for every call
 * of a day: it is derived once and kept, so a call costs two hashes and one HMAC.
 */
import { createHash, createHmac } from 'node:crypto';
import { LruCache } from '../shared/lru-cache.js';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded; charset=utf-8';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignedQuery {
  /** the URL's host (with a non-default port): sent as Host and signed */
  host: string;
  /** the path as sent */
  path: string;
  service: string;
  region: string;
  body: string;
  credentials: SigningCredentials;
  now?: Date;
}

/** A few days × regions × services × keys: the derived keys in use at once. */
const MAX_SIGNING_KEYS = 64;
const signingKeys = new LruCache<string, Buffer>(MAX_SIGNING_KEYS);

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const id = createHash('sha256').update(secret).update('\0').update(day).update('\0').update(region).update('\0').update(service).digest('base64');
  let key = signingKeys.get(id);
  if (!key) {
    const hmac = (k: string | Buffer, data: string) => createHmac('sha256', k).update(data, 'utf8').digest();
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
    signingKeys.set(id, key);
  }
  return key;
}

const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path as the provider canonicalises it: dot segments resolved, empty ones dropped, each segment encoded. */
export function canonicalPath(path: string): string {
  if (/^[A-Za-z0-9\-._~/]*$/.test(path) && !/\/\/|(^|\/)\.\.?(\/|$)/.test(path)) return path === '' ? '/' : path;
  const out: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(uriEncode(decoded(segment)));
  }
  const trailing = path.length > 1 && path.endsWith('/') && out.length > 0;
  return `/${out.join('/')}${trailing ? '/' : ''}`;
}

/** The headers to send with the call: Host, Content-Type, Content-Length, X-Amz-Date, the session token, Authorization. */
export function signQuery(q: SignedQuery): Record<string, string> {
  const amzDate = (q.now ?? new Date()).toISOString().replace(/[-:]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const token = q.credentials.sessionToken;
  const signedHeaders = token ? 'content-type;host;x-amz-date;x-amz-security-token' : 'content-type;host;x-amz-date';
  const canonical =
    `POST\n${canonicalPath(q.path)}\n\n` +
    `content-type:${FORM_CONTENT_TYPE}\nhost:${q.host}\nx-amz-date:${amzDate}\n${token ? `x-amz-security-token:${token.trim()}\n` : ''}\n` +
    `${signedHeaders}\n${createHash('sha256').update(q.body, 'utf8').digest('hex')}`;
  const scope = `${day}/${q.region}/${q.service}/aws4_request`;
  const stringToSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
  const signature = createHmac('sha256', signingKey(q.credentials.secretAccessKey, day, q.region, q.service)).update(stringToSign, 'utf8').digest('hex');
  const headers: Record<string, string> = {
    Host: q.host,
    'Content-Type': FORM_CONTENT_TYPE,
    'Content-Length': String(Buffer.byteLength(q.body)),
    'X-Amz-Date': amzDate,
  };
  if (token) headers['X-Amz-Security-Token'] = token;
  headers.Authorization = `AWS4-HMAC-SHA256 Credential=${q.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
