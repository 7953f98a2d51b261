/**
 * Tidy of the identity access list and the role-tag deny list: an entry goes once now is past its
 * expiration_time plus the safety buffer. A tidy runs in the background, at most one per list of a mount
 * at a time in this server; the endpoints and the server's periodic timer start them here, and shutdown
 * waits for them.
 *
 * The guard is the server's own (the cloud auth method's state holds it), not the store's. With several
 * server processes sharing one store, the periodic tidy is the leader's to run; until servers elect one,
 * each runs its own. Two tidies of one list at once are still correct, only wasted work: each entry is
 * checked again in the transaction that removes it.
 */
import type { SecretsContext } from '../../context.js';
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

/**
 * Removes the entries of one list that are past expiration + buffer, and answers how many went. Each
 * entry is checked again inside the transaction that removes it: a login may have renewed it since the
 * list was read. Stops between batches when the server is shutting down.
 */
export async function tidyList(services: SecretsContext, accessor: string, list: TidyList, safetyBufferSeconds: number, nowMs = Date.now()): Promise<number> {
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

export interface Tidies {
  /** Starts a tidy in the background; false when one of this list of this mount is already running. */
  start(services: SecretsContext, accessor: string, list: TidyList, safetyBufferSeconds: number): boolean;
  /** The periodic tidy: both lists of every cloud mount, as each mount's config/tidy/* says. */
  periodic(services: SecretsContext): void;
  /** Resolves when every tidy started here has finished (shutdown waits for them before closing storage). */
  settled(): Promise<void>;
}

export function createTidies(): Tidies {
  /** Running tidies by `<accessor>/<list>`. */
  const running = new Map<string, Promise<number>>();

  function start(services: SecretsContext, accessor: string, list: TidyList, safetyBufferSeconds: number): boolean {
    const key = `${accessor}/${list}`;
    if (running.has(key)) return false;
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
      .finally(() => running.delete(key));
    running.set(key, run);
    return true;
  }

  return {
    start,
    periodic(services) {
      for (const mount of services.mounts.list()) {
        if (mount.type !== 'cloud') continue;
        for (const list of TIDY_LISTS) {
          const config = tidyConfig(services.store, mount.accessor, list);
          if (!config.disable_periodic_tidy) start(services, mount.accessor, list, config.safety_buffer);
        }
      }
    },
    async settled() {
      await Promise.all([...running.values()]);
    },
  };
}
