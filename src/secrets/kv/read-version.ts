/**
 * One version of a key as data/ and subkeys/ read it: the latest, or `requested` when above 0. A key or
 * version that never was is NotFound; a deleted or destroyed one answers its metadata without data, which
 * the paths turn into Vault's 404 with the metadata.
 */
import { NotFound } from '../../shared/errors.js';
import type { SecretsRequest } from '../framework/request.js';
import { mountOf } from './mount.js';
import { KV_META_TABLE, KV_VERSIONS_TABLE, metaKey, openVersion, versionKey, type KeyMeta, type SealedRecord } from './storage.js';
import { isDeleted, versionInfo } from './versions.js';

export function readVersion(req: SecretsRequest, path: string, requested: number): { metadata: Record<string, unknown>; data?: Record<string, unknown> } {
  const mount = mountOf(req);
  const { store, seal } = req.services;
  const meta = store.get<KeyMeta>(KV_META_TABLE, metaKey(mount, path));
  if (!meta) throw new NotFound();
  const version = requested > 0 ? requested : meta.currentVersion;
  const vm = meta.versions[String(version)];
  if (!vm) throw new NotFound();
  const metadata = versionInfo(meta, version, vm);
  if (isDeleted(vm) || vm.destroyed) return { metadata };
  const record = store.get<SealedRecord>(KV_VERSIONS_TABLE, versionKey(mount, path, version));
  if (!record) throw new Error('could not find version data');
  return { metadata, data: openVersion(seal, mount, path, version, record) };
}
