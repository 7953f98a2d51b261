import type pg from 'pg';
import { readLog, readSnapshot } from './pg-queries.js';
import type { Replica, Snapshot } from './replica.js';

/** Log entries per query when catching up. */
const LOG_PAGE = 1_000;

/**
 * Brings the replica up to what the database holds: from the log, or, when the log no longer reaches back
 * to the replica's index (pruned), from a new snapshot. `locked`: the client holds the writers' lock, so
 * nothing commits meanwhile and its reads are consistent as they are.
 */
export async function catchUp(client: pg.PoolClient, replica: Replica, locked: boolean): Promise<void> {
  if (await applyLog(client, replica)) return;
  replica.replace(locked ? await readSnapshot(client, true) : await readConsistentSnapshot(client));
}

/** A snapshot in one REPEATABLE READ transaction: one view of the database however many queries it takes. */
export async function readConsistentSnapshot(client: pg.PoolClient): Promise<Snapshot> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const snapshot = await readSnapshot(client, false);
    await client.query('COMMIT');
    return snapshot;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** Applies the log after the replica's index; false when the entry right after it is gone. */
async function applyLog(client: pg.PoolClient, replica: Replica): Promise<boolean> {
  for (;;) {
    const entries = await readLog(client, replica.index, LOG_PAGE);
    if (entries.length === 0) return true;
    // The replica may have moved on meanwhile (this process's commits, or another catch-up).
    if (entries[0].index > replica.index + 1) return false;
    for (const entry of entries) replica.apply(entry);
    if (entries.length < LOG_PAGE) return true;
  }
}
