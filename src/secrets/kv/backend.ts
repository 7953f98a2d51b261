/**
 * The key/value secrets engine, versions 1 and 2 (Vault's kv and kv-v2): which backend serves a kv
 * mount follows its `version` option, so enable-versioning (a tune to version 2) switches it at once.
 */
import type { Backend } from '../framework/path.js';
import { definePath } from '../framework/path.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';
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

/**
 * A version 1 path on a version 2 mount (`secret/db` for `secret/data/db`): a 404 that says where to
 * look instead, as Vault's versioned engine answers it, so a client written for version 1 is told why.
 */
function invalidPath() {
  const answer = (command: string) => async () => ({
    status: 404,
    warnings: [
      `Invalid path for a versioned K/V secrets engine. See the API docs for the appropriate API endpoints to use. If using the svc CLI, use 'svc kv ${command}' for this operation.`,
    ],
  });
  return definePath({
    pattern: '*path',
    fields: { path: { type: 'string', description: 'A path outside data/, metadata/, delete/, undelete/, destroy/, subkeys/ and config.' } },
    synopsis: 'Not a path of a version 2 mount.',
    description: 'Answers 404 with a warning naming the svc kv command to use instead.',
    operations: {
      read: { summary: 'Refuse a version 1 read.', handler: answer('get') },
      update: { summary: 'Refuse a version 1 write.', handler: answer('put') },
      delete: { summary: 'Refuse a version 1 delete.', handler: answer('delete') },
    },
  });
}

export function kvBackendFor(mount: SecretMountEntry): Backend | undefined {
  if (mount.type !== 'kv') return undefined;
  return kvVersion(mount) === 2 ? kvV2Backend : kvV1Backend;
}
