import http from 'node:http';
import https from 'node:https';
import { InternalError } from '../../shared/errors.js';
import type { RawRequest, RawResponse } from '../http/types.js';
import type { Leadership } from './leadership.js';
import { forwardedHeaders, relayedHeaders } from './peer-headers.js';
import { peerAgents, peerUrl, type PeerTls } from './peer-agents.js';

/** Nomad's answer when a request needs the leader and there is none to reach. */
export const NO_LEADER = 'No cluster leader';

/** How long a forwarded request may take: a heartbeat or a registration, answered at once by a live leader. */
const FORWARD_TIMEOUT_MS = 10_000;

export type LeaderForwarder = (raw: RawRequest) => Promise<RawResponse>;

/**
 * Sends a request that only the leader answers (a node's registration and heartbeats, whose timers live on
 * the leader, as in Nomad) on to the leader, and answers what it answered (over TLS as peer-agents.ts says).
 */
export function leaderForwarder(leadership: Leadership, tls?: PeerTls): LeaderForwarder {
  const agentFor = peerAgents(tls);
  return async (raw) => {
    const leader = leadership.leader();
    if (!leader || leader.ID === leadership.self.ID || !leader.Address || !leadership.knownLeader()) throw new InternalError(NO_LEADER);
    const url = peerUrl(raw, leader.Address);
    try {
      return await send(url, raw.method, forwardedHeaders(raw), raw.body, agentFor(url));
    } catch (err) {
      throw new InternalError(`${NO_LEADER}: the leader at ${leader.Address} did not answer (${(err as Error).message})`);
    }
  };
}

function send(url: URL, method: string, headers: Record<string, string | string[]>, body: Buffer, agent: http.Agent): Promise<RawResponse> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent, timeout: FORWARD_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 502, headers: relayedHeaders(res), body: Buffer.concat(chunks) });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${FORWARD_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
