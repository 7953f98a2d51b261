/**
 * What Vault's sys/health and sys/seal-status call the cluster: its name and a UUID made once per state
 * (the first server to be asked makes it, in the store, so every server of a cluster answers the same).
 */
import { uuid } from '../../shared/ids.js';
import { META_TABLE, type Store } from '../../storage/store.js';

export const CLUSTER_NAME = 'svc';

const CLUSTER_ID_KEY = 'cluster_id';

export async function clusterId(store: Store): Promise<string> {
  const known = store.get<string>(META_TABLE, CLUSTER_ID_KEY);
  if (known) return known;
  const { result } = await store.write((tx) => {
    // Another server sharing the store may have made it since our read: keep theirs.
    const existing = tx.get<string>(META_TABLE, CLUSTER_ID_KEY);
    if (existing) return existing;
    const made = uuid();
    tx.put(META_TABLE, CLUSTER_ID_KEY, made);
    return made;
  });
  return result;
}

/** Whether the state has been initialised (its root token made): always so once a server serves it. */
export function initialized(store: Store): boolean {
  return store.get<boolean>(META_TABLE, 'initialized') === true;
}
