import type pg from 'pg';
import { MemoryTables } from './memory-tables.js';
import type { LogEntry, PendingWrites } from './pending-writes.js';
import type { Snapshot } from './replica.js';

/** The SQL the PostgreSQL backend runs on its tables (pg-schema.ts), with the encoding of its rows. */

/** Every commit notifies this channel with its index. */
export const CHANNEL = 'svc_store';

/** Rows per query when loading a snapshot: memory for one page of rows, not for the whole table. */
const SNAPSHOT_PAGE = 10_000;

/** Starts a write transaction and takes the writers' lock; answers the index of the last write. */
export async function lockForWrite(client: pg.PoolClient): Promise<number> {
  // Both in one round trip (the simple query protocol runs several statements).
  const results = (await client.query('BEGIN; SELECT index FROM svc_meta WHERE id = 1 FOR UPDATE')) as unknown as pg.QueryResult[];
  return Number(results[1].rows[0].index);
}

/*
 * One statement for the whole batch: every key's final value (upserted or deleted), one log row per write
 * function, and the new indexes. Rows arrive as arrays zipped by ROWS FROM, so the statement's text is the
 * same for every batch (prepared once). Values travel as one JSON array whose elements json stores
 * verbatim; nothing here takes a field out of a JSON value, which PostgreSQL refuses for any value
 * holding \u0000 (it cannot be text).
 */
const WRITE = `
WITH upserted AS (
  INSERT INTO svc_kv (tbl, key, value)
  SELECT * FROM ROWS FROM (unnest($1::text[]), unnest($2::bytea[]), json_array_elements($3::json))
  ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value
), deleted AS (
  DELETE FROM svc_kv AS kv USING unnest($4::text[], $5::bytea[]) AS d(tbl, key)
  WHERE kv.tbl = d.tbl AND kv.key = d.key
), logged AS (
  INSERT INTO svc_log (index, tables, changes)
  SELECT $6::bigint + n, tables, changes
  FROM ROWS FROM (json_array_elements($7::json), json_array_elements($8::json)) WITH ORDINALITY AS e(tables, changes, n)
)
UPDATE svc_meta SET index = $9, table_indexes = table_indexes || $10::jsonb WHERE id = 1`;

export async function writeBatch(client: pg.PoolClient, pending: PendingWrites, entries: LogEntry[]): Promise<void> {
  const put: { tables: string[]; keys: Buffer[]; values: string[] } = { tables: [], keys: [], values: [] };
  const deleted: { tables: string[]; keys: Buffer[] } = { tables: [], keys: [] };
  for (const [table, map] of pending.tables) {
    map.walk(
      () => true,
      false,
      (key, text) => {
        const to = text === null ? deleted : put;
        to.tables.push(table);
        to.keys.push(Buffer.from(key, 'utf8'));
        if (text !== null) put.values.push(text);
        return true;
      },
    );
  }
  const tableIndexes: Record<string, number> = {};
  for (const entry of entries) for (const table of entry.tables) tableIndexes[table] = entry.index;
  await client.query({
    name: 'svc_store_write',
    text: WRITE,
    values: [
      put.tables,
      put.keys,
      `[${put.values.join(',')}]`,
      deleted.tables,
      deleted.keys,
      entries[0].index - 1,
      JSON.stringify(entries.map((e) => e.tables)),
      JSON.stringify(entries.map((e) => e.changes)),
      entries[entries.length - 1].index,
      JSON.stringify(tableIndexes),
    ],
  });
}

/** Drops the log up to `index`, inside a write transaction. */
export async function pruneLog(client: pg.PoolClient, index: number): Promise<void> {
  await client.query('DELETE FROM svc_log WHERE index <= $1', [index]);
}

/** Commits the write transaction; the notification goes out with the commit, never without it. */
export async function commitAndNotify(client: pg.PoolClient, index: number): Promise<void> {
  await client.query(`NOTIFY ${CHANNEL}, '${index}'; COMMIT`);
}

/** Log entries after `after`, in index order, at most `limit`. */
export async function readLog(client: pg.PoolClient, after: number, limit: number): Promise<LogEntry[]> {
  const { rows } = await client.query<{ index: string; tables: string[]; changes: LogEntry['changes'] }>({
    name: 'svc_store_read_log',
    text: 'SELECT index, tables, changes FROM svc_log WHERE index > $1 ORDER BY index LIMIT $2',
    values: [after, limit],
  });
  return rows.map((r) => ({ index: Number(r.index), tables: r.tables, changes: r.changes }));
}

/** Reads every row; the caller makes the reads one consistent view (REPEATABLE READ, or the writers' lock). */
export async function readSnapshot(client: pg.PoolClient): Promise<Snapshot> {
  const meta = await client.query<{ index: string; table_indexes: Record<string, number> }>(
    'SELECT index, table_indexes FROM svc_meta WHERE id = 1',
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
  return {
    tables,
    index: Number(meta.rows[0].index),
    tableIndexes: new Map(Object.entries(meta.rows[0].table_indexes)),
  };
}
