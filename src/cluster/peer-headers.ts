import type { IncomingMessage } from 'node:http';
import type { RawRequest } from '../framework/http/types.js';

/** Headers that describe a connection to one server, not the request: not passed on to another server. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer', 'proxy-connection']);

/** The caller's headers as another server of the cluster is sent them, with the body's length. */
export function forwardedHeaders(raw: RawRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  headers['content-length'] = String(raw.body.length);
  return headers;
}

/** The other server's answer headers, as this server passes them back to the caller. */
export function relayedHeaders(res: IncomingMessage): Record<string, string> {
  const answer: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) answer[name] = Array.isArray(value) ? value.join(', ') : value;
  return answer;
}
