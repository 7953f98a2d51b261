/**
 * Tidy of the identity access list and the role-tag deny list: an entry goes once now is past its
 * expiration_time plus the safety buffer. A tidy runs in the background, at most one per list of a mount
 * at a time; the endpoints and the server's periodic timer start them here, and shutdown waits for them.
 */
import type { Services } from '../../../server/services.js';
import { ACCESS_LIST_PREFIX } from './access-list.js';
import { DENY_LIST_PREFIX } from './deny-list.js';
import { deleteEntriesIf, listEntries } from './mount-storage.js';
import { TIDY_LISTS, tidyConfig, type TidyList } from './path-config-tidy.js';

export const TIDY_STARTED = 'Tidy operation successfully started. Any information from the operation will be printed to the server logs.';
export const TIDY_IN_PROGRESS = 'Tidy operation already in progress.';

const PREFIX: Record<TidyList, string> = { 'identity-accesslist': ACCESS_LIST_PREFIX, 'roletag-denylist': DENY_LIST_PREFIX };
const WHAT: Record<TidyList, string> = { 'identity-accesslist': 'identity access list', 'roletag-denylist': 'role tag deny list' };

/** Entries re-checked and removed per write transaction, so a long list does not hold the write lock at length. */
const BATCH = 100;

/** Tidies running per server (a process may run several, as tests do), by `<accessor>/<list>`. */
const running = new WeakMap<Services, Map<string, Promise<number>>>();

/**
 * Removes the entries of one list that are past expiration + buffer, and answers how many went. Each
 * entry is checked again inside the transaction that removes it: a login may have renewed it since the
 * list was read. Stops between batches when the server is shutting down.
 */
export async function tidyList(services: Services, accessor: string, list: TidyList, safetyBufferSeconds: number, nowMs = Date.now()): Promise<number> {
  const prefix = PREFIX[list];
  const cutoffMs = nowMs - safetyBufferSeconds * 1000;
  const names = listEntries(services.store, accessor, prefix);
  let removed = 0;
  for (let i = 0; i < names.length && !services.stopping; i += BATCH) {
    const batch = names.slice(i, i + BATCH).map((name) => `${prefix}/${name}`);
    removed += await deleteEntriesIf<{ expiration_time?: string }>(services.store, accessor, batch, (entry) => Date.parse(entry?.expiration_time ?? '') < cutoffMs);
  }
  return removed;
}

/** Starts a tidy in the background; false when one of this list of this mount is already running. */
export function startTidy(services: Services, accessor: string, list: TidyList, safetyBufferSeconds: number): boolean {
  let mine = running.get(services);
  if (!mine) running.set(services, (mine = new Map()));
  const key = `${accessor}/${list}`;
  if (mine.has(key)) return false;
  const log = services.log.named('auth.cloud.tidy');
  const run = tidyList(services, accessor, list, safetyBufferSeconds)
    .then(
      (n) => {
        log.info(`tidy of the ${WHAT[list]} of mount ${accessor} removed ${n} expired ${n === 1 ? 'entry' : 'entries'} (safety buffer ${safetyBufferSeconds}s)`);
        return n;
      },
      (err: Error) => {
        log.error(`tidy of the ${WHAT[list]} of mount ${accessor} failed: ${err.message}`);
        return 0;
      },
    )
    .finally(() => mine.delete(key));
  mine.set(key, run);
  return true;
}

/** Resolves when every tidy of this server has finished (shutdown waits for them before closing storage). */
export async function tidiesSettled(services: Services): Promise<void> {
  await Promise.all([...(running.get(services)?.values() ?? [])]);
}

/** The periodic tidy: both lists of every cloud mount, as each mount's config/tidy/* says. */
export function periodicTidy(services: Services): void {
  for (const mount of services.mounts.list()) {
    if (mount.type !== 'cloud') continue;
    for (const list of TIDY_LISTS) {
      const config = tidyConfig(services.store, mount.accessor, list);
      if (!config.disable_periodic_tidy) startTidy(services, mount.accessor, list, config.safety_buffer);
    }
  }
}
