/**
 * Sends one query-protocol call (Action + Version + params, form-encoded POST) signed with Signature V4,
 * and turns the XML answer into a document or a CloudApiError. Throttling, 5xx and lost connections are
 * retried with capped exponential backoff and full jitter; other 4xx answers are final.
 */
import { LruCache } from '../shared/lru-cache.js';
import { CloudApiError, isRetryable } from './errors.js';
import { keptHttpCall } from './keep-alive.js';
import { signQuery } from './sigv4.js';
import { parseXml, text, type XmlNode } from './xml.js';
import type { CredentialSource } from './credentials.js';

/** Knobs shared by every client; all optional. Tests inject `sleep` and `random` to observe backoff. */
export interface TransportOptions {
  /** Retries after the first attempt; -1 or undefined = the library default (3), as config/client's max_retries. */
  maxRetries?: number;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  /** First backoff step; attempt n waits random() * min(maxDelayMs, baseDelayMs * 2^n). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Told about each retry (action, provider code, wait) — never about bodies or keys. */
  onRetry?: (info: { action: string; attempt: number; code: string; status: number; delayMs: number }) => void;
}

export const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_TIMEOUT_MS = 15_000;

export interface QueryCall {
  endpoint: string;
  service: string;
  region: string;
  action: string;
  version: string;
  params?: Record<string, string | number | boolean | undefined>;
  credentials: CredentialSource;
}

export interface QueryAnswer {
  doc: XmlNode;
  requestId?: string;
  status: number;
}

export function effectiveMaxRetries(maxRetries: number | undefined): number {
  return maxRetries === undefined || maxRetries < 0 ? DEFAULT_MAX_RETRIES : maxRetries;
}

export async function sendQuery(call: QueryCall, opts: TransportOptions = {}): Promise<QueryAnswer> {
  return withRetries(
    () => attemptOnce(call, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    (err) => (err instanceof CloudApiError && isRetryable(err) ? err : undefined),
    { ...opts, onRetry: opts.onRetry && ((info) => opts.onRetry!({ ...info, action: info.action || call.action })) },
  );
}

/**
 * Runs `attempt` until it succeeds, fails with an error `retryable` does not accept, or the retries are
 * used up; between attempts it waits random() * min(maxDelayMs, baseDelayMs * 2^n) (full jitter).
 */
export async function withRetries<T>(attempt: () => Promise<T>, retryable: (err: unknown) => CloudApiError | undefined, opts: TransportOptions = {}): Promise<T> {
  const maxRetries = effectiveMaxRetries(opts.maxRetries);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = opts.random ?? Math.random;
  const base = opts.baseDelayMs ?? 100;
  const cap = opts.maxDelayMs ?? 20_000;
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const retry = retryable(err);
      if (!retry || n >= maxRetries) throw err;
      const delayMs = Math.floor(random() * Math.min(cap, base * 2 ** n));
      opts.onRetry?.({ action: retry.action ?? '', attempt: n + 1, code: retry.code, status: retry.status, delayMs });
      await sleep(delayMs);
    }
  }
}

function formBody(call: QueryCall): string {
  const form = new URLSearchParams({ Action: call.action, Version: call.version });
  for (const [k, v] of Object.entries(call.params ?? {})) if (v !== undefined) form.append(k, String(v));
  return form.toString();
}

/** A few endpoints per mount (compute, identity, token service) at most. */
const MAX_ENDPOINTS = 64;
const endpoints = new LruCache<string, { url: URL; path: string; target: URL }>(MAX_ENDPOINTS);

/** The endpoint's URL, the path signed and the URL called, parsed once per endpoint rather than on every call. */
function endpointOf(endpoint: string): { url: URL; path: string; target: URL } {
  let parsed = endpoints.get(endpoint);
  if (!parsed) {
    const url = new URL(endpoint);
    const path = url.pathname === '' ? '/' : url.pathname;
    parsed = { url, path, target: new URL(path, url) };
    endpoints.set(endpoint, parsed);
  }
  return parsed;
}

async function attemptOnce(call: QueryCall, timeoutMs: number): Promise<QueryAnswer> {
  const action = `${call.service}:${call.action}`;
  const { url, path, target } = endpointOf(call.endpoint);
  const body = formBody(call);
  // Credentials are fetched per attempt so a retry after expiry picks up refreshed ones.
  const creds = await call.credentials.get();
  const headers = signQuery({ host: url.host, path, service: call.service, region: call.region, body, credentials: creds });

  let answer;
  try {
    answer = await keptHttpCall({ url: target, method: 'POST', headers, body, timeoutMs });
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'NetworkingError';
    throw new CloudApiError(0, code, `${action} to ${url.origin} failed: ${code}`, undefined, action);
  }
  const raw = answer.body.toString('utf8');
  let doc: XmlNode | undefined;
  try {
    doc = raw.trim() === '' ? {} : parseXml(raw);
  } catch {
    doc = undefined;
  }
  if (answer.status >= 200 && answer.status < 300) {
    if (!doc) throw new CloudApiError(answer.status, 'InvalidResponse', `${action}: the answer is not XML`, undefined, action);
    return { doc, status: answer.status, requestId: requestIdOf(doc) ?? header(answer.headers['x-amzn-requestid']) };
  }
  throw errorFrom(answer.status, doc, action, header(answer.headers['x-amzn-requestid']));
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** IAM/STS put it in ResponseMetadata/RequestId, EC2 in a top-level requestId. */
function requestIdOf(doc: XmlNode): string | undefined {
  const root = Object.values(doc)[0];
  return text(root, 'ResponseMetadata', 'RequestId') ?? text(root, 'requestId') ?? text(root, 'RequestId');
}

/**
 * Two error shapes: IAM/STS `<ErrorResponse><Error><Code/><Message/></Error><RequestId/></ErrorResponse>`,
 * EC2 `<Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>`.
 */
function errorFrom(status: number, doc: XmlNode | undefined, action: string, headerRequestId?: string): CloudApiError {
  const iam = doc?.ErrorResponse;
  const ec2 = doc?.Response;
  const error = iam !== undefined ? (iam as XmlNode).Error : ec2 !== undefined ? (ec2 as XmlNode).Errors && ((ec2 as XmlNode).Errors as XmlNode).Error : undefined;
  const first = Array.isArray(error) ? error[0] : error;
  const code = text(first, 'Code') ?? (status >= 500 ? 'InternalFailure' : `HTTP${status}`);
  const detail = text(first, 'Message');
  const requestId = text(iam, 'RequestId') ?? text(ec2, 'RequestID') ?? text(ec2, 'RequestId') ?? headerRequestId;
  const message = `${action} failed: ${code}${detail ? `: ${detail}` : ''} (status ${status})`;
  return new CloudApiError(status, code, message, requestId, action);
}
