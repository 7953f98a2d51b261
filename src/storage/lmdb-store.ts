import fs from 'node:fs';
import path from 'node:path';
import { asBinary, open, type RootDatabase } from 'lmdb';
import { META_TABLE, type AppliedChange, type AppliedWrite, type RangeOptions, type Store, type WriteTx } from './store.js';
import { TxLifecycle } from './tx-lifecycle.js';
import { IndexWaiters } from './index-waiters.js';
import { checkTable, keyTooLong, MAX_KEY_BYTES } from './store-keys.js';
import { errCode } from './private-file.js';
import { NewerSchemaError, runMigrations, type Migration } from './migrations.js';
import { LmdbMemoryTables, type MemoryTablesSpec } from './lmdb-memory-tables.js';
import { DirInUseError, lockDir, type DirLock } from './dir-lock.js';
import { Followers } from './followers.js';
import { jsonText } from './memory-tables.js';

/**
 * The embedded store: one LMDB environment, one unnamed database. Keys are `<table> 0x00 <key>` in UTF-8
 * bytes, so a table is a contiguous key range and `list` is one cursor walk in byte order (which is also
 * Unicode code point order). Binary keys are used because lmdb's default ordered-binary string keys
 * cannot hold NUL, and its array keys would make prefix ranges depend on its internal encoding.
 *
 * Values are JSON (`encoding: 'json'`), not lmdb's default msgpack: what a caller gets back is exactly
 * `JSON.parse(JSON.stringify(value))`, as it is with the PostgreSQL backend's json values, so code that
 * works on one backend cannot depend on msgpack-only types (Date, Map, undefined fields) and break on the
 * other.
 */

const INDEX_KEY = 'index';
/** Larger than any value the store writes (lmdb's values end well below 4 GiB). */
const NEVER_COMPRESS = 2 ** 32;
const TABLE_INDEX_PREFIX = 'table_index/';

/** Per-process registry: a second handle on the same env would miss the first one's wake-ups. */
const openDirs = new Set<string>();

/**
 * `migrations` and `memoryTables` (the tables kept in memory, lmdb-memory-tables.ts) are the caller's, who
 * knows the features' tables; without `memoryTables` every table stays in the file (a data dir as an older
 * build wrote it).
 */
export async function openLmdbStore(opts: { dir: string; migrations: readonly Migration[]; memoryTables?: MemoryTablesSpec }): Promise<Store> {
  const dir = path.resolve(opts.dir);
  prepareDir(dir);
  const real = fs.realpathSync(dir);
  if (openDirs.has(real)) throw cannotOpen(dir, 'it is already open in this process');
  openDirs.add(real);
  // One process per environment: its memory tables and its leadership assume no other writer.
  let lock: DirLock;
  try {
    lock = await lockDir(real);
  } catch (err) {
    openDirs.delete(real);
    throw cannotOpen(dir, err instanceof DirInUseError ? `another svc process${err.pid === undefined ? '' : ` (pid ${err.pid})`} has it open` : describe(err));
  }
  const release = async (): Promise<void> => {
    openDirs.delete(real);
    await lock.release();
  };

  let db: RootDatabase<unknown, Buffer>;
  try {
    db = open<unknown, Buffer>({
      path: dir,
      // lmdb guesses "file, not directory" from a dot in the name (e.g. /tmp/tmp.Xy12); we always use a dir.
      noSubdir: false,
      keyEncoding: 'binary',
      encoding: 'json',
      // Nothing is compressed, but lmdb's LZ4 stays configured so that a value an earlier build wrote
      // compressed still reads (lmdb takes a first byte of 250 or more as that mark, and JSON text never
      // starts with one). Through lmdb, LZ4 cost some 25 µs of CPU per 1.3 KB record (15% of a placement)
      // for a quarter of the file, and the file's size no longer decides the server's memory (below).
      compression: { threshold: NEVER_COMPRESS },
      // The file is mapped a chunk of 16 pages at a time, as pages are read, and chunks not read lately
      // are unmapped (LMDB's page cache of mapped chunks, at most 16,384 of them). With the whole file
      // mapped at once, every page of a table written in key order stayed resident: the store reads its
      // last leaf through the map at each commit, and the kernel maps the pages written beside it too
      // (fault-around), so a million allocations held 2.2 GiB of the file in the server's memory, read or
      // not. With chunks, 316 MiB (VmRSS 2,798 → 897 MiB in npm run bench -- c1m).
      remapChunks: true,
      // Keep lmdb's default overlapped flush explicitly: commits don't wait for fsync under the write
      // lock, and `write` awaits `db.flushed` before acknowledging. On restart after a process crash
      // lmdb restores the last committed transaction; after an OS crash, the last flushed one, which
      // is never older than what we acknowledged.
      overlappingSync: true,
      // lmdb's event-turn batching starts each batch with a commit promise of its own that nothing
      // awaits: when that commit fails (a full disk), its rejection is unhandled and ends the process.
      // Without it, a batch is the write functions queued while the previous one commits, each of which
      // hears the failure.
      eventTurnBatching: false,
      // The file's size limit, set once: lmdb grows a small one as the file fills, and before chunks
      // were mapped it kept the old mappings, every page read before a growth resident twice. Linux
      // grows the file as data is written; elsewhere, e.g. on HFS+, a big map can allocate it up front.
      ...(process.platform === 'linux' ? { mapSize: 2 ** 40 } : {}),
    });
  } catch (err) {
    await release();
    throw cannotOpen(dir, describe(err));
  }
  // lmdb creates its files 0644; the store holds token hashes and job specs, so keep it to the owner even
  // when the dir itself was created by someone else with a looser mode.
  for (const name of ['data.mdb', 'lock.mdb']) {
    try {
      fs.chmodSync(path.join(dir, name), 0o600);
    } catch {
      // Not the owner (e.g. a shared dir): the dir's own mode is then the protection.
    }
  }

  const store = new LmdbStore(db, dir, release);
  try {
    // Touch the env once so a problem with it surfaces here, named, rather than on the first request.
    store.index();
    await runMigrations(store, opts.migrations);
    if (opts.memoryTables) await store.holdInMemory(opts.memoryTables);
  } catch (err) {
    await store.close().catch(() => {});
    if (err instanceof NewerSchemaError) throw err;
    throw cannotOpen(dir, describe(err));
  }
  return store;
}

class LmdbStore implements Store {
  private closed = false;
  private inWrite = false;
  private closing: Promise<void> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly waiters = new IndexWaiters((table) => this.currentForSafe(table));
  private memory: LmdbMemoryTables | undefined;
  private recovering: Promise<void> | undefined;
  private readonly followers = new Followers();
  /** committed writes the followers hear of once they are durable, in index order */
  private readonly undelivered: AppliedWrite[] = [];

  constructor(
    private readonly db: RootDatabase<unknown, Buffer>,
    private readonly dir: string,
    private readonly onClosed: () => Promise<void>,
  ) {}

  index(): number {
    return readNumber(this.db, indexKey());
  }

  tableIndex(table: string): number {
    return readNumber(this.db, tableIndexKey(table));
  }

  get<T>(table: string, key: string): T | undefined {
    if (this.memory?.names.has(table)) return this.memory.get<T>(table, key);
    return this.db.get(encodeKey(table, key)) as T | undefined;
  }

  list<T>(table: string, prefix = '', opts: RangeOptions = {}): Array<{ key: string; value: T }> {
    if (this.memory?.names.has(table)) return this.memory.list<T>(table, prefix, opts, true);
    return listRange<T>(this.db, table, prefix, opts);
  }

  keys(table: string, prefix = '', opts: RangeOptions = {}): string[] {
    if (this.memory?.names.has(table)) return this.memory.list<never>(table, prefix, opts, false).map((e) => e.key);
    return listRange<never>(this.db, table, prefix, opts, false).map((e) => e.key);
  }

  /**
   * Moves the tables into memory (lmdb-memory-tables.ts): what the file still holds of them (written
   * before they moved) is removed, and they are filled from what they are derived from. Only the first
   * open of an older data dir finds anything to remove; every later one finds the ranges empty at once.
   */
  async holdInMemory(spec: MemoryTablesSpec): Promise<void> {
    for (const { name: table } of spec.tables) {
      const range = { start: encodeKey(table, ''), end: successor(encodeKey(table, '')) };
      for (;;) {
        // A bounded batch per transaction: a table of a million entries is not one huge commit.
        const keys = [...this.db.getKeys({ ...range, limit: 10_000 })];
        if (keys.length === 0) break;
        await this.db.childTransaction(() => {
          for (const key of keys) this.db.removeSync(key);
        });
      }
    }
    const memory = new LmdbMemoryTables(spec, this);
    memory.load();
    this.memory = memory;
  }

  async write<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number }> {
    const { result, index, durable } = await this.commit(fn);
    await durable;
    return { result, index };
  }

  commit<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number; durable: Promise<void> }> {
    if (this.closed) return Promise.reject(new Error(`store ${this.dir} is closed`));
    // lmdb would run a nested call inside the outer transaction, giving both the same index.
    if (this.inWrite) return Promise.reject(new Error('store.write called from inside a write function'));
    const p = this.doCommit(fn);
    this.track(p);
    // close() waits for the flush too, not only for the commit.
    p.then(({ durable }) => this.track(durable), () => undefined);
    return p;
  }

  private track(p: Promise<unknown>): void {
    this.pending.add(p);
    const done = (): void => {
      this.pending.delete(p);
    };
    p.then(done, done);
  }

  private async doCommit<T>(fn: (tx: WriteTx) => T): Promise<{ result: T; index: number; durable: Promise<void> }> {
    const db = this.db;
    let index = 0;
    const touched = new Set<string>();
    const memory = this.memory;
    let ran = false;
    // Changes are recorded only while someone follows, and only to the tables followed.
    const capture = this.followers.active ? this.followers.tables : undefined;
    let applied: AppliedWrite | undefined;
    // An async child transaction: lmdb runs queued callbacks one after another on this thread inside a
    // single LMDB write transaction (group commit), each in a nested txn that is rolled back alone if its
    // callback throws. Serial execution is what makes read-modify-write in `fn` safe.
    let result: T;
    try {
      result = await db.childTransaction(() => {
        index = readNumber(db, indexKey()) + 1;
        touched.clear();
        const tx = new LmdbWriteTx(db, index, touched, memory, capture);
        let out: T;
        this.inWrite = true;
        try {
          out = fn(tx);
          tx.end();
          if (out !== null && typeof out === 'object' && typeof (out as { then?: unknown }).then === 'function') {
            // A promise would make lmdb hold the write lock across awaits and let other code run mid-transaction.
            throw new Error('store.write: fn must be synchronous (it returned a promise)');
          }
          db.putSync(indexKey(), index);
          for (const table of touched) db.putSync(tableIndexKey(table), index);
        } catch (err) {
          memory?.discard();
          throw err;
        } finally {
          this.inWrite = false;
          tx.live = false;
        }
        memory?.keep();
        ran = true;
        applied = tx.changes === undefined || tx.changes.length === 0 ? undefined : { index, kind: tx.kind, changes: tx.changes };
        return out;
      });
    } catch (err) {
      // The function threw: lmdb rolled back its writes alone, and discard() took back its memory writes.
      if (!ran) throw err;
      // The function ran, and the transaction failed to commit. Its cause is taken before anything
      // waits, or its rejection goes unhandled.
      const failure = commitFailure(err);
      await this.recover();
      throw await failure;
    }
    // Committed is visible, not durable: waiters hear of the commit only once it is on disk. `flushed`
    // is asked now, synchronously after this commit, so it covers it (and perhaps later ones).
    const flushed = new Promise<unknown>((resolve, reject) => db.flushed.then(resolve, reject));
    if (applied) this.undelivered.push(applied);
    const durable = flushed.then(() => {
      this.deliver(index);
      this.waiters.notify(index, touched, false);
    });
    this.waiters.notify(index, touched, true);
    return { result, index, durable };
  }

  /** One process writes the file and hears every write of it: there is never a gap to tell of. */
  follow(tables: ReadonlySet<string>, listener: (write: AppliedWrite) => void): () => void {
    return this.followers.add(tables, listener);
  }

  /** Hands the followers every write up to `index`, which is durable, and with it every earlier one. */
  private deliver(index: number): void {
    const list = this.undelivered;
    let n = 0;
    while (n < list.length && list[n].index <= index) n++;
    if (n === 0) return;
    for (const w of list.splice(0, n)) this.followers.emit(w.index, w.kind, w.changes);
  }

  /**
   * After a failed transaction (a function that threw is not one: lmdb rolls it back alone), a
   * transaction of its own, queued after whatever lmdb already runs:
   * - lmdb never settles a failed commit's flush, which close() would wait for forever, and a commit
   *   after it takes its place;
   * - the failed transaction's functions may have written the memory tables, which are read again from
   *   what the file holds. lmdb runs the next transaction's functions before it tells the failed one's,
   *   so as a write of its own the reload reads what they commit and keeps their memory writes.
   * One serves every function of the failed transaction; the commit's error is what they answer,
   * whatever this meets.
   */
  private recover(): Promise<void> {
    this.recovering ??= this.db
      .childTransaction(() => this.memory?.load())
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  waitForIndex(after: number, timeoutMs: number, table?: string): Promise<number> {
    return this.waitFor(after, timeoutMs, table, false);
  }

  waitForCommit(after: number, timeoutMs: number, table?: string): Promise<number> {
    return this.waitFor(after, timeoutMs, table, true);
  }

  private waitFor(after: number, timeoutMs: number, table: string | undefined, onCommit: boolean): Promise<number> {
    if (this.closed) return Promise.resolve(this.currentForSafe(table));
    return this.waiters.wait(after, timeoutMs, table, onCommit);
  }

  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.closed = true;
    // A commit settling adds its flush to `pending`.
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    this.waiters.releaseAll();
    try {
      await this.db.close();
    } finally {
      await this.onClosed();
    }
  }

  private currentFor(table: string | undefined): number {
    return table === undefined ? this.index() : this.tableIndex(table);
  }

  private currentForSafe(table: string | undefined): number {
    try {
      return this.currentFor(table);
    } catch {
      return 0;
    }
  }
}

class LmdbWriteTx extends TxLifecycle implements WriteTx {
  constructor(
    private readonly db: RootDatabase<unknown, Buffer>,
    readonly index: number,
    private readonly touched: Set<string>,
    private readonly memory: LmdbMemoryTables | undefined,
    private readonly capture: ReadonlySet<string> | undefined,
  ) {
    super();
    if (capture !== undefined) this.changes = [];
  }

  /** what the write did to the followed tables, while someone follows the store */
  readonly changes: AppliedChange[] | undefined;

  get<T>(table: string, key: string): T | undefined {
    this.check();
    if (this.memory?.names.has(table)) return this.memory.get<T>(table, key);
    return this.db.get(encodeKey(table, key)) as T | undefined;
  }

  // Inside lmdb's write transaction, the cursor walks the transaction's own view, its writes included.
  list<T>(table: string, prefix = '', opts: RangeOptions = {}): Array<{ key: string; value: T }> {
    this.check();
    if (this.memory?.names.has(table)) return this.memory.list<T>(table, prefix, opts, true);
    return listRange<T>(this.db, table, prefix, opts);
  }

  keys(table: string, prefix = '', opts: RangeOptions = {}): string[] {
    this.check();
    if (this.memory?.names.has(table)) return this.memory.list<never>(table, prefix, opts, false).map((e) => e.key);
    return listRange<never>(this.db, table, prefix, opts, false).map((e) => e.key);
  }

  put(table: string, key: string, value: unknown): void {
    this.check();
    if (value === undefined) throw new TypeError(`store: cannot put undefined at ${table}/${key}; use delete`);
    // A follower hears the JSON text; in the file it is put as the bytes lmdb's JSON encoding would have
    // made of the value, so it is made once.
    const text = this.capture?.has(table) ? jsonText(table, key, value) : undefined;
    if (this.memory?.names.has(table)) this.memory.txPut(table, key, value);
    else this.db.putSync(encodeKey(table, key), text === undefined ? value : asBinary(utf8(text)));
    if (text !== undefined) this.changes!.push([table, key, text]);
    this.touched.add(table);
  }

  delete(table: string, key: string): boolean {
    this.check();
    const existed = this.memory?.names.has(table) ? this.memory.txDelete(table, key) : this.db.removeSync(encodeKey(table, key));
    if (existed) {
      this.touched.add(table);
      if (this.capture?.has(table)) this.changes!.push([table, key, null]);
    }
    return existed;
  }
}

function listRange<T>(
  db: RootDatabase<unknown, Buffer>,
  table: string,
  prefix: string,
  opts: RangeOptions,
  values = true,
): Array<{ key: string; value: T }> {
  const lo = encodeKey(table, prefix);
  const hi = successor(lo);
  const skip = Buffer.byteLength(table) + 1;
  const limit = opts.limit !== undefined && opts.limit >= 0 ? opts.limit : undefined;
  if (limit === 0) return [];
  const startKey = opts.start !== undefined ? encodeKey(table, opts.start) : undefined;

  let range: Parameters<typeof db.getRange>[0];
  if (!opts.reverse) {
    const from = startKey && Buffer.compare(startKey, lo) > 0 ? startKey : lo;
    if (Buffer.compare(from, hi) >= 0) return [];
    range = { start: from, end: hi, limit };
  } else if (startKey && Buffer.compare(startKey, hi) < 0) {
    if (Buffer.compare(startKey, lo) < 0) return [];
    range = { start: startKey, end: lo, inclusiveEnd: true, reverse: true, limit };
  } else {
    range = { start: hi, exclusiveStart: true, end: lo, inclusiveEnd: true, reverse: true, limit };
  }
  const out: Array<{ key: string; value: T }> = [];
  if (!values) {
    for (const key of db.getKeys(range)) out.push({ key: key.toString('utf8', skip), value: undefined as T });
    return out;
  }
  for (const { key, value } of db.getRange(range)) {
    out.push({ key: key.toString('utf8', skip), value: value as T });
  }
  return out;
}

/** Where a followed value's text is put as UTF-8; grown for a longer one. */
let valueScratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * The text's UTF-8 in a buffer reused by every call: a put inside the write transaction copies its value
 * into the file before it returns, so the bytes need not outlive it (a buffer per record was garbage the
 * size of every record written).
 */
function utf8(text: string): Buffer {
  // A UTF-16 unit takes at most three bytes of UTF-8.
  if (text.length * 3 > valueScratch.length) valueScratch = Buffer.allocUnsafeSlow(text.length * 3);
  return valueScratch.subarray(0, valueScratch.write(text, 0, 'utf8'));
}

function encodeKey(table: string, key: string): Buffer {
  checkTable(table);
  if (typeof key !== 'string') throw new TypeError(`store: key in table ${table} must be a string`);
  const encoded = Buffer.from(`${table}\u0000${key}`, 'utf8');
  if (encoded.length > MAX_KEY_BYTES) {
    const tableBytes = Buffer.byteLength(table);
    throw keyTooLong(tableBytes, encoded.length - tableBytes - 1);
  }
  return encoded;
}

/**
 * The encoded keys of the indexes, the global one and one per table: read on every request (the caches
 * above the store check them), so each is encoded once. lmdb copies a key it is given, never keeps it.
 */
let globalIndexKey: Buffer | undefined;
const tableIndexKeys = new Map<string, Buffer>();

function indexKey(): Buffer {
  return (globalIndexKey ??= encodeKey(META_TABLE, INDEX_KEY));
}

function tableIndexKey(table: string): Buffer {
  let key = tableIndexKeys.get(table);
  if (!key) tableIndexKeys.set(table, (key = encodeKey(META_TABLE, TABLE_INDEX_PREFIX + table)));
  return key;
}

/** The smallest byte string greater than every string that starts with `b`. */
function successor(b: Buffer): Buffer {
  const out = Buffer.from(b);
  let i = out.length - 1;
  // UTF-8 never contains 0xff, and the table separator is 0x00, so this loop never runs off the start.
  while (i >= 0 && out[i] === 0xff) i--;
  out[i]++;
  return out.subarray(0, i + 1);
}

/**
 * lmdb rejects each write function of a failed commit with "Commit failed (see commitError for details)"
 * and the cause (a full disk: an I/O error) in a promise of its own, rejected in the same callback and
 * unhandled unless someone takes it. Answers an error that names the cause, taking that promise.
 */
async function commitFailure(err: unknown): Promise<unknown> {
  const commitError = (err as { commitError?: unknown } | null)?.commitError;
  if (!(commitError instanceof Promise)) return err;
  // Rejected by now when it will be; a promise lmdb never settles must not hold the caller.
  const cause = await new Promise<unknown>((resolve) => {
    commitError.then(() => resolve(undefined), resolve);
    setImmediate(() => resolve(undefined));
  });
  const why = cause instanceof Error ? cause.message : 'no cause given';
  return new Error(`store: the commit failed: ${why}`, { cause: cause ?? err });
}

function readNumber(db: RootDatabase<unknown, Buffer>, key: Buffer): number {
  const v = db.get(key);
  return typeof v === 'number' ? v : 0;
}

function prepareDir(dir: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw cannotOpen(dir, describe(err));
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (mkErr) {
      throw cannotOpen(dir, describe(mkErr));
    }
    st = fs.statSync(dir);
  }
  if (!st.isDirectory()) throw cannotOpen(dir, 'not a directory');
  try {
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    throw cannotOpen(dir, describe(err));
  }
  checkDataFile(dir);
}

/**
 * lmdb's native open does not validate its data file and crashes the whole process (SIGSEGV) on one that
 * is not an LMDB file, so check the two meta pages ourselves first. This catches foreign and truncated
 * files, not every possible corruption inside the B-tree.
 */
function checkDataFile(dir: string): void {
  const file = path.join(dir, 'data.mdb');
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDWR);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw cannotOpen(dir, `${file}: ${describe(err)}`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw cannotOpen(dir, `${file} is not a regular file`);
    // lmdb creates the file empty and initialises it itself.
    if (st.size === 0) return;
    const corrupt = (why: string): Error =>
      cannotOpen(dir, `${file} is not a valid LMDB data file (${why}); move it away or restore it from a backup`);
    const head = Buffer.alloc(64);
    if (fs.readSync(fd, head, 0, head.length, 0) < head.length) throw corrupt('truncated');
    // Layout of lmdb-js's LMDB: 24-byte page header, then MDB_meta { magic u32, version u32, address,
    // mapsize, dbs[FREE].md_pad = page size }.
    if (head.readUInt32LE(24) !== LMDB_MAGIC) throw corrupt('bad magic number');
    const pageSize = head.readUInt32LE(48);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) throw corrupt(`bad page size ${pageSize}`);
    if (st.size < 2 * pageSize) throw corrupt('truncated');
    const second = Buffer.alloc(4);
    fs.readSync(fd, second, 0, 4, pageSize + 24);
    if (second.readUInt32LE(0) !== LMDB_MAGIC) throw corrupt('bad second meta page');
  } finally {
    fs.closeSync(fd);
  }
}

const LMDB_MAGIC = 0xbeefc0de;

function cannotOpen(dir: string, reason: string): Error {
  return new Error(`cannot open data dir ${dir}: ${reason}`);
}

function describe(err: unknown): string {
  switch (errCode(err)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'not a directory';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on device';
  }
  const msg = err instanceof Error ? err.message : String(err);
  // lmdb's own messages for an unusable dir.
  if (/Not a directory/i.test(msg)) return 'not a directory';
  if (/Permission denied/i.test(msg)) return 'permission denied';
  return msg;
}
