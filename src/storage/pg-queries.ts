import type pg from 'pg';
import { MemoryTables } from './memory-tables.js';
import type { LogEntry } from './pending-writes.js';
import type { Snapshot } from './replica.js';

/** The SQL the PostgreSQL backend runs on its tables (pg-schema.ts), with the encoding of its rows. */

/** Every commit notifies this channel with its index. */
export const CHANNEL = 'svc_store';

/** Rows per query when loading a snapshot: memory for one page of rows, not for the whole table. */
const SNAPSHOT_PAGE = 10_000;
/** Log entries per query when a snapshot replays the log after kv_index. */
const SNAPSHOT_LOG_PAGE = 200;

/**
 * Starts a write transaction and takes the writers' lock; answers the index of the last write. `unbounded`
 * lifts the session's timeouts for this transaction only (a migration's write function may run for long).
 */
export async function lockForWrite(client: pg.PoolClient, unbounded = false): Promise<number> {
  // All in one round trip (the simple query protocol runs several statements).
  const lift = unbounded ? ' SET LOCAL idle_in_transaction_session_timeout = 0; SET LOCAL statement_timeout = 0;' : '';
  const results = (await client.query(`BEGIN;${lift} SELECT index FROM svc_meta WHERE id = 1 FOR UPDATE`)) as unknown as pg.QueryResult[];
  return Number(results[results.length - 1].rows[0].index);
}

/*
 * One statement for the whole batch: one log row per write function, and the new indexes. The rows arrive
 * as JSON arrays zipped by ROWS FROM, so the statement's text is the same for every batch (prepared
 * once). svc_kv is not touched: compaction (compactLog) brings it up to the log later, off the write's
 * path, and once for a key written many times.
 */
const WRITE = `
WITH logged AS (
  INSERT INTO svc_log (index, tables, changes, kind)
  SELECT $1::bigint + n, tables, changes, kind
  FROM ROWS FROM (json_array_elements($2::json), json_array_elements($3::json), unnest($6::text[])) WITH ORDINALITY AS e(tables, changes, kind, n)
)
UPDATE svc_meta SET index = $4, table_indexes = table_indexes || $5::jsonb WHERE id = 1`;

export async function writeBatch(client: pg.PoolClient, entries: LogEntry[]): Promise<void> {
  const tableIndexes: Record<string, number> = {};
  for (const entry of entries) for (const table of entry.tables) tableIndexes[table] = entry.index;
  await client.query({
    name: 'svc_store_write',
    text: WRITE,
    values: [
      entries[0].index - 1,
      JSON.stringify(entries.map((e) => e.tables)),
      JSON.stringify(entries.map((e) => e.changes)),
      entries[entries.length - 1].index,
      JSON.stringify(tableIndexes),
      entries.map((e) => e.kind ?? null),
    ],
  });
}

/*
 * Each key's last value (or its deletion) from a run of log entries, written to svc_kv in one statement.
 * Values travel as one JSON array whose elements json stores verbatim; nothing here takes a field out of a
 * JSON value, which PostgreSQL refuses for any value holding \u0000 (it cannot be text).
 */
const APPLY = `
WITH upserted AS (
  INSERT INTO svc_kv (tbl, key, value)
  SELECT * FROM ROWS FROM (unnest($1::text[]), unnest($2::bytea[]), json_array_elements($3::json))
  ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value
), deleted AS (
  DELETE FROM svc_kv AS kv USING unnest($4::text[], $5::bytea[]) AS d(tbl, key)
  WHERE kv.tbl = d.tbl AND kv.key = d.key
)
UPDATE svc_kv_state SET kv_index = $6 WHERE id = 1`;

/** Log entries compacted per transaction: the memory of their changes at once, and a bounded transaction. */
const COMPACT_PAGE = 200;

/**
 * Brings svc_kv up to the log, COMPACT_PAGE entries a transaction, and drops the log entries it no longer
 * needs: those compacted, except the last `retain` (processes a little behind follow the log rather than
 * reload). Compactions of several processes take turns on svc_kv_state's row; writers never wait for one.
 * Answers kv_index.
 */
export async function compactLog(client: pg.PoolClient, retain: number): Promise<number> {
  for (;;) {
    await client.query('BEGIN');
    try {
      const kvIndex = Number((await client.query<{ kv_index: string }>('SELECT kv_index FROM svc_kv_state WHERE id = 1 FOR UPDATE')).rows[0].kv_index);
      const entries = await readLog(client, kvIndex, COMPACT_PAGE);
      if (entries.length === 0) {
        await client.query('COMMIT');
        return kvIndex;
      }
      const last: Map<string, [string, string, string | null]> = new Map();
      for (const entry of entries) for (const [table, key, text] of entry.changes) last.set(`${table}\0${key}`, [table, key, text]);
      const put: { tables: string[]; keys: Buffer[]; values: string[] } = { tables: [], keys: [], values: [] };
      const deleted: { tables: string[]; keys: Buffer[] } = { tables: [], keys: [] };
      for (const [table, key, text] of last.values()) {
        const to = text === null ? deleted : put;
        to.tables.push(table);
        to.keys.push(Buffer.from(key, 'utf8'));
        if (text !== null) put.values.push(text);
      }
      const upTo = entries[entries.length - 1].index;
      await client.query({ name: 'svc_store_compact', text: APPLY, values: [put.tables, put.keys, `[${put.values.join(',')}]`, deleted.tables, deleted.keys, upTo] });
      await client.query('DELETE FROM svc_log WHERE index <= LEAST($1::bigint, (SELECT index FROM svc_meta WHERE id = 1) - $2::bigint)', [upTo, retain]);
      await client.query('COMMIT');
      if (entries.length < COMPACT_PAGE) return upTo;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }
}

/** Commits the write transaction; the notification goes out with the commit, never without it. */
export async function commitAndNotify(client: pg.PoolClient, index: number): Promise<void> {
  await client.query(`NOTIFY ${CHANNEL}, '${index}'; COMMIT`);
}

/** Log entries after `after`, in index order, at most `limit`. */
export async function readLog(client: pg.PoolClient, after: number, limit: number): Promise<LogEntry[]> {
  const { rows } = await client.query<{ index: string; tables: string[]; changes: LogEntry['changes']; kind: string | null }>({
    name: 'svc_store_read_log',
    text: 'SELECT index, tables, changes, kind FROM svc_log WHERE index > $1 ORDER BY index LIMIT $2',
    values: [after, limit],
  });
  return rows.map((r) => ({ index: Number(r.index), tables: r.tables, changes: r.changes, kind: r.kind ?? undefined }));
}

/**
 * Reads every row of svc_kv and applies the log after its kv_index. The caller makes the reads one
 * consistent view: REPEATABLE READ, or (`locked`) the writers' lock, with which this also holds off
 * compaction (a share lock on svc_kv_state) so that svc_kv and the log stay as kv_index says.
 */
export async function readSnapshot(client: pg.PoolClient, locked: boolean): Promise<Snapshot> {
  const meta = await client.query<{ index: string; table_indexes: Record<string, number> }>(
    'SELECT index, table_indexes FROM svc_meta WHERE id = 1',
  );
  const kvIndex = Number(
    (await client.query<{ kv_index: string }>(`SELECT kv_index FROM svc_kv_state WHERE id = 1${locked ? ' FOR SHARE' : ''}`)).rows[0].kv_index,
  );
  const tables = new MemoryTables();
  // Keyset paging in (table, key) order, which is also each table's order: every row appends.
  let after: [string, Buffer] | undefined;
  for (;;) {
    const { rows } = await client.query<[string, Buffer, string]>({
      text:
        after === undefined
          ? 'SELECT tbl, key, value::text FROM svc_kv ORDER BY tbl, key LIMIT $1'
          : 'SELECT tbl, key, value::text FROM svc_kv WHERE (tbl, key) > ($2, $3) ORDER BY tbl, key LIMIT $1',
      values: after === undefined ? [SNAPSHOT_PAGE] : [SNAPSHOT_PAGE, ...after],
      rowMode: 'array',
    });
    for (const [table, key, text] of rows) tables.set(table, key.toString('utf8'), text);
    if (rows.length < SNAPSHOT_PAGE) break;
    const last = rows[rows.length - 1];
    after = [last[0], last[1]];
  }
  const index = Number(meta.rows[0].index);
  for (let logAfter = kvIndex; logAfter < index; ) {
    const entries = await readLog(client, logAfter, SNAPSHOT_LOG_PAGE);
    if (entries.length === 0 || entries[0].index !== logAfter + 1) throw new Error(`the log does not reach from ${logAfter} to ${index}`);
    for (const entry of entries) {
      if (entry.index > index) break;
      tables.apply(entry.changes);
    }
    logAfter = entries[entries.length - 1].index;
  }
  return { tables, index, tableIndexes: new Map(Object.entries(meta.rows[0].table_indexes)) };
}
