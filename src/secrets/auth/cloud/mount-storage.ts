/**
 * The cloud mount's records, keyed by the mount's accessor: moving the mount moves every path, and the
 * data stays with the mount; disabling it removes them all (see backend.ts).
 */
import type { Store, WriteTx } from '../../../storage/store.js';

export const CLOUD_TABLE = 'auth-cloud';

const key = (accessor: string, name: string) => `${accessor}/${name}`;

export function readEntry<T>(store: Store, accessor: string, name: string): T | undefined {
  return store.get<T>(CLOUD_TABLE, key(accessor, name));
}

export async function writeEntry(store: Store, accessor: string, name: string, value: unknown): Promise<void> {
  await store.write((tx) => tx.put(CLOUD_TABLE, key(accessor, name), value));
}

/** Read, change and write one entry in a transaction: concurrent partial updates cannot lose each other's fields. */
export async function updateEntry<T>(store: Store, accessor: string, name: string, change: (current: T | undefined) => T): Promise<T> {
  const { result } = await store.write((tx) => updateEntryInTx(tx, accessor, name, change));
  return result;
}

/** The same, inside a transaction of the caller's. */
export function updateEntryInTx<T>(tx: WriteTx, accessor: string, name: string, change: (current: T | undefined) => T): T {
  const next = change(tx.get<T>(CLOUD_TABLE, key(accessor, name)));
  tx.put(CLOUD_TABLE, key(accessor, name), next);
  return next;
}

export async function deleteEntry(store: Store, accessor: string, name: string): Promise<void> {
  await store.write((tx) => tx.delete(CLOUD_TABLE, key(accessor, name)));
}

/**
 * Deletes, in one transaction, each named entry whose current value `stale` accepts (checked inside the
 * transaction, so a value rewritten since the caller looked stays); answers how many went.
 */
export async function deleteEntriesIf<T>(store: Store, accessor: string, names: string[], stale: (value: T | undefined) => boolean): Promise<number> {
  const { result } = await store.write((tx) => {
    let n = 0;
    for (const name of names) {
      if (stale(tx.get<T>(CLOUD_TABLE, key(accessor, name))) && tx.delete(CLOUD_TABLE, key(accessor, name))) n++;
    }
    return n;
  });
  return result;
}

/** Names under `prefix/` (one level), sorted. */
export function listEntries(store: Store, accessor: string, prefix: string): string[] {
  const start = key(accessor, `${prefix}/`);
  return store
    .list(CLOUD_TABLE, start)
    .map((e) => e.key.slice(start.length))
    .filter((k) => k !== '' && !k.includes('/'));
}

/** The entries under `prefix/` (one level) with their values, sorted by name: one read where names and then values would be two. */
export function listEntryValues<T>(store: Store, accessor: string, prefix: string): Array<{ name: string; value: T }> {
  const start = key(accessor, `${prefix}/`);
  return store
    .list<T>(CLOUD_TABLE, start)
    .map((e) => ({ name: e.key.slice(start.length), value: e.value }))
    .filter((e) => e.name !== '' && !e.name.includes('/'));
}

/** Every record of a mount goes with it. */
export function deleteMountEntries(tx: WriteTx, accessor: string): void {
  for (const { key: k } of tx.list(CLOUD_TABLE, `${accessor}/`)) tx.delete(CLOUD_TABLE, k);
}
