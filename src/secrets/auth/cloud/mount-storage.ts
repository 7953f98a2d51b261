/**
 * The cloud mount's records, keyed by the mount's accessor: moving the mount moves every path, and the
 * data stays with the mount; disabling it removes them all (see backend.ts).
 *
 * Records live in four tables by kind, so that a table's index (Store.tableIndex) says when that kind
 * last changed: what the method keeps in memory (provider clients, parsed certificates, resolved ARNs)
 * checks the index of the table it was built from, and so sees a write made by any server process
 * sharing the store. The access and deny lists, written by every ec2 login, have a table of their own
 * so that logins move no other index; they keep the table's original name, so no migration moves them.
 */
import type { Store, WriteTx } from '../../../storage/store.js';

/** config/client, config/sts/*, config/identity, config/tidy/*: what the provider clients are built from, and the rest of the configuration. */
export const CONFIG_TABLE = 'auth-cloud-config';
/** config/certificate/*: the registered certificates an ec2 document may be signed with. */
export const CERTIFICATE_TABLE = 'auth-cloud-certificate';
/** role/*: the roles. */
export const ROLE_TABLE = 'auth-cloud-role';
/** identity-accesslist/*, roletag-denylist/*: the lists logins and tidies write. */
export const LISTS_TABLE = 'auth-cloud';

export const CLOUD_TABLES = [CONFIG_TABLE, CERTIFICATE_TABLE, ROLE_TABLE, LISTS_TABLE] as const;

/** The table an entry (or the entries under a `prefix/`) lives in, by its name. */
export function tableOf(name: string): string {
  if (name.startsWith('config/certificate/')) return CERTIFICATE_TABLE;
  if (name.startsWith('config/')) return CONFIG_TABLE;
  if (name.startsWith('role/')) return ROLE_TABLE;
  return LISTS_TABLE;
}

const key = (accessor: string, name: string) => `${accessor}/${name}`;

export function readEntry<T>(store: Store, accessor: string, name: string): T | undefined {
  return store.get<T>(tableOf(name), key(accessor, name));
}

export async function writeEntry(store: Store, accessor: string, name: string, value: unknown): Promise<void> {
  await store.write((tx) => tx.put(tableOf(name), key(accessor, name), value));
}

/** Read, change and write one entry in a transaction: concurrent partial updates cannot lose each other's fields. */
export async function updateEntry<T>(store: Store, accessor: string, name: string, change: (current: T | undefined) => T): Promise<T> {
  const { result } = await store.write((tx) => updateEntryInTx(tx, accessor, name, change));
  return result;
}

/** The same, inside a transaction of the caller's. */
export function updateEntryInTx<T>(tx: WriteTx, accessor: string, name: string, change: (current: T | undefined) => T): T {
  const table = tableOf(name);
  const next = change(tx.get<T>(table, key(accessor, name)));
  tx.put(table, key(accessor, name), next);
  return next;
}

export async function deleteEntry(store: Store, accessor: string, name: string): Promise<void> {
  await store.write((tx) => tx.delete(tableOf(name), key(accessor, name)));
}

/**
 * Deletes, in one transaction, each named entry whose current value `stale` accepts (checked inside the
 * transaction, so a value rewritten since the caller looked stays); answers how many went.
 */
export async function deleteEntriesIf<T>(store: Store, accessor: string, names: string[], stale: (value: T | undefined) => boolean): Promise<number> {
  const { result } = await store.write((tx) => {
    let n = 0;
    for (const name of names) {
      const table = tableOf(name);
      if (stale(tx.get<T>(table, key(accessor, name))) && tx.delete(table, key(accessor, name))) n++;
    }
    return n;
  });
  return result;
}

/** Names under `prefix/` (one level), sorted. */
export function listEntries(store: Store, accessor: string, prefix: string): string[] {
  const start = key(accessor, `${prefix}/`);
  return store
    .list(tableOf(`${prefix}/`), start)
    .map((e) => e.key.slice(start.length))
    .filter((k) => k !== '' && !k.includes('/'));
}

/** The entries under `prefix/` (one level) with their values, sorted by name: one read where names and then values would be two. */
export function listEntryValues<T>(store: Store, accessor: string, prefix: string): Array<{ name: string; value: T }> {
  const start = key(accessor, `${prefix}/`);
  return store
    .list<T>(tableOf(`${prefix}/`), start)
    .map((e) => ({ name: e.key.slice(start.length), value: e.value }))
    .filter((e) => e.name !== '' && !e.name.includes('/'));
}

/** Every record of a mount goes with it. */
export function deleteMountEntries(tx: WriteTx, accessor: string): void {
  for (const table of CLOUD_TABLES) for (const { key: k } of tx.list(table, `${accessor}/`)) tx.delete(table, k);
}
