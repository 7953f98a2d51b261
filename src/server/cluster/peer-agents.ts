import http from 'node:http';
import https from 'node:https';
import type { RawRequest } from '../http/types.js';

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
