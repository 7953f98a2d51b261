import pg from 'pg';
import { Unavailable } from '../shared/errors.js';

/**
 * How long a write may hold the database. Every session of the store's pool carries these, so that no
 * process, however it stalls (SIGSTOP, a debugger, a pause of its VM or its garbage collector), can keep
 * the writers' lock, or compaction's, from the others for longer than `idleInTransactionMs`: PostgreSQL
 * ends a session that sits in a transaction without sending anything for that long, and its locks go with
 * it. A process that is alive sends the next statement of a write soon: its longest gap, running a batch of
 * write functions, measured 0.65-0.94 s (and its longest statement 0.97 s) for five plans of 2,000
 * placements committed together on a loaded two-core machine, so 5 s is far from anything healthy.
 *
 * `statementMs` bounds one statement, waiting for the writers' lock included. It is longer than
 * `idleInTransactionMs`, so that a write waiting behind a stalled one waits until the stalled one's
 * session ends and then commits, rather than failing with it.
 */
export interface WriteTimeouts {
  idleInTransactionMs: number;
  statementMs: number;
}

export const DEFAULT_WRITE_TIMEOUTS: WriteTimeouts = { idleInTransactionMs: 5_000, statementMs: 15_000 };

/** The sessions' settings for these timeouts, as `-c` options of the connection. */
export function timeoutOptions(t: WriteTimeouts): string {
  return `-c idle_in_transaction_session_timeout=${t.idleInTransactionMs} -c statement_timeout=${t.statementMs}`;
}

/** Where in a write the database failed: whether the write may have been applied depends on it. */
export type WritePhase = 'connecting' | 'writing' | 'committing';

/** SQLSTATE of a session PostgreSQL ended because it sat in a transaction for too long. */
export const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';

/**
 * The database's failure as the caller of a write sees it: an Unavailable whose message says what
 * happened, whether anything was written, and to retry, never the driver's text (which is for the log).
 * Answers undefined for an error that is not the database being away or overwhelmed (a bug of ours, say).
 */
export function unavailable(err: unknown, phase: WritePhase, t: WriteTimeouts): Unavailable | undefined {
  if (!isOutage(err)) return undefined;
  const code = err instanceof pg.DatabaseError ? err.code : undefined;
  const failure = new Unavailable(message(code, phase, t));
  failure.cause = err;
  return failure;
}

function message(code: string | undefined, phase: WritePhase, t: WriteTimeouts): string {
  const retry = 'Retry the request; the server reconnects on its own.';
  const nothing = 'Nothing of it was written.';
  // Ended while it sat in the transaction: its COMMIT never reached the database.
  if (code === IDLE_IN_TRANSACTION_TIMEOUT) {
    return `This server stalled inside a write for more than ${t.idleInTransactionMs / 1000} s, and the cluster's state database ended its session so that the other servers could write. ${nothing} ${retry}`;
  }
  if (phase === 'committing') {
    return `The connection to the cluster's state database failed while this write was committing, so it may or may not have been applied. Retrying is safe for an idempotent request (a job registered with EnforceIndex, a dispatch with an idempotency token, a secret or policy written by name); read the state first otherwise.`;
  }
  if (phase === 'connecting') return `The cluster's state database cannot be reached, so this write was not made. ${retry}`;
  if (code === '57014') return `The cluster's state database did not complete this write within ${t.statementMs / 1000} s. ${nothing} ${retry}`;
  if (code?.startsWith('57')) return `The cluster's state database is shutting down or restarting. ${nothing} ${retry}`;
  if (code?.startsWith('53')) return `The cluster's state database is out of resources (connections, memory or disk). ${nothing} ${retry}`;
  return `The connection to the cluster's state database failed during this write. ${nothing} ${retry}`;
}

/**
 * Whether `err` is the database away, restarting, overloaded, or a session it ended: SQLSTATE classes 08
 * (connection), 40 (serialization), 53 (resources), 57 (operator intervention: shutdown, crash, our own
 * timeouts), 58 (system), and idle-in-transaction; or a failure of the connection itself (a socket error,
 * or the driver's own connection errors, which carry no code).
 */
function isOutage(err: unknown): boolean {
  if (err instanceof pg.DatabaseError) return err.code === IDLE_IN_TRANSACTION_TIMEOUT || ['08', '40', '53', '57', '58'].includes(err.code?.slice(0, 2) ?? '');
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
  return /^Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout/.test(err.message);
}

/**
 * Whether a session failed because it was gone before it could do anything: the database ended it
 * (57P01 by an administrator or a shutdown, 57P02 after a crash of another backend) or its connection
 * broke. Not a statement timeout (57014, the lock not had in time) nor a database that refuses
 * connections: trying another session would fail the same way.
 */
export function sessionEnded(err: unknown): boolean {
  if (err instanceof pg.DatabaseError) return err.code === '57P01' || err.code === '57P02';
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || /^Connection terminated/.test(err.message);
}
