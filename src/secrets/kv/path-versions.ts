/**
 * KV version 2's delete/, undelete/ and destroy/ of given versions, as Vault's: a soft delete sets the
 * version's deletion_time (undelete clears it), a destroy removes its data for good and marks it
 * destroyed. Versions the key does not have are passed over; a key with no metadata is not an error.
 */
import type { FieldData } from '../../framework/schema/field-data.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import { mountOf } from './mount.js';
import { KV_META_TABLE, KV_VERSIONS_TABLE, metaKey, versionKey, type KeyMeta, type VersionMeta } from './storage.js';
import { isDeleted, versionNumbers } from './versions.js';

const FIELDS = {
  path: { type: 'string' as const, description: 'The location of the secret, relative to the mount.' },
  versions: { type: 'list' as const, description: 'The version numbers, e.g. [1, 2] or "1,2".' },
};

function changeVersions(change: (vm: VersionMeta, version: number, drop: () => void) => void) {
  return async (req: SecretsRequest, data: FieldData) => {
    const versions = versionNumbers(data.get<string[]>('versions').map(String));
    const mount = mountOf(req);
    const path = data.get<string>('path');
    await req.services.store.write((tx) => {
      const stored = tx.get<KeyMeta>(KV_META_TABLE, metaKey(mount, path));
      if (!stored) return;
      const meta = structuredClone(stored);
      for (const v of versions) {
        const vm = meta.versions[String(v)];
        if (vm) change(vm, v, () => tx.delete(KV_VERSIONS_TABLE, versionKey(mount, path, v)));
      }
      tx.put(KV_META_TABLE, metaKey(mount, path), meta);
    });
  };
}

export const versionPaths = [
  definePath({
    pattern: 'delete/*path',
    fields: FIELDS,
    synopsis: 'Soft-delete versions of a secret.',
    description: 'Marks the given versions deleted: reads of them answer 404 with their metadata until undelete/ restores them.',
    operations: {
      update: {
        summary: 'Soft-delete versions.',
        handler: changeVersions((vm) => {
          if (!vm.destroyed && !isDeleted(vm)) vm.deletionTime = new Date().toISOString();
        }),
      },
    },
  }),
  definePath({
    pattern: 'undelete/*path',
    fields: FIELDS,
    synopsis: 'Restore soft-deleted versions of a secret.',
    description: 'Clears the deletion of the given versions; a destroyed version cannot be restored.',
    operations: {
      update: {
        summary: 'Restore versions.',
        handler: changeVersions((vm) => {
          if (!vm.destroyed) vm.deletionTime = '';
        }),
      },
    },
  }),
  definePath({
    pattern: 'destroy/*path',
    fields: FIELDS,
    synopsis: 'Destroy versions of a secret.',
    description: 'Removes the data of the given versions for good; their metadata stays, marked destroyed.',
    operations: {
      update: {
        summary: 'Destroy versions.',
        handler: changeVersions((vm, _version, drop) => {
          vm.destroyed = true;
          drop();
        }),
      },
    },
  }),
];
