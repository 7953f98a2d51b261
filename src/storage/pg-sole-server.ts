import pg from 'pg';
import { describeUrl } from './pg-store.js';

/**
 * Several servers on one database need a leader to run the schedulers, the broker and the other
 * once-per-cluster work. Until they elect one, a server holds this session-level advisory lock for as long
 * as it uses the database, and a second server is refused at start instead of scheduling beside the first.
 * PostgreSQL releases the lock when the session ends, however the server ends.
 */

/** The lock's key: an arbitrary constant, the same in every svc build ("svc" in ASCII). */
const SOLE_SERVER_LOCK = 0x737663;

/** Takes the lock; answers the function that gives it back. */
export async function holdSoleServerLock(url: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 10_000 });
  // A session that breaks later has lost the lock; what the server writes still goes through the store.
  client.on('error', () => {});
  try {
    try {
      await client.connect();
    } catch (err) {
      throw new Error(`cannot connect to the PostgreSQL database ${describeUrl(url)}: ${(err as Error).message}`);
    }
    const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [SOLE_SERVER_LOCK]);
    if (!rows[0].held) {
      throw new Error(
        `another svc server is already using the PostgreSQL database ${describeUrl(url)}: run one server per database (several servers on one database need leader election, which svc does not have yet)`,
      );
    }
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  return () => client.end();
}
