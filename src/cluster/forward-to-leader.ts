import { InternalError, NoLeader } from '../shared/errors.js';
import type { RawRequest, RawResponse } from '../framework/http/types.js';
import type { Leadership } from './leadership.js';
import { peerAgents, peerRequest, type PeerTls } from './peer-agents.js';

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
    if (!leader || leader.ID === leadership.self.ID || !leader.Address || !leadership.knownLeader()) throw new NoLeader(NO_LEADER);
    try {
      return await peerRequest(raw, leader.Address, agentFor, FORWARD_TIMEOUT_MS);
    } catch (err) {
      throw new InternalError(`${NO_LEADER}: the leader at ${leader.Address} did not answer (${(err as Error).message})`);
    }
  };
}
