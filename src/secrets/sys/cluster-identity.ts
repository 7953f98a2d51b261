/**
 * What Vault's sys/health and sys/seal-status call the cluster: its name and a UUID made once per state
 * (the first server to start on the state makes it, in the store, so every server of a cluster answers the same).
 */
import { uuid } from '../../shared/ids.js';
import { META_TABLE, type Store } from '../../storage/store.js';

export const CLUSTER_NAME = 'svc';

const CLUSTER_ID_KEY = 'cluster_id';

/** Makes the cluster's UUID once, at a server's start, unless the state has one (another server's, say). */
export async function ensureClusterId(store: Store): Promise<void> {
  if (store.get<string>(META_TABLE, CLUSTER_ID_KEY)) return;
  await store.write((tx) => {
    // Another server sharing the store may have made it since our read: keep theirs.
    if (!tx.get<string>(META_TABLE, CLUSTER_ID_KEY)) tx.put(META_TABLE, CLUSTER_ID_KEY, uuid());
  });
}

/** The cluster's UUID, which ensureClusterId made at start. */
export function clusterId(store: Store): string {
  return store.get<string>(META_TABLE, CLUSTER_ID_KEY) ?? '';
}

/** Whether the state has been initialised (its root token made): always so once a server serves it. */
export function initialized(store: Store): boolean {
  return store.get<boolean>(META_TABLE, 'initialized') === true;
}
