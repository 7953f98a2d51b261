/**
 * The secrets engine mounts, as Vault's mount table lists them at sys/mounts. Today they are the engines
 * built in at fixed paths, `sys/` and `identity/`, created once per state so their accessors and UUIDs
 * stay the same across restarts and servers; engines mounted later are more entries in the same table.
 */
import { shortHex, uuid } from '../../shared/ids.js';
import type { Store } from '../../storage/store.js';
import type { MountBase } from './mount-service.js';

export const SECRET_MOUNTS_TABLE = 'secret_mounts';

export interface SecretMountEntry extends MountBase {
  config: { defaultLeaseTtl: number; maxLeaseTtl: number; forceNoCache: boolean };
}

/** The built-in engines, with Vault's types and descriptions for them. */
export const BUILTIN_SECRET_MOUNTS: ReadonlyArray<Pick<SecretMountEntry, 'path' | 'type' | 'description'>> = [
  { path: 'identity/', type: 'identity', description: 'identity store' },
  { path: 'sys/', type: 'system', description: 'system endpoints used for control, policy and debugging' },
];

export interface SecretMountService {
  /** in path order */
  list(): SecretMountEntry[];
  /** `path` with its trailing slash */
  get(path: string): SecretMountEntry | undefined;
}

export class SecretMountTable implements SecretMountService {
  constructor(private readonly store: Store) {}

  /** Creates the built-in entries a store does not have yet (another server may be doing the same). */
  async ensureBuiltins(): Promise<void> {
    if (BUILTIN_SECRET_MOUNTS.every((m) => this.get(m.path))) return;
    await this.store.write((tx) => {
      for (const m of BUILTIN_SECRET_MOUNTS) {
        if (tx.get(SECRET_MOUNTS_TABLE, m.path)) continue;
        const entry: SecretMountEntry = {
          ...m,
          accessor: `${m.type}_${shortHex()}`,
          uuid: uuid(),
          local: false,
          sealWrap: false,
          externalEntropyAccess: false,
          config: { defaultLeaseTtl: 0, maxLeaseTtl: 0, forceNoCache: false },
          options: null,
        };
        tx.put(SECRET_MOUNTS_TABLE, m.path, entry);
      }
    });
  }

  list(): SecretMountEntry[] {
    return this.store.list<SecretMountEntry>(SECRET_MOUNTS_TABLE).map((e) => e.value);
  }

  get(path: string): SecretMountEntry | undefined {
    return this.store.get<SecretMountEntry>(SECRET_MOUNTS_TABLE, path);
  }
}
