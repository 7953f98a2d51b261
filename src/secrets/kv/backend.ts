/**
 * The key/value secrets engine, versions 1 and 2 (Vault's kv and kv-v2): which backend serves a kv
 * mount follows its `version` option, so enable-versioning (a tune to version 2) switches it at once.
 */
import type { Backend } from '../framework/path.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';
import { invalidPath } from './invalid-path.js';
import { configPaths } from './path-config.js';
import { dataPaths } from './path-data.js';
import { metadataPaths } from './path-metadata.js';
import { subkeysPaths } from './path-subkeys.js';
import { versionPaths } from './path-versions.js';
import { kvVersion } from './storage.js';
import { kvV1Backend } from './v1-backend.js';

export const kvV2Backend: Backend = {
  type: 'kv',
  description:
    'The key/value secrets engine, version 2: every write of a key is a new version, with check-and-set, ' +
    'soft delete and undelete, destroy, per-key and per-mount settings, and custom metadata.',
  paths: [...configPaths, ...dataPaths, ...metadataPaths, ...versionPaths, ...subkeysPaths, invalidPath()],
};

export function kvBackendFor(mount: SecretMountEntry): Backend | undefined {
  if (mount.type !== 'kv') return undefined;
  return kvVersion(mount) === 2 ? kvV2Backend : kvV1Backend;
}
