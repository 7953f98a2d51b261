import type pg from 'pg';

/**
 * The PostgreSQL backend's own tables, made by the store when it opens. Their layout has its own version,
 * in svc_store_schema, apart from the application's migrations (migrations.ts), which run through the
 * store like any write.
 *
 * - svc_log: what each write changed, by index, and what it was (its kind, WriteTx.describe). A commit writes only this (and svc_meta): it is the
 *   record of every write, and other processes follow it.
 * - svc_kv: every table's entries as of svc_kv_state.kv_index: the log up to there, compacted (each key's
 *   last value), so that a process starting reads the tables and only the log after kv_index. Keys are
 *   bytea, the UTF-8 of the key: PostgreSQL text cannot hold NUL, which keys may contain, and byte order
 *   is the order the store lists in. Values are `json`, not `jsonb`: json keeps the text exactly as
 *   written (jsonb reorders object keys and refuses \u0000).
 * - svc_kv_state: one row, kv_index. Compaction locks it; writers never touch it.
 * - svc_meta: one row, the global index and each table's index. Writers lock it (SELECT ... FOR UPDATE),
 *   which orders every write of every process.
 */

/** Each entry brings the layout from the previous version to the next. */
const LAYOUTS: string[][] = [
  [
    `CREATE TABLE svc_kv (
       tbl text COLLATE "C" NOT NULL,
       key bytea NOT NULL,
       value json NOT NULL,
       PRIMARY KEY (tbl, key))`,
    `CREATE TABLE svc_log (
       index bigint PRIMARY KEY,
       tables json NOT NULL,
       changes json NOT NULL)`,
    `CREATE TABLE svc_meta (
       id integer PRIMARY KEY CHECK (id = 1),
       index bigint NOT NULL,
       table_indexes jsonb NOT NULL)`,
    `INSERT INTO svc_meta VALUES (1, 0, '{}')`,
  ],
  // Layout 2: commits write the log only; svc_kv follows it by compaction, up to kv_index.
  [
    `CREATE TABLE svc_kv_state (
       id integer PRIMARY KEY CHECK (id = 1),
       kv_index bigint NOT NULL)`,
    `INSERT INTO svc_kv_state SELECT 1, index FROM svc_meta`,
  ],
  // Layout 3: a log entry says what the write was, so that every process's event stream can name it.
  [`ALTER TABLE svc_log ADD COLUMN kind text`],
];

/** Makes or upgrades the tables, after checking that the database keeps what it acknowledges. */
export async function ensureSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const { rows: setting } = await client.query<{ mode: string }>("SELECT current_setting('synchronous_commit') AS mode");
    // Off, COMMIT answers before the commit is on disk: a write acknowledged to a client could be lost.
    if (setting[0].mode === 'off') {
      throw new Error('synchronous_commit is off for its sessions, so an acknowledged write could be lost in a crash; set it to on (ALTER DATABASE <name> SET synchronous_commit = on, or the same for the role)');
    }
    await client.query('BEGIN');
    // Servers starting together: one makes the tables, the others wait here and then find them made.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('svc_store_schema'))");
    await client.query('CREATE TABLE IF NOT EXISTS svc_store_schema (version integer NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM svc_store_schema');
    const version = rows.length > 0 ? rows[0].version : 0;
    if (version > LAYOUTS.length) {
      throw new Error(`its tables were made by a newer svc (store layout ${version}); this build knows up to ${LAYOUTS.length}`);
    }
    for (const statements of LAYOUTS.slice(version)) {
      for (const sql of statements) await client.query(sql);
    }
    if (version === 0) await client.query('INSERT INTO svc_store_schema VALUES ($1)', [LAYOUTS.length]);
    else if (version < LAYOUTS.length) await client.query('UPDATE svc_store_schema SET version = $1', [LAYOUTS.length]);
    await client.query('COMMIT');
    client.release();
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    // Its session is in an unknown state: close it rather than hand it to the store.
    client.release(true);
    throw err;
  }
}
