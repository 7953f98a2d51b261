/**
 * Sends an iam login's signed caller-identity request to the token service and reads who signed it. The
 * request always goes to the configured endpoint, never to the host the client's URL names (the server
 * must not become a proxy to anywhere); only the path and query are the client's, and the Host header
 * stays the client's because the signature covers it. Provider throttling, 5xx answers and lost
 * connections are retried like the provider clients' calls.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { UserError } from '../../../../shared/errors.js';
import { httpCall, type HttpAnswer } from '../../../../cloud/http.js';
import { CloudApiError } from '../../../../cloud/errors.js';
import { withRetries } from '../../../../cloud/signed-request.js';
import { parseXml, text } from '../../../../cloud/xml.js';
import type { CallerIdentity } from '../../../../cloud/token-service.js';
import type { IamLoginRequest } from './iam-request.js';

const ACTION = 'sts:GetCallerIdentity';
const TIMEOUT_MS = 15_000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
/** An error body quoted back to the caller is cut here: it is the provider's text, but it can be long. */
const MAX_QUOTED_BODY = 1_000;

export interface ForwardOptions {
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

const upstream = (why: string, to?: URL) => new UserError(`error making upstream request${to ? ` to ${to.origin}` : ''}: ${why}`);

/** The client's headers as node:http takes them; Host is the client URL's, Content-Length must be true. */
function forwardedHeaders(req: IamLoginRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(req.headers)) {
    if (name === 'Host') continue;
    try {
      validateHeaderName(name);
      for (const v of values) validateHeaderValue(name, v);
    } catch {
      throw new UserError(`iam_request_headers: header ${JSON.stringify(name)} has a name or value that cannot be sent over HTTP`);
    }
    headers[name] = values.length === 1 ? values[0] : values;
  }
  headers.Host = req.url.host;
  const length = req.headers['Content-Length'];
  if (length && length.join(',') !== String(Buffer.byteLength(req.body))) {
    throw new UserError(`iam_request_headers: Content-Length ${length.join(',')} does not match the ${Buffer.byteLength(req.body)}-byte iam_request_body`);
  }
  return headers;
}

/** An answer worth another attempt (5xx, 429); the last one is what the caller gets back. */
class RetryableAnswer extends CloudApiError {
  constructor(readonly answer: HttpAnswer) {
    super(answer.status, `HTTP${answer.status}`, `status ${answer.status}`, undefined, ACTION);
  }
}

async function sendWithRetries(url: URL, req: IamLoginRequest, opts: ForwardOptions): Promise<HttpAnswer> {
  const headers = forwardedHeaders(req);
  const once = async (): Promise<HttpAnswer> => {
    let answer: HttpAnswer;
    try {
      answer = await httpCall({ url, method: req.method, headers: headers as Record<string, string>, body: req.method === 'POST' ? req.body : undefined, timeoutMs: TIMEOUT_MS });
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as Error).message;
      throw new CloudApiError(0, code, `it could not be reached: ${code}`, undefined, ACTION);
    }
    if (answer.status >= 500 || answer.status === 429) throw new RetryableAnswer(answer);
    return answer;
  };
  try {
    // Every failure `once` throws is one to try again: a lost connection or a 5xx/429 answer.
    return await withRetries(once, (err) => (err instanceof CloudApiError ? err : undefined), {
      maxRetries: opts.maxRetries,
      sleep: opts.sleep,
      baseDelayMs: BASE_DELAY_MS,
      maxDelayMs: MAX_DELAY_MS,
    });
  } catch (err) {
    if (err instanceof RetryableAnswer) return err.answer;
    if (err instanceof CloudApiError) throw upstream(err.message, url);
    throw err;
  }
}

/** The token service's answer to the client's GetCallerIdentity, or a 400 saying what went wrong. */
export async function forwardCallerIdentity(endpoint: string, req: IamLoginRequest, opts: ForwardOptions = {}): Promise<CallerIdentity> {
  let url: URL;
  try {
    url = new URL(endpoint.replace(/\/+$/, '') + req.url.pathname + req.url.search);
  } catch {
    throw upstream(`the token service endpoint "${endpoint}" is not a URL`);
  }
  const answer = await sendWithRetries(url, req, opts);
  const body = answer.body.toString('utf8');
  if (answer.status !== 200) {
    const quoted = body.length > MAX_QUOTED_BODY ? `${body.slice(0, MAX_QUOTED_BODY)}…` : body;
    throw upstream(`received error code ${answer.status} from STS: ${quoted.trim()}`, url);
  }
  const mediaType = String(answer.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'text/xml') throw upstream(`error parsing STS response: content type "${answer.headers['content-type'] ?? ''}" is not text/xml`, url);
  const trimmed = body.trim();
  if (!trimmed.startsWith('<GetCallerIdentityResponse') && !trimmed.startsWith('<?xml')) throw upstream('body of GetCallerIdentity is invalid', url);
  let result;
  try {
    result = parseXml(trimmed);
  } catch {
    throw upstream('error parsing STS response: it is not XML', url);
  }
  const arn = text(result, 'GetCallerIdentityResponse', 'GetCallerIdentityResult', 'Arn');
  const userId = text(result, 'GetCallerIdentityResponse', 'GetCallerIdentityResult', 'UserId');
  const account = text(result, 'GetCallerIdentityResponse', 'GetCallerIdentityResult', 'Account');
  if (!arn || !userId || !account) throw upstream('error parsing STS response: Arn, UserId or Account is missing', url);
  return { arn, userId, account };
}
