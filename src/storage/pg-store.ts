import pg from 'pg';
import type { Logger } from '../shared/log.js';
import type { Store } from './store.js';
import { NewerSchemaError, runMigrations, type Migration } from './migrations.js';
import type { LogEntry } from './pending-writes.js';
import { LogFollower } from './pg-follower.js';
import { commitAndNotify, compactLog, lockForWrite, writeBatch } from './pg-queries.js';
import { catchUp, readConsistentSnapshot } from './pg-replica.js';
import { ReplicaStore, type Call } from './replica-store.js';
import { ensureSchema } from './pg-schema.js';
import { DEFAULT_WRITE_TIMEOUTS, IDLE_IN_TRANSACTION_TIMEOUT, sessionEnded, timeoutOptions, unavailable, type WritePhase, type WriteTimeouts } from './pg-failures.js';
import type { Outcome } from './write-batch.js';

/**
 * The store on PostgreSQL, for several server processes sharing one database, kept the way Nomad servers
 * keep their state: every process holds all of it in memory (a replica), and reads, which are
 * synchronous, answer from there. PostgreSQL holds the data, a log of every write, and the lock that
 * orders writes across processes.
 *
 * A write takes the lock (the svc_meta row), brings the replica up to the last write of any process, runs
 * the write function against it, and commits its log entry and the new index together. The tables' rows
 * (svc_kv) follow the log by compaction, in the background, every COMPACT_EVERY writes: a commit writes
 * one row however many keys it changed, and a key written many times is written to svc_kv once. The
 * replica takes the write right after COMMIT, before the promise resolves. Other processes hear of it by
 * NOTIFY, or by polling, and apply the log. Writes queued while one is in flight share the next
 * transaction (group commit), each with its own index, as LMDB does.
 *
 * COMMIT runs with synchronous_commit on (PostgreSQL's default; the store refuses a database where it is
 * off), so a commit is durable when it answers, and `durable` is already resolved: waitForCommit and
 * waitForIndex wake together. A write whose connection breaks during COMMIT is reported failed though it
 * may have committed (PostgreSQL cannot say which); if it did, the replica learns so from the log.
 *
 * No process can hold the others' writes: the sessions' timeouts (pg-failures.ts) end a write that stalls
 * holding the lock. A write the database fails, or cannot be reached for, is an Unavailable (503) that
 * says whether it may have been applied; the log says why, once per outage.
 */

/** Write functions per transaction: enough to share a flush, bounded so one transaction stays modest. */
const MAX_BATCH = 1_000;
/** The log keeps this many entries: a process further behind reloads everything instead. */
const LOG_RETAIN = 10_000;
/** The process whose commit crosses a multiple of this compacts the log into svc_kv (and prunes it). */
const COMPACT_EVERY = 1_000;
/** A database that does not answer a connection within this fails the write (or the open) that waits for it. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Sessions the store's pool keeps open. */
const POOL_SIZE = 3;

/**
 * Why a session's statement failed: the database's own word (its SQLSTATE) where the session or the
 * statement carried one, since the driver's closing errors come after it; else what the session reported
 * of its end, else the statement's error.
 */
const causeOf = (ended: unknown, thrown: unknown): unknown => [ended, thrown].find((e) => e instanceof pg.DatabaseError) ?? ended ?? thrown;

/** A pool session in a write transaction that holds the writers' lock. */
interface LockedSession {
  client: pg.PoolClient;
  /** the index of the last write, as the database has it */
  last: number;
  /** what the session reported of its own end, if it did */
  ended(): unknown;
  /** stops listening for that, before the session goes back to the pool */
  detach(): void;
}

export interface PgStoreOptions {
  /** A PostgreSQL connection URL (postgres://user:password@host:port/database). */
  url: string;
  /** the product's schema, which the caller knows */
  migrations: readonly Migration[];
  /** where the store says that the database failed a write, ended a session, or answers again */
  log?: Logger;
  timeouts?: Partial<WriteTimeouts>;
}

/**
 * The database server's side of a session's TCP keepalive: a process that vanished without closing its
 * connection (a network partition, a frozen host) loses its session, with the writers' lock or the leader's
 * lock it held, after about 2 + 3 × 1 s rather than the operating system's two hours. A process that
 * stalls on a live host keeps answering keepalives: the write timeouts (pg-failures.ts) and the leader's
 * lease (pg-leadership.ts) bound it instead.
 */
export const SERVER_SIDE_KEEPALIVE = '-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=3';

export async function openPgStore(opts: PgStoreOptions): Promise<Store> {
  const where = describeUrl(opts.url);
  // TCP keepalive on both ends, so that a connection dropped silently is found within seconds.
  const timeouts: WriteTimeouts = {
    idleInTransactionMs: opts.timeouts?.idleInTransactionMs ?? DEFAULT_WRITE_TIMEOUTS.idleInTransactionMs,
    statementMs: opts.timeouts?.statementMs ?? DEFAULT_WRITE_TIMEOUTS.statementMs,
  };
  if (timeouts.statementMs <= timeouts.idleInTransactionMs) {
    throw new Error(`its statement_timeout (${timeouts.statementMs} ms) must be longer than its idle_in_transaction_timeout (${timeouts.idleInTransactionMs} ms): a write waiting behind a stalled one would fail before the stalled one's session is ended`);
  }
  const connection: pg.ClientConfig = { connectionString: opts.url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, options: `${SERVER_SIDE_KEEPALIVE} ${timeoutOptions(timeouts)}` };
  // Three connections, kept open: the write in flight, catching up with the log, and compaction.
  const pool = new pg.Pool({ ...connection, max: POOL_SIZE, idleTimeoutMillis: 0 });
  // An idle connection that breaks is dropped by the pool; the next query connects a new one.
  pool.on('error', () => {});
  // One that breaks while in use fails its query, which the store handles; without a listener its
  // 'error' event would also be thrown, and end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  let store: PgStore | undefined;
  try {
    await ensureSchema(pool);
    store = new PgStore(pool, connection, where, timeouts, opts.log);
    await store.start();
    store.migrating = true;
    await runMigrations(store, opts.migrations);
    store.migrating = false;
  } catch (err) {
    await (store ? store.close() : pool.end()).catch(() => {});
    if (err instanceof NewerSchemaError) throw err;
    throw new Error(`cannot open PostgreSQL store ${where}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return store;
}

class PgStore extends ReplicaStore {
  private readonly follower: LogFollower;
  private compacting: Promise<void> | undefined;
  /** The last compaction failed (the database away, say): the next commit tries again, not the next 1,000th. */
  private compactionOwed = false;
  /** While the migrations run, writes are not timed out: a migration's function may take minutes. */
  migrating = false;
  /** The reason the last write failed for, while the database fails them: logged when it changes. */
  private outage: string | undefined;

  constructor(
    private readonly pool: pg.Pool,
    connection: pg.ClientConfig,
    where: string,
    private readonly timeouts: WriteTimeouts,
    private readonly log: Logger | undefined,
  ) {
    super(where);
    this.follower = new LogFollower(connection, pool, this.replica);
  }

  async start(): Promise<void> {
    await this.follower.start();
    const client = await this.pool.connect();
    try {
      this.replica.replace(await readConsistentSnapshot(client));
      client.release();
    } catch (err) {
      client.release(true);
      throw err;
    }
    this.follower.follow();
  }

  protected async shutdown(): Promise<void> {
    await this.follower.stop();
    await this.compacting;
    await this.pool.end();
  }

  /** Compacts the log in the background, one compaction at a time. */
  private compactSoon(): void {
    if (this.compacting) return;
    this.compactionOwed = false;
    this.compacting = (async () => {
      const client = await this.pool.connect();
      try {
        await compactLog(client, LOG_RETAIN);
        client.release();
      } catch (err) {
        client.release(true);
        throw err;
      }
    })()
      .catch(() => void (this.compactionOwed = true))
      .finally(() => (this.compacting = undefined));
  }

  /** One PostgreSQL transaction for the calls queued by the time the lock is held. Never throws. */
  protected async runBatch(): Promise<void> {
    const locked = await this.lockedSession();
    if (!locked) return;
    const { client, last } = locked;
    let phase: WritePhase = 'writing';
    let calls: Call[] | undefined;
    let entries: LogEntry[] = [];
    let outcomes: Outcome[] = [];
    try {
      // Behind only when another process wrote since this one last heard.
      if (this.replica.index < last) await catchUp(client, this.replica, true);
      if (this.replica.index !== last) throw new Error(`store replica is at index ${this.replica.index}, the database at ${last}`);
      calls = this.queue.splice(0, MAX_BATCH);
      ({ entries, outcomes } = this.runCalls(calls, last));
      if (entries.length === 0) {
        await client.query('ROLLBACK');
      } else {
        await writeBatch(client, entries);
        const index = entries[entries.length - 1].index;
        phase = 'committing';
        await commitAndNotify(client, index);
        if (this.compactionOwed || Math.floor(index / COMPACT_EVERY) > Math.floor(last / COMPACT_EVERY)) this.compactSoon();
      }
      locked.detach();
      client.release();
    } catch (thrown) {
      const cause = causeOf(locked.ended(), thrown);
      await client.query('ROLLBACK').catch(() => {});
      locked.detach();
      // Its session is in an unknown state: close it rather than hand it to the next write.
      client.release(true);
      const err = this.failure(cause, phase, thrown);
      if (calls === undefined) this.failQueued(err);
      // A function's own error says more than the failed transaction it was left out of.
      else calls.forEach((c, i) => c.reject(outcomes[i]?.ok === false ? outcomes[i].error : err));
      return;
    }
    if (this.outage !== undefined) {
      this.outage = undefined;
      this.log?.info('the state database commits writes again', { database: this.where });
    }
    this.settle(calls, entries, outcomes);
  }

  /**
   * A session of the pool in a write transaction, holding the writers' lock, with the index of the last
   * write; undefined when none could be had (the queued calls are failed). A session the database ended
   * while it sat idle in the pool, or while it waited for the lock (a restart, an operator's
   * pg_terminate_backend), fails at that first statement, before anything of the write is sent: another
   * is tried, up to a fresh connection once the pool's ended ones are gone, so a caller is not answered
   * 503 for a session that was dead before its write began. What the session itself reports is kept: a
   * session the database ended says why once, and the queries after it fail with the driver's "not
   * queryable".
   */
  private async lockedSession(): Promise<LockedSession | undefined> {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (err) {
        this.failQueued(this.failure(err, 'connecting'));
        return undefined;
      }
      let ended: unknown;
      const onError = (err: unknown) => (ended ??= err);
      client.on('error', onError);
      try {
        const last = await lockForWrite(client, this.migrating);
        return { client, last, ended: () => ended, detach: () => client.off('error', onError) };
      } catch (thrown) {
        client.off('error', onError);
        client.release(true);
        const cause = causeOf(ended, thrown);
        if (attempt < POOL_SIZE && sessionEnded(cause)) continue;
        this.failQueued(this.failure(cause, 'writing', thrown));
        return undefined;
      }
    }
  }

  /**
   * What the callers of a failed write are told: an Unavailable for the database away or a session it
   * ended, logged with its cause (once while the cause stays the same); any other error as it was.
   */
  private failure(cause: unknown, phase: WritePhase, thrown: unknown = cause): unknown {
    const err = unavailable(cause, phase, this.timeouts) ?? unavailable(thrown, phase, this.timeouts);
    if (err === undefined) return thrown;
    const reason = err.cause instanceof Error ? err.cause.message : String(err.cause);
    const code = err.cause instanceof pg.DatabaseError ? err.cause.code : undefined;
    if (code === IDLE_IN_TRANSACTION_TIMEOUT) {
      // Not an outage: this process stalled, and the database ended its session to free the others.
      this.log?.warn(`the state database ended this server's write session: it sat in a transaction for more than ${this.timeouts.idleInTransactionMs} ms (the process was stopped or starved); the write failed, nothing of it was written`, { database: this.where });
    } else if (this.outage !== reason) {
      this.outage = reason;
      this.log?.warn(`the state database failed a write (${phase}): ${reason}; writes answer 503 until it is back`, { database: this.where, ...(code ? { sqlstate: code } : {}) });
    }
    return err;
  }

  /** The database failed before the queued calls ran: they fail with its error. */
  private failQueued(err: unknown): void {
    for (const c of this.queue.splice(0)) c.reject(err);
  }
}

/** The URL without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
