/**
 * An http check, judged as Nomad's checker judges it: 200 passes with "nomad: http ok"; any other status
 * below 400 passes and any from 400 up (429 included: Nomad's checks know no warning state) fails, both
 * with the start of the response body as the output. A request that fails or outlasts the timeout fails
 * with Go's error text. Redirects are not followed: a 3xx passes as it is.
 */
import http from 'node:http';
import https from 'node:https';
import type { ServiceCheck } from '../../scheduler/structs/service.js';
import { VERSION } from '../../version.js';
import { type CheckTarget, joinHostPort } from './address.js';
import { type CheckOutcome, OUTPUT_LIMIT, dialError } from './outcome.js';

type HttpCheck = Pick<ServiceCheck, 'Protocol' | 'Path' | 'Method' | 'Header' | 'Body' | 'TLSSkipVerify' | 'TLSServerName'>;

/** Go's url.Error names the method like this: `Get "http://…": …`. */
const op = (method: string) => method.slice(0, 1) + method.slice(1).toLowerCase();

/** The check's headers; a Host header names the virtual host (its first value, as Go's request.Host). */
function requestHeaders(check: HttpCheck): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(check.Header ?? {})) {
    if (!values || values.length === 0) continue;
    headers[name] = name.toLowerCase() === 'host' || values.length === 1 ? values[0] : [...values];
  }
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent')) headers['User-Agent'] = `svc/${VERSION}`;
  if (check.Body) headers['Content-Length'] = String(Buffer.byteLength(check.Body));
  return headers;
}

export function runHttpCheck(target: CheckTarget, check: HttpCheck, timeoutMs: number, signal?: AbortSignal): Promise<CheckOutcome> {
  const method = check.Method || 'GET';
  let url: URL;
  try {
    url = new URL(check.Path, `${check.Protocol || 'http'}://${joinHostPort(target)}/`);
  } catch (err) {
    return Promise.resolve({ Status: 'failure', Output: `nomad: ${(err as Error).message}` });
  }
  const failed = (reason: string): CheckOutcome => ({ Status: 'failure', Output: `nomad: ${op(method)} "${url.href}": ${reason}` });
  if (signal?.aborted) return Promise.resolve(failed('context canceled'));
  return new Promise((resolve) => {
    const abort = new AbortController();
    let done = false;
    /** set once the response has come: a later failure keeps its status */
    let answered: { status: CheckOutcome['Status']; code: number } | undefined;
    const failure = (reason: string): CheckOutcome => (answered ? { Status: answered.status, StatusCode: answered.code, Output: `nomad: ${reason}` } : failed(reason));
    const finish = (outcome: CheckOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      abort.abort();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(failure('context deadline exceeded')), timeoutMs);
    timer.unref();
    const stop = () => finish(failure('context canceled'));
    signal?.addEventListener('abort', stop, { once: true });
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method,
      headers: requestHeaders(check),
      signal: abort.signal,
      agent: false,
      rejectUnauthorized: !check.TLSSkipVerify,
      servername: check.TLSServerName || undefined,
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(failure(dialError(joinHostPort(target), err))));
    req.on('response', (res) => {
      const code = res.statusCode ?? 0;
      if (code === 200) return finish({ Status: 'success', StatusCode: code, Output: 'nomad: http ok' });
      answered = { status: code < 400 ? 'success' : 'failure', code };
      const chunks: Buffer[] = [];
      let size = 0;
      const body = (): CheckOutcome => ({ Status: answered!.status, StatusCode: code, Output: Buffer.concat(chunks).subarray(0, OUTPUT_LIMIT).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= OUTPUT_LIMIT) finish(body());
      });
      res.on('end', () => finish(body()));
      res.on('error', (err) => finish(failure(err.message)));
    });
    req.end(check.Body || undefined);
  });
}
