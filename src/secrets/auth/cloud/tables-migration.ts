/**
 * Schema 7: the cloud mounts' records, all in one table before, each go to the table of their kind
 * (mount-storage.ts); the access and deny lists stay where they were.
 */
import type { WriteTx } from '../../../storage/store.js';
import { LISTS_TABLE, tableOf } from './mount-storage.js';

export function splitCloudTables(tx: WriteTx): void {
  for (const { key, value } of tx.list(LISTS_TABLE)) {
    // Keys are `<accessor>/<entry name>`; an accessor holds no '/'.
    const table = tableOf(key.slice(key.indexOf('/') + 1));
    if (table === LISTS_TABLE) continue;
    tx.put(table, key, value);
    tx.delete(LISTS_TABLE, key);
  }
}
