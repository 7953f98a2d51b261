/**
 * The cluster's member list: each server keeps its own record in the shared state and rewrites its
 * LastSeen on a heartbeat, so any server can answer who is in the cluster and who still beats. A server
 * that stops removes its record (Nomad removes a member that leaves); one that dies ages into `failed`,
 * and after a day it is no longer listed and the next heartbeat's write deletes it (Nomad reaps failed
 * members after 24 hours).
 */
import type { Store, WriteTx } from '../storage/store.js';
import type { ServerIdentity } from './leadership.js';

export const MEMBERS_TABLE = 'cluster-members';

export const MEMBER_HEARTBEAT_MS = 5000;
/** A member unheard of for three heartbeats is failed: one late or lost beat does not flap its status. */
export const FAILED_AFTER_MS = 3 * MEMBER_HEARTBEAT_MS;
export const REAP_AFTER_MS = 24 * 60 * 60 * 1000;

/** A server's record, keyed by its ID. */
export interface MemberRecord {
  ID: string;
  Name: string;
  /** its API address (http(s)://host:port); '' while it does not listen yet */
  Address: string;
  Version: string;
  /** Unix ms */
  StartedAt: number;
  /** Unix ms of its last heartbeat */
  LastSeen: number;
}

export type MemberStatus = 'alive' | 'failed';

export interface Member extends MemberRecord {
  Status: MemberStatus;
}

/** Whether a record is past the reaping age at `now`. */
const reapable = (m: MemberRecord, now: number) => now - m.LastSeen > FAILED_AFTER_MS + REAP_AFTER_MS;

/** The server's record as of `now`, its start kept from what the state holds. */
function beat(tx: WriteTx, self: ServerIdentity, version: string, now: number, startedAt?: number): void {
  const prev = tx.get<MemberRecord>(MEMBERS_TABLE, self.ID);
  const record: MemberRecord = { ID: self.ID, Name: self.Name, Address: self.Address, Version: version, StartedAt: startedAt ?? prev?.StartedAt ?? now, LastSeen: now };
  tx.put(MEMBERS_TABLE, self.ID, record);
  for (const { key, value } of tx.list<MemberRecord>(MEMBERS_TABLE)) if (reapable(value, now)) tx.delete(MEMBERS_TABLE, key);
}

/** Writes this server's record (overwriting one left by an earlier run with the same ID): it starts now. */
export async function joinCluster(store: Store, self: ServerIdentity, version: string, now = Date.now()): Promise<void> {
  await store.write((tx) => beat(tx, self, version, now, now));
}

export interface MemberHeartbeat {
  /** Stops the beats and removes the record; a failure to remove it is logged, never thrown. */
  stop(): Promise<void>;
}

/**
 * Rewrites this server's LastSeen (and its name and address, which may change once it listens) every
 * `intervalMs`, and deletes the records past the reaping age. A failed write is logged through `log`
 * (or ignored without one): the next beat tries again. One beat runs at a time.
 */
export function startMemberHeartbeat(
  store: Store,
  self: ServerIdentity,
  version: string,
  intervalMs = MEMBER_HEARTBEAT_MS,
  log?: { warn(msg: string): void },
): MemberHeartbeat {
  let running: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = store
      .write((tx) => beat(tx, self, version, Date.now()))
      .then(
        () => undefined,
        (err: Error) => log?.warn(`cluster member heartbeat failed: ${err.message}`),
      )
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      // A beat still writing would put the record back after the delete.
      await running;
      try {
        await store.write((tx) => tx.delete(MEMBERS_TABLE, self.ID));
      } catch (err) {
        // The record then ages into `failed` and is reaped: a stop must not fail for it.
        log?.warn(`could not remove this server's cluster member record: ${(err as Error).message}`);
      }
    },
  };
}

/**
 * Every member with its status at `now` — alive when heard from within FAILED_AFTER_MS, else failed —
 * sorted by name, then ID; members failed for longer than REAP_AFTER_MS are left out.
 */
export function listMembers(store: Pick<Store, 'list'>, now = Date.now()): Member[] {
  return store
    .list<MemberRecord>(MEMBERS_TABLE)
    .map((e) => e.value)
    .filter((m) => !reapable(m, now))
    .map((m): Member => ({ ...m, Status: now - m.LastSeen <= FAILED_AFTER_MS ? 'alive' : 'failed' }))
    .sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0));
}
