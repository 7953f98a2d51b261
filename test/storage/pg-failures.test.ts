/**
 * What a write's caller is told of a database failure, by the database's SQLSTATE and the phase of the
 * write it failed in; and which failures mean only that the session was gone before the write began
 * (another session is tried then).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WRITE_TIMEOUTS, sessionEnded, unavailable } from '../../src/storage/pg-failures.js';

const dbError = (code: string) => Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), { code });
const said = (err: unknown, phase: 'connecting' | 'writing' | 'committing') => unavailable(err, phase, DEFAULT_WRITE_TIMEOUTS)?.message;

describe('database failures', () => {
  it('are told by what happened, never in the driver\'s words', () => {
    expect(said(dbError('57P01'), 'writing')).toBe("The cluster's state database is shutting down or restarting. Nothing of it was written. Retry the request; the server reconnects on its own.");
    expect(said(dbError('57014'), 'writing')).toContain('did not complete this write within 15 s');
    expect(said(dbError('53300'), 'writing')).toContain('out of resources');
    expect(said(dbError('25P03'), 'writing')).toContain('stalled inside a write for more than 5 s');
    expect(said(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'connecting')).toBe("The cluster's state database cannot be reached, so this write was not made. Retry the request; the server reconnects on its own.");
    expect(said(new Error('Connection terminated unexpectedly'), 'committing')).toContain('may or may not have been applied');
    for (const phase of ['connecting', 'writing', 'committing'] as const) expect(said(dbError('57P01'), phase)).not.toContain('administrator command');
  });

  it('leave a failure that is no outage (a bug, a constraint) to be what it is', () => {
    expect(unavailable(dbError('23505'), 'writing', DEFAULT_WRITE_TIMEOUTS)).toBeUndefined();
    expect(unavailable(new TypeError('x is undefined'), 'writing', DEFAULT_WRITE_TIMEOUTS)).toBeUndefined();
  });

  it('say a session was gone before its write only when the database ended it or its connection broke', () => {
    expect(sessionEnded(dbError('57P01'))).toBe(true);
    expect(sessionEnded(dbError('57P02'))).toBe(true);
    expect(sessionEnded(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(sessionEnded(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(sessionEnded(dbError('57014'))).toBe(false);
    expect(sessionEnded(dbError('57P03'))).toBe(false);
    expect(sessionEnded(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
