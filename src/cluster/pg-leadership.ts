import pg from 'pg';
import type { Logger } from '../shared/log.js';
import { META_TABLE, type Store, type WriteTx } from '../storage/store.js';
import { SERVER_SIDE_KEEPALIVE } from '../storage/pg-store.js';
import { LEADER_KEY, NotLeader, readLeader, type LeaderRecord, type Leadership, type ServerIdentity } from './leadership.js';
import { leadershipsTaken } from './telemetry.js';

/**
 * Leadership among servers sharing one PostgreSQL database: the leader is the server whose session holds
 * a session-level advisory lock. PostgreSQL releases the lock when that session ends (a server killed, its
 * connection closed or timed out by TCP keepalive), and the next server to ask takes it.
 *
 * On taking the lock a server writes itself into `meta/leader` with the next term, and only then starts
 * the leader's work; every write of that work checks the term in its own transaction (fence). A leader
 * steps down when its lock session fails or does not answer, or when the state names another leader;
 * whatever it still tries to write as leader is refused by the fence.
 *
 * The lock is a lease: the lock session runs with idle_session_timeout, so PostgreSQL ends it, and frees
 * the lock, when the leader sends nothing for `leaseMs`; the leader renews it every second with its check.
 * A leader that cannot renew (stopped by SIGSTOP or a debugger, starved, cut off while its kernel still
 * answers keepalives) loses the lock within the lease, another server takes the next term, and the old
 * one, once it runs again, finds its session ended (or its own lease run out) and steps down; its late
 * writes meet the new term in the state and are refused. Needs PostgreSQL 14 or later.
 */

/** The advisory lock's key: an arbitrary constant, the same in every svc build ("svc" in ASCII). */
const LEADER_LOCK = 0x737663;

/** The lock session's application_name, which names it in pg_stat_activity. */
export const LOCK_SESSION_NAME = 'svc leader lock';

/** How often a follower asks for the lock, and the leader checks its session. */
const CHECK_MS = 1_000;
/** A check the database does not answer within this counts as a lost session. */
const CHECK_TIMEOUT_MS = 3_000;
/** How long a leader that does not renew keeps the lock: a few missed checks, not one slow one. */
export const DEFAULT_LEASE_MS = 5_000;
/** SQLSTATE of a session PostgreSQL ended for idle_session_timeout: the lease ran out. */
const LEASE_EXPIRED = '57P05';

interface Hooks {
  onLead(fence: (tx: WriteTx) => void): Promise<void> | void;
  onStepDown(): Promise<void> | void;
}

export class PgLeadership implements Leadership {
  private session: pg.Client | undefined;
  private term: number | undefined;
  private leading = false;
  private lockHeld = false;
  private lastContact = Date.now();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: () => void = () => undefined;

  constructor(
    private readonly url: string,
    private readonly store: Store,
    readonly self: ServerIdentity,
    private readonly log: Logger,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  isLeader(): boolean {
    return this.leading;
  }

  leader(): LeaderRecord | undefined {
    return readLeader(this.store);
  }

  knownLeader(): boolean {
    return this.leading || (this.lockHeld && this.leader() !== undefined);
  }

  lastContactMs(): number {
    return this.leading ? 0 : Math.max(0, Date.now() - this.lastContact);
  }

  async start(hooks: Hooks): Promise<void> {
    this.loop = this.run(hooks);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
  }

  private async run(hooks: Hooks): Promise<void> {
    while (!this.stopped) {
      try {
        await this.compete(hooks);
      } catch (err) {
        if (!this.stopped && !(err instanceof LeadLost)) this.log.warn(`leader election: ${(err as Error).message}`);
      }
      await this.endSession();
      if (!this.stopped) await this.pause();
    }
  }

  /** One session: waits for the lock, leads while the session holds it, steps down when it does not. */
  private async compete(hooks: Hooks): Promise<void> {
    const options = `${SERVER_SIDE_KEEPALIVE} -c idle_session_timeout=${this.leaseMs}`;
    const session = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 10_000, query_timeout: CHECK_TIMEOUT_MS, options, application_name: LOCK_SESSION_NAME });
    let broken: Error | undefined;
    session.on('error', (err) => (broken = err));
    session.on('end', () => (broken ??= new Error('the session ended')));
    this.session = session;
    await session.connect();
    while (!this.stopped && !broken) {
      const { rows } = await session.query<{ mine: boolean; held: boolean }>(
        `SELECT pg_try_advisory_lock($1::bigint) AS mine,
                EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = $2::oid AND objsubid = 1 AND granted
                          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
        [LEADER_LOCK, String(LEADER_LOCK)],
      );
      this.lastContact = Date.now();
      this.lockHeld = rows[0].held;
      if (rows[0].mine) break;
      await this.pause();
    }
    if (this.stopped || broken) return;
    this.term = await this.renewingWhile(session, this.claim());
    this.leading = true;
    leadershipsTaken.inc();
    this.log.info(`this server leads the cluster (term ${this.term})`);
    try {
      await hooks.onLead((tx) => this.fence(tx));
      let renewed = Date.now();
      while (!this.stopped && !broken) {
        await this.pause();
        if (this.stopped) break;
        // A process that ran again after a stall: the lease may be another server's by now.
        if (Date.now() - renewed > this.leaseMs) throw new Error(`its lease ran out: the lock was last renewed ${Date.now() - renewed} ms ago (the lease is ${this.leaseMs} ms; the process was stopped, starved or cut off)`);
        await session.query('SELECT 1');
        renewed = Date.now();
        const named = readLeader(this.store);
        if (named && (named.ID !== this.self.ID || named.Term !== this.term)) throw new Error(`the state names ${named.Name} (term ${named.Term}) as leader`);
      }
      if (broken && !this.stopped) throw broken;
    } catch (err) {
      // Said before the leader's work stops, which may take a moment.
      if (!this.stopped) this.log.warn(`this server lost the lead (term ${this.term}): ${this.why(err)}`);
      throw new LeadLost();
    } finally {
      this.leading = false;
      this.lockHeld = false;
      if (!this.stopped) this.log.warn(`this server no longer leads the cluster (term ${this.term})`);
      await hooks.onStepDown();
    }
  }

  /** Renews the lease while `work` runs: the claim may wait for the writers' lock held by a stalled server. */
  private async renewingWhile<T>(session: pg.Client, work: Promise<T>): Promise<T> {
    const timer = setInterval(() => void session.query('SELECT 1').catch(() => {}), CHECK_MS);
    try {
      return await work;
    } finally {
      clearInterval(timer);
    }
  }

  /** Names this server leader at the next term; answers the term. */
  private async claim(): Promise<number> {
    const { result } = await this.store.write((tx) => {
      const previous = tx.get<LeaderRecord>(META_TABLE, LEADER_KEY);
      const record: LeaderRecord = { Term: (previous?.Term ?? 0) + 1, ID: this.self.ID, Name: this.self.Name, Address: this.self.Address, Since: Date.now() };
      tx.put(META_TABLE, LEADER_KEY, record);
      return record.Term;
    });
    return result;
  }

  /** Why the lead was lost, in words an operator can act on. */
  private why(err: unknown): string {
    if (err instanceof pg.DatabaseError && err.code === LEASE_EXPIRED) {
      return `the database ended its lock session after ${this.leaseMs} ms without a renewal (the process was stopped, starved or cut off), and the lock with it`;
    }
    return err instanceof Error ? err.message : String(err);
  }

  private fence(tx: WriteTx): void {
    const named = tx.get<LeaderRecord>(META_TABLE, LEADER_KEY);
    if (!this.leading || named?.ID !== this.self.ID || named.Term !== this.term) throw new NotLeader();
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, CHECK_MS);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async endSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    // Ending the session gives the lock back at once, rather than when PostgreSQL notices.
    await session?.end().catch(() => {});
  }
}

/** The lead was lost, and said so in the log already. */
class LeadLost extends Error {}
