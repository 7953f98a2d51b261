/** The agent endpoints of the scheduler API: this server's description and its log stream. */
import type { ServerMembers } from '../cluster/member-views.js';
import type { ApiClient } from './http/client.js';
import { openFrames, type Frame } from './fs.js';

/** GET /v1/agent/monitor: the server's log lines as frames, until the server ends the stream or `signal` aborts. */
export function agentMonitor(client: ApiClient, opts: { logLevel?: string; json?: boolean; signal?: AbortSignal }): Promise<AsyncGenerator<Frame>> {
  return openFrames(client, '/v1/agent/monitor', { log_level: opts.logLevel || undefined, log_json: opts.json || undefined }, opts.signal);
}

/** GET /v1/agent/self, as Nomad answers it (`config`, `member`, `stats` sections). */
export async function agentSelf(client: ApiClient): Promise<AgentSelf> {
  return (await client.scheduler<AgentSelf>('GET', '/v1/agent/self')).body;
}

/** The ID of the node the server runs itself; undefined when it runs none. */
export async function localNodeId(client: ApiClient): Promise<string | undefined> {
  return (await agentSelf(client))?.stats?.client?.node_id || undefined;
}

export interface AgentSelf {
  config?: Record<string, unknown>;
  member?: Record<string, unknown>;
  /** section → key → value, every value a string (Nomad's agent-info) */
  stats: Record<string, Record<string, string>>;
}

/** GET /v1/agent/members: the cluster's servers as Nomad's gossip members. */
export async function agentMembers(client: ApiClient): Promise<ServerMembers> {
  return (await client.scheduler<ServerMembers>('GET', '/v1/agent/members')).body;
}

/** GET /v1/status/leader: the leader's `host:port`. */
export async function statusLeader(client: ApiClient): Promise<string> {
  return (await client.scheduler<string>('GET', '/v1/status/leader')).body;
}

export type { AgentMember, ServerMembers } from '../cluster/member-views.js';
