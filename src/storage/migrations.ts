import { META_TABLE, type Store, type WriteTx } from './store.js';

/**
 * A schema change. `up` runs inside one write transaction together with the version bump, so a crash
 * mid-migration leaves the store at the previous version and the migration runs again on the next open.
 * It must be synchronous and must only use `tx` (the store interface is shared with the PostgreSQL
 * backend, so no backend-specific tricks).
 */
export interface Migration {
  version: number;
  description: string;
  up(tx: WriteTx): void;
}

/** The data dir is from a newer build; opening it would risk writing a layout this build doesn't know. */
export class NewerSchemaError extends Error {
  constructor(
    readonly stored: number,
    readonly known: number,
  ) {
    super(`data dir was written by a newer svc (schema ${stored}); this build knows up to ${known}`);
  }
}

/** Where the schema version lives. `meta` is shared with the store's own index bookkeeping. */
export const SCHEMA_TABLE = META_TABLE;
export const SCHEMA_KEY = 'schema_version';

export function schemaVersion(store: Pick<Store, 'get'>): number {
  const v = store.get<number>(SCHEMA_TABLE, SCHEMA_KEY);
  return typeof v === 'number' ? v : 0;
}

/**
 * Brings the store up to the newest migration. Each migration gets its own write so its index is visible
 * in the history and a failure stops at a well-defined version. Returns the versions applied.
 */
export async function runMigrations(store: Store, migrations: readonly Migration[]): Promise<number[]> {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 0; i < ordered.length; i++) {
    const m = ordered[i];
    if (!Number.isSafeInteger(m.version) || m.version < 1) {
      throw new Error(`migration "${m.description}" has invalid version ${m.version}; versions are integers >= 1`);
    }
    if (i > 0 && ordered[i - 1].version === m.version) {
      throw new Error(`two migrations share version ${m.version}: "${ordered[i - 1].description}" and "${m.description}"`);
    }
  }
  const newest = ordered.length ? ordered[ordered.length - 1].version : 0;
  const stored = schemaVersion(store);
  if (stored > newest) {
    throw new NewerSchemaError(stored, newest);
  }

  const applied: number[] = [];
  for (const m of ordered) {
    if (m.version <= stored) continue;
    const { result } = await store.write((tx) => {
      // Re-read inside the transaction: another server process sharing the store may have migrated
      // between our check above and this write.
      const current = tx.get<number>(SCHEMA_TABLE, SCHEMA_KEY) ?? 0;
      if (current >= m.version) return false;
      m.up(tx);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, m.version);
      return true;
    });
    if (result) applied.push(m.version);
  }
  return applied;
}
