/**
 * One HTTP exchange over node:http/https. Not global fetch: fetch rewrites the Host header, and the
 * signature covers Host, so forwarding or talking to a loopback endpoint must keep the header we signed.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Rejects with an Error whose `code` is the socket error code, or `RequestTimeout`. */
export function httpCall(call: HttpCall): Promise<HttpAnswer> {
  const mod = call.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        protocol: call.url.protocol,
        hostname: call.url.hostname.replace(/^\[|\]$/g, ''),
        port: call.url.port || undefined,
        path: `${call.url.pathname}${call.url.search}`,
        method: call.method,
        headers: call.headers,
        timeout: call.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => {
      const err = Object.assign(new Error(`no answer within ${call.timeoutMs} ms`), { code: 'RequestTimeout' });
      req.destroy(err);
    });
    req.on('error', reject);
    req.end(call.body);
  });
}
