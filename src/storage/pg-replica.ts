import type pg from 'pg';
import { MemoryTables } from './memory-tables.js';
import type { LogEntry } from './pending-writes.js';
import { readLog, readSnapshot, type Snapshot } from './pg-queries.js';

/** Log entries per query when catching up. */
const LOG_PAGE = 1_000;

/**
 * This process's copy of the whole store, as of `index`: what every read answers. It only moves forward,
 * one log entry at a time in index order, or to a whole newer snapshot. Entries it already has are
 * skipped: a commit of this process reaches it both directly and through the log.
 */
export class Replica {
  private state: Snapshot = { tables: new MemoryTables(), index: 0, tableIndexes: new Map() };

  /** `advanced` hears of every index the replica reaches, with the tables whose index moved. */
  constructor(private readonly advanced: (index: number, tables: ReadonlySet<string>) => void) {}

  get index(): number {
    return this.state.index;
  }

  get tables(): MemoryTables {
    return this.state.tables;
  }

  tableIndex(table: string): number {
    return this.state.tableIndexes.get(table) ?? 0;
  }

  apply(entry: LogEntry): void {
    const state = this.state;
    if (entry.index <= state.index) return;
    if (entry.index !== state.index + 1) throw new Error(`store replica at index ${state.index} was given log entry ${entry.index}`);
    for (const [table, key, text] of entry.changes) {
      if (text === null) state.tables.delete(table, key);
      else state.tables.set(table, key, text);
    }
    for (const table of entry.tables) state.tableIndexes.set(table, entry.index);
    state.index = entry.index;
    this.advanced(entry.index, new Set(entry.tables));
  }

  /** Takes `snapshot` in place of everything, when it is newer. */
  replace(snapshot: Snapshot): void {
    if (snapshot.index <= this.state.index) return;
    const moved = new Set<string>();
    for (const [table, index] of snapshot.tableIndexes) if (index !== this.state.tableIndexes.get(table)) moved.add(table);
    this.state = snapshot;
    this.advanced(snapshot.index, moved);
  }
}

/**
 * Brings the replica up to what the database holds: from the log, or, when the log no longer reaches back
 * to the replica's index (pruned), from a new snapshot. `locked`: the client holds the writers' lock, so
 * nothing commits meanwhile and its reads are consistent as they are.
 */
export async function catchUp(client: pg.PoolClient, replica: Replica, locked: boolean): Promise<void> {
  if (await applyLog(client, replica)) return;
  replica.replace(locked ? await readSnapshot(client) : await readConsistentSnapshot(client));
}

/** A snapshot in one REPEATABLE READ transaction: one view of the database however many queries it takes. */
export async function readConsistentSnapshot(client: pg.PoolClient): Promise<Snapshot> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const snapshot = await readSnapshot(client);
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
