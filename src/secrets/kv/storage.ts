/**
 * Where the KV engine keeps its records, and how. Every key begins with the mount's UUID, so a mount's
 * records move with it (sys/remount) and go with it in the write that disables it. Values are sealed with
 * the keyring's active key; the record's own name (mount, path, version) is the seal's context, so a
 * ciphertext copied into another record does not open there.
 */
import { UserError } from '../../shared/errors.js';
import type { Seal } from '../../storage/seal.js';
import type { WriteTx } from '../../storage/store.js';
import type { EngineStorage, SecretMountEntry } from '../mounts/secret-mount-table.js';

/** version 1: one sealed record per path */
export const KV_V1_TABLE = 'kv_v1';
/** version 2: a key's metadata (its versions among them), in the clear: it holds no secret value */
export const KV_META_TABLE = 'kv_meta';
/** version 2: each version's data, sealed */
export const KV_VERSIONS_TABLE = 'kv_versions';
/** version 2: the mount's config, at `<uuid>/` */
export const KV_CONFIG_TABLE = 'kv_config';

export interface SealedRecord {
  sealed: string;
}

export interface VersionMeta {
  createdTime: string;
  /** '' when the version is not (or not yet) deleted */
  deletionTime: string;
  destroyed: boolean;
}

export interface KeyMeta {
  createdTime: string;
  updatedTime: string;
  currentVersion: number;
  oldestVersion: number;
  maxVersions: number;
  casRequired: boolean;
  /** seconds; 0 leaves it to the mount's config */
  deleteVersionAfter: number;
  customMetadata: Record<string, string> | null;
  versions: Record<string, VersionMeta>;
}

export interface KvConfig {
  maxVersions: number;
  casRequired: boolean;
  /** seconds; 0 for none, -1 for disabled (Vault's), which also overrides every key's own */
  deleteVersionAfter: number;
}

export const DEFAULT_CONFIG: KvConfig = { maxVersions: 0, casRequired: false, deleteVersionAfter: 0 };

export const v1Key = (mount: SecretMountEntry, path: string) => `${mount.uuid}/${path}`;
export const metaKey = (mount: SecretMountEntry, path: string) => `${mount.uuid}/${path}`;
export const versionKey = (mount: SecretMountEntry, path: string, version: number) => `${mount.uuid}/${path}#${version}`;
export const configKey = (mount: SecretMountEntry) => `${mount.uuid}/`;

const v1Context = (uuid: string, path: string) => `kv/${uuid}/${path}`;
const v2Context = (uuid: string, path: string, version: number) => `kv/${uuid}/${path}#${version}`;

export function sealV1(seal: Seal, mount: SecretMountEntry, path: string, data: Record<string, unknown>): SealedRecord {
  return { sealed: seal.encrypt(JSON.stringify(data), v1Context(mount.uuid, path)) };
}

export function openV1(seal: Seal, mount: SecretMountEntry, path: string, record: SealedRecord): Record<string, unknown> {
  return JSON.parse(seal.decrypt(record.sealed, v1Context(mount.uuid, path))) as Record<string, unknown>;
}

export function sealVersion(seal: Seal, mount: SecretMountEntry, path: string, version: number, data: Record<string, unknown>): SealedRecord {
  return { sealed: seal.encrypt(JSON.stringify(data), v2Context(mount.uuid, path, version)) };
}

export function openVersion(seal: Seal, mount: SecretMountEntry, path: string, version: number, record: SealedRecord): Record<string, unknown> {
  return JSON.parse(seal.decrypt(record.sealed, v2Context(mount.uuid, path, version))) as Record<string, unknown>;
}

/** The version a mount's options name: Vault reads a missing or empty one as 1. */
export function kvVersion(mount: Pick<SecretMountEntry, 'options'>): 1 | 2 {
  const v = mount.options?.version;
  return v === '2' ? 2 : 1;
}

function checkVersionOption(options: Record<string, string> | null): void {
  const v = options?.version;
  if (v !== undefined && v !== '' && v !== '1' && v !== '2') throw new UserError(`invalid kv version "${v}": use 1 or 2`);
}

export const UPGRADE_WARNING =
  'Upgrading from non-versioned to versioned data. This backend will be unavailable for a brief period and will resume service shortly.';

/**
 * Version 1 to version 2 (Vault's enable-versioning): each path's data becomes version 1 of the key, in
 * the tune's own write, so no request sees the mount half upgraded.
 */
function upgradeToV2(tx: WriteTx, seal: Seal, mount: SecretMountEntry): void {
  const now = new Date().toISOString();
  for (const { key, value } of tx.list<SealedRecord>(KV_V1_TABLE, `${mount.uuid}/`)) {
    const path = key.slice(mount.uuid.length + 1);
    const data = openV1(seal, mount, path, value);
    tx.put(KV_VERSIONS_TABLE, versionKey(mount, path, 1), sealVersion(seal, mount, path, 1, data));
    const meta: KeyMeta = {
      createdTime: now,
      updatedTime: now,
      currentVersion: 1,
      oldestVersion: 0,
      maxVersions: 0,
      casRequired: false,
      deleteVersionAfter: 0,
      customMetadata: null,
      versions: { '1': { createdTime: now, deletionTime: '', destroyed: false } },
    };
    tx.put(KV_META_TABLE, metaKey(mount, path), meta);
    tx.delete(KV_V1_TABLE, key);
  }
}

export function kvEngineStorage(seal: Seal): EngineStorage {
  return {
    tables: [KV_V1_TABLE, KV_META_TABLE, KV_VERSIONS_TABLE, KV_CONFIG_TABLE],
    options(asked) {
      checkVersionOption(asked);
      return asked;
    },
    optionsChanged(tx, before, after) {
      checkVersionOption(after.options);
      const from = kvVersion(before);
      const to = kvVersion(after);
      if (from === to) return [];
      if (from === 2) throw new UserError('cannot downgrade a versioned kv mount (version 2) to version 1');
      upgradeToV2(tx, seal, after);
      return [UPGRADE_WARNING];
    },
  };
}
