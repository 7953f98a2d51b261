import { UserError } from '../shared/errors.js';

/**
 * Table and key rules every backend enforces alike, so data and callers move between them unchanged.
 * A stored key is `<table> NUL <key>` in UTF-8.
 */

/** LMDB's limit for the default page size (lmdb-js's DEFAULT_MAX_KEY_SIZE); the PostgreSQL backend keeps to it too. */
export const MAX_KEY_BYTES = 1978;

export function checkTable(table: string): void {
  if (typeof table !== 'string' || table === '' || table.includes('\u0000')) {
    throw new TypeError(`store: invalid table name ${JSON.stringify(table)}`);
  }
}

/**
 * Keys carry names that callers choose (policies, entities, mounts): too long is their mistake, a 400.
 * Endpoints check names where they arrive; this is the last guard, for reads as well as writes.
 */
export function keyTooLong(tableBytes: number, keyBytes: number): UserError {
  return new UserError(`name too long: at most ${MAX_KEY_BYTES - tableBytes - 1} bytes are allowed here, got ${keyBytes}`);
}

interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * Checks a key of `table` (as storedTable answered it) for a backend that keeps keys as strings, and
 * answers the key as stored. UTF-8 cannot hold a lone surrogate: encoding one gives U+FFFD, as LMDB's keys
 * do, so the same happens here and both backends store, find and list the same key.
 */
export function storedKey(table: string, key: string): string {
  if (typeof key !== 'string') throw new TypeError(`store: key in table ${table} must be a string`);
  // A UTF-16 unit takes at most three bytes of UTF-8: most keys are short enough not to need counting.
  if ((table.length + 1 + key.length) * 3 > MAX_KEY_BYTES) {
    const tableBytes = Buffer.byteLength(table);
    const keyBytes = Buffer.byteLength(key);
    if (tableBytes + 1 + keyBytes > MAX_KEY_BYTES) throw keyTooLong(tableBytes, keyBytes);
  }
  return (key as unknown as WellFormed).isWellFormed() ? key : (key as unknown as WellFormed).toWellFormed();
}

/** Checks a table name and answers it as stored, lone surrogates replaced for the same reason as in keys. */
export function storedTable(table: string): string {
  checkTable(table);
  return (table as unknown as WellFormed).isWellFormed() ? table : (table as unknown as WellFormed).toWellFormed();
}
