/**
 * Which server reaches each node: the one running it in its own process, or holding the tunnel the node
 * keeps open (src/scheduler/wire/tunnel-protocol.ts). A request that reaches into a running task (exec,
 * logs, files, signal ...) may arrive at any server of a cluster; the others look the node up here and
 * forward the request to that server (node-forwarder.ts), as Nomad's servers forward client requests to
 * the server a client is connected to.
 */
import type { Store } from '../storage/store.js';
import { FAILED_AFTER_MS, MEMBERS_TABLE, type MemberRecord } from './members.js';

export const NODE_HOLDERS_TABLE = 'node-holders';

/** The connection ID of a node in a server's own process, which has no tunnel. */
export const IN_PROCESS = 'in-process';

interface HolderRecord {
  ServerID: string;
  /** which of the node's connections: a later one replaces it, and only its own end removes it */
  ConnectionID: string;
}

export async function recordHolder(store: Store, nodeId: string, serverId: string, connectionId: string): Promise<void> {
  await store.write((tx) => tx.put(NODE_HOLDERS_TABLE, nodeId, { ServerID: serverId, ConnectionID: connectionId } satisfies HolderRecord));
}

/** Removes the record when it is still this connection's: the node may have connected again meanwhile. */
export async function forgetHolder(store: Store, nodeId: string, connectionId: string): Promise<void> {
  await store.write((tx) => {
    if (tx.get<HolderRecord>(NODE_HOLDERS_TABLE, nodeId)?.ConnectionID === connectionId) tx.delete(NODE_HOLDERS_TABLE, nodeId);
  });
}

/**
 * The server that reaches the node, when it is another one and alive (heard from within FAILED_AFTER_MS);
 * undefined otherwise, and then no server reaches it.
 */
export function holderElsewhere(store: Pick<Store, 'get'>, nodeId: string, selfId: string, now = Date.now()): MemberRecord | undefined {
  const record = store.get<HolderRecord>(NODE_HOLDERS_TABLE, nodeId);
  if (!record || record.ServerID === selfId) return undefined;
  const member = store.get<MemberRecord>(MEMBERS_TABLE, record.ServerID);
  if (!member?.Address || now - member.LastSeen > FAILED_AFTER_MS) return undefined;
  return member;
}
