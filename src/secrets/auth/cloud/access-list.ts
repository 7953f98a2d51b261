/**
 * The identity access list: one entry per instance that logged in with ec2, written by login and read
 * back by the next login of that instance (nonce check, reauthentication, migration), by renewal and by
 * tidy. The client nonce is what proves a later login comes from the same instance, so it is a
 * credential: it is sealed at rest with the entry's name as context, and these helpers are the only
 * place that opens it.
 */
import type { SecretsContext } from '../../context.js';
import type { WriteTx } from '../../../storage/store.js';
import { deleteEntry, listEntries, readEntry, updateEntryInTx, writeEntry } from './mount-storage.js';

export const ACCESS_LIST_PREFIX = 'identity-accesslist';

export interface AccessListEntry {
  /** the role the instance logged in to */
  role: string;
  /** '' once reauthentication is disallowed */
  client_nonce: string;
  /** RFC 3339; set by the first login, never changed after */
  creation_time: string;
  disallow_reauthentication: boolean;
  /** the identity document's pendingTime, verbatim */
  pending_time: string;
  /** RFC 3339: now + the longest max TTL at the last login or renewal; tidy goes by it */
  expiration_time: string;
  /** RFC 3339 */
  last_updated_time: string;
}

interface StoredEntry extends Omit<AccessListEntry, 'client_nonce'> {
  client_nonce_sealed: string;
}

export const accessListEntryName = (instanceId: string) => `${ACCESS_LIST_PREFIX}/${instanceId}`;

const nonceContext = (accessor: string, instanceId: string) => `auth-cloud/${accessor}/${accessListEntryName(instanceId)}/client_nonce`;

function seal(services: SecretsContext, accessor: string, instanceId: string, entry: AccessListEntry): StoredEntry {
  const { client_nonce, ...rest } = entry;
  return { ...rest, client_nonce_sealed: client_nonce === '' ? '' : services.seal.encrypt(client_nonce, nonceContext(accessor, instanceId)) };
}

function open(services: SecretsContext, accessor: string, instanceId: string, stored: StoredEntry): AccessListEntry {
  const { client_nonce_sealed, ...rest } = stored;
  return { ...rest, client_nonce: client_nonce_sealed === '' ? '' : services.seal.decrypt(client_nonce_sealed, nonceContext(accessor, instanceId)) };
}

export function readAccessListEntry(services: SecretsContext, accessor: string, instanceId: string): AccessListEntry | undefined {
  const stored = readEntry<StoredEntry>(services.store, accessor, accessListEntryName(instanceId));
  return stored && open(services, accessor, instanceId, stored);
}

export async function putAccessListEntry(services: SecretsContext, accessor: string, instanceId: string, entry: AccessListEntry): Promise<void> {
  await writeEntry(services.store, accessor, accessListEntryName(instanceId), seal(services, accessor, instanceId, entry));
}

/**
 * Read, change and write an instance's entry in one transaction, so that two logins of one instance
 * cannot both pass the nonce check against the same old entry. `change` may throw to refuse the login;
 * nothing is written then.
 */
export async function updateAccessListEntry(
  services: SecretsContext,
  accessor: string,
  instanceId: string,
  change: (current: AccessListEntry | undefined) => AccessListEntry,
): Promise<AccessListEntry> {
  const { result } = await services.store.write((tx) => updateAccessListEntryInTx(tx, services, accessor, instanceId, change));
  return result;
}

/** The same, inside a transaction of the caller's (a login writes its entry, alias and token at once). */
export function updateAccessListEntryInTx(
  tx: WriteTx,
  services: SecretsContext,
  accessor: string,
  instanceId: string,
  change: (current: AccessListEntry | undefined) => AccessListEntry,
): AccessListEntry {
  let next: AccessListEntry | undefined;
  updateEntryInTx<StoredEntry>(tx, accessor, accessListEntryName(instanceId), (stored) => {
    next = change(stored && open(services, accessor, instanceId, stored));
    return seal(services, accessor, instanceId, next);
  });
  return next!;
}

export async function deleteAccessListEntry(services: SecretsContext, accessor: string, instanceId: string): Promise<void> {
  await deleteEntry(services.store, accessor, accessListEntryName(instanceId));
}

/** Instance IDs with an entry, sorted. */
export function listAccessListIds(services: SecretsContext, accessor: string): string[] {
  return listEntries(services.store, accessor, ACCESS_LIST_PREFIX);
}
