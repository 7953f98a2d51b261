/**
 * Leadership, as the upstreams report it: whether this server leads (Vault's vault.core.active), the
 * term of the leader the state names, and how often this server took the lead (Nomad's raft counter
 * nomad.raft.state.leader). Read when scraped from the leadership `watchLeadership` was last given.
 */
import { Counter, gaugeAt } from '../shared/metrics/registry.js';
import type { Leadership } from './leadership.js';

/** Counted by each Leadership implementation when it takes the lead. */
export const leadershipsTaken = new Counter('nomad.raft.state.leader', 'Times this server took the lead of the cluster.').child();

let watched: Leadership | undefined;

export function watchLeadership(leadership: Leadership): () => void {
  watched = leadership;
  return () => {
    if (watched === leadership) watched = undefined;
  };
}

gaugeAt('vault.core.active', '1 while this server leads the cluster (the active node), else 0.', [], () => watched && (watched.isLeader() ? 1 : 0));
gaugeAt('nomad.nomad.leader.term', 'The term of the leader the state names (it grows at each change of leader).', [], () => watched?.leader()?.Term);
