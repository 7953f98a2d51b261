/**
 * Which server of a cluster leads: the one that runs the evaluation broker, the schedulers and the plan
 * applier, the periodic launcher, the deployment watcher, the drainer, garbage collection, token expiry,
 * the cloud tidy and heartbeat expiry. Every server answers reads and writes; the leader alone does the
 * once-per-cluster work, and forwards nothing.
 *
 * The leader is named in the state (`meta/leader`), with a term that grows at each change of leader. Every
 * write of the leader's work checks, inside its transaction, that the state still names this server at its
 * term (fence): a server that lost the lead without knowing it yet can no longer write as leader.
 */
import { META_TABLE, type Store, type WriteTx } from '../storage/store.js';

/** What `meta/leader` holds: the leader's term and how to reach it. */
export interface LeaderRecord {
  Term: number;
  /** the leading server's ID (its member ID) */
  ID: string;
  Name: string;
  /** the leader's API address, e.g. http://10.0.0.5:4646 */
  Address: string;
  /** when it took the lead, Unix ms */
  Since: number;
}

export const LEADER_KEY = 'leader';

export function readLeader(store: Pick<Store, 'get'>): LeaderRecord | undefined {
  return store.get<LeaderRecord>(META_TABLE, LEADER_KEY);
}

/** The server, as the cluster knows it. */
export interface ServerIdentity {
  ID: string;
  Name: string;
  /** its API address as other servers and nodes reach it */
  Address: string;
}

/** Thrown by a fenced write of a server that no longer leads. */
export class NotLeader extends Error {
  constructor(message = 'this server is no longer the cluster leader') {
    super(message);
    this.name = 'NotLeader';
  }
}

export interface Leadership {
  readonly self: ServerIdentity;
  /** true while this server leads (and its leader work runs) */
  isLeader(): boolean;
  /** the leader the state names, if any; undefined while there is none */
  leader(): LeaderRecord | undefined;
  /** whether a leader is known and believed alive (X-Svc-KnownLeader) */
  knownLeader(): boolean;
  /** ms since this server last heard from the cluster's state (X-Svc-LastContact); 0 on the leader */
  lastContactMs(): number;
  /**
   * Starts competing for the lead; `onLead(fence)` runs when this server takes it, with the term check
   * its writes must make, and `onStepDown` when it loses it (awaited before it competes again).
   */
  start(hooks: { onLead(fence: (tx: WriteTx) => void): Promise<void> | void; onStepDown(): Promise<void> | void }): Promise<void>;
  stop(): Promise<void>;
}
