import http from 'node:http';
import https from 'node:https';
import type { RawRequest, RawResponse } from '../framework/http/types.js';
import { forwardedHeaders, relayedHeaders } from './peer-headers.js';

/** What this server presents to the other servers of the cluster, and the CAs it trusts for them. */
export interface PeerTls {
  cert: string;
  key: string;
  ca: string[];
}

/**
 * Keep-alive connections to the other servers. Over TLS this server presents its own certificate, and
 * trusts its client CAs and its own certificate: the servers of a cluster share one certificate, or have
 * theirs issued by the CA they verify clients with.
 */
export function peerAgents(tls?: PeerTls): (url: URL) => http.Agent {
  const plain = new http.Agent({ keepAlive: true });
  const secure = new https.Agent({ keepAlive: true, ...(tls ?? {}) });
  return (url) => (url.protocol === 'https:' ? secure : plain);
}

/** The request's path and query at another server's address. */
export const peerUrl = (raw: RawRequest, address: string): URL => new URL(raw.path + (raw.query.size > 0 ? `?${raw.query}` : ''), address);

/**
 * Sends the caller's request on to the server at `address` and answers its answer, the body streamed as
 * it comes (a log follow streams through both servers). The other server has `answerWithinMs` to answer;
 * its body may then take its time. Rejects when it cannot be reached or does not answer in time.
 */
export function peerRequest(raw: RawRequest, address: string, agentFor: (url: URL) => http.Agent, answerWithinMs: number, extraHeaders: Record<string, string> = {}): Promise<RawResponse> {
  const url = peerUrl(raw, address);
  const headers = { ...forwardedHeaders(raw), ...extraHeaders };
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: raw.method, headers, agent: agentFor(url) }, (res) => {
      resolve({
        status: res.statusCode ?? 502,
        headers: relayedHeaders(res),
        body: '',
        stream: async (write, signal) => {
          const stop = () => res.destroy();
          signal.addEventListener('abort', stop, { once: true });
          try {
            for await (const chunk of res) await write(chunk as Buffer);
            // A cut answer is cut here too, so the caller does not take it for a whole one.
            if (!res.complete) throw new Error(`the answer of ${address} was cut`);
          } finally {
            signal.removeEventListener('abort', stop);
          }
        },
      });
    });
    req.setTimeout(answerWithinMs, () => req.destroy(new Error(`no answer within ${answerWithinMs / 1000} s`)));
    req.on('response', () => req.setTimeout(0));
    req.on('error', reject);
    req.end(raw.body);
  });
}
