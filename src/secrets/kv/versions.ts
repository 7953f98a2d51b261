/**
 * KV version 2's rules over a key's metadata, as Vault's versioned KV applies them: check-and-set, the
 * sliding window of max_versions, delete_version_after, and how a version is answered.
 */
import { formatGoDuration } from '../../shared/duration.js';
import { UserError } from '../../shared/errors.js';
import type { WriteTx } from '../../storage/store.js';
import type { SecretMountEntry } from '../mounts/secret-mount-table.js';
import { DEFAULT_CONFIG, KV_CONFIG_TABLE, KV_VERSIONS_TABLE, configKey, versionKey, type KeyMeta, type KvConfig, type VersionMeta } from './storage.js';

/** Vault keeps this many versions of a key when neither the key nor the mount says. */
const DEFAULT_MAX_VERSIONS = 10;

export function readConfig(tx: Pick<WriteTx, 'get'>, mount: SecretMountEntry): KvConfig {
  return tx.get<KvConfig>(KV_CONFIG_TABLE, configKey(mount)) ?? DEFAULT_CONFIG;
}

export function newMeta(now: string): KeyMeta {
  return { createdTime: now, updatedTime: now, currentVersion: 0, oldestVersion: 0, maxVersions: 0, casRequired: false, deleteVersionAfter: 0, customMetadata: null, versions: {} };
}

/** Vault's options.cas: when given it must name the current version (0 for a key with none); when the key or the mount requires it, it must be given. */
export function checkCas(options: Record<string, unknown> | undefined, config: KvConfig, meta: KeyMeta): void {
  if (options && Object.hasOwn(options, 'cas')) {
    const raw = options.cas;
    const cas = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isInteger(cas)) throw new UserError('error parsing check-and-set parameter');
    if (cas !== meta.currentVersion) throw new UserError('check-and-set parameter did not match the current version');
  } else if (config.casRequired || meta.casRequired) {
    throw new UserError('check-and-set parameter required for this call');
  }
}

/** When a version written now is deleted by itself: the shorter of the key's and the mount's delete_version_after. */
function deletionTimeOf(created: Date, config: KvConfig, meta: KeyMeta): string {
  if (config.deleteVersionAfter < 0) return '';
  const mountAfter = config.deleteVersionAfter;
  const keyAfter = meta.deleteVersionAfter;
  if (mountAfter === 0 && keyAfter === 0) return '';
  let after = keyAfter;
  if ((mountAfter !== 0 && mountAfter < after) || after === 0) after = mountAfter;
  return new Date(created.getTime() + after * 1000).toISOString();
}

/**
 * Adds a version (its data already sealed by the caller at the number answered) and drops the versions
 * that fall out of the window, data and all: the larger of the key's and the mount's max_versions, else 10.
 */
export function addVersion(tx: WriteTx, mount: SecretMountEntry, path: string, meta: KeyMeta, config: KvConfig): { version: number; vm: VersionMeta } {
  const created = new Date();
  const vm: VersionMeta = { createdTime: created.toISOString(), deletionTime: deletionTimeOf(created, config, meta), destroyed: false };
  meta.currentVersion++;
  meta.versions[String(meta.currentVersion)] = vm;
  meta.updatedTime = vm.createdTime;
  if (!meta.createdTime) meta.createdTime = vm.createdTime;
  const max = Math.max(meta.maxVersions, config.maxVersions) || DEFAULT_MAX_VERSIONS;
  if (meta.currentVersion - meta.oldestVersion >= max) {
    const last = meta.currentVersion - max;
    for (let v = meta.oldestVersion; v <= last; v++) {
      delete meta.versions[String(v)];
      tx.delete(KV_VERSIONS_TABLE, versionKey(mount, path, v));
    }
    meta.oldestVersion = last + 1;
  }
  return { version: meta.currentVersion, vm };
}

export const isDeleted = (vm: VersionMeta, now = Date.now()) => vm.deletionTime !== '' && Date.parse(vm.deletionTime) <= now;

/** A version's metadata as data/ and subkeys/ answer it. */
export function versionInfo(meta: KeyMeta, version: number, vm: VersionMeta): Record<string, unknown> {
  return { created_time: vm.createdTime, custom_metadata: meta.customMetadata, deletion_time: vm.deletionTime, destroyed: vm.destroyed, version };
}

export const goDuration = (seconds: number) => formatGoDuration(seconds * 1e9);

/** metadata/<path> as Vault answers it. */
export function metadataInfo(meta: KeyMeta): Record<string, unknown> {
  const versions: Record<string, unknown> = {};
  for (const [n, vm] of Object.entries(meta.versions)) versions[n] = { created_time: vm.createdTime, deletion_time: vm.deletionTime, destroyed: vm.destroyed };
  return {
    cas_required: meta.casRequired,
    created_time: meta.createdTime,
    current_version: meta.currentVersion,
    custom_metadata: meta.customMetadata,
    delete_version_after: goDuration(meta.deleteVersionAfter),
    max_versions: meta.maxVersions,
    oldest_version: meta.oldestVersion,
    updated_time: meta.updatedTime,
    versions,
  };
}

/** The version numbers of delete/, undelete/ and destroy/ (Vault's comma-separated ints). */
export function versionNumbers(raw: readonly string[]): number[] {
  const out: number[] = [];
  for (const item of raw) {
    const n = Number(String(item).trim());
    if (!Number.isInteger(n) || n < 0) throw new UserError(`invalid version "${item}": give version numbers, such as 1,2`);
    out.push(n);
  }
  if (out.length === 0) throw new UserError('no version number provided');
  return out;
}

const CUSTOM_METADATA_MAX_KEYS = 64;
const CUSTOM_METADATA_MAX_KEY_LENGTH = 128;
const CUSTOM_METADATA_MAX_VALUE_LENGTH = 512;
const PRINTABLE = /^[\P{C}]*$/u;

/** Vault's limits on custom_metadata, every problem in one message. */
export function checkCustomMetadata(custom: Record<string, string>): void {
  const prefix = 'custom_metadata validation failed';
  const keys = Object.keys(custom);
  if (keys.length > CUSTOM_METADATA_MAX_KEYS) throw new UserError(`${prefix}: payload must contain at most ${CUSTOM_METADATA_MAX_KEYS} keys, provided ${keys.length}`);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(custom)) {
    const kl = Buffer.byteLength(key);
    const vl = Buffer.byteLength(value);
    if (kl === 0 || kl > CUSTOM_METADATA_MAX_KEY_LENGTH) problems.push(`${prefix}: length of key "${key}" is ${kl} but must be 0 < len(key) <= ${CUSTOM_METADATA_MAX_KEY_LENGTH}`);
    if (vl === 0 || vl > CUSTOM_METADATA_MAX_VALUE_LENGTH) problems.push(`${prefix}: length of value for key "${key}" is ${vl} but must be 0 < len(value) <= ${CUSTOM_METADATA_MAX_VALUE_LENGTH}`);
    if (!PRINTABLE.test(key)) problems.push(`${prefix}: key "${key}" contains unprintable characters`);
    if (!PRINTABLE.test(value)) problems.push(`${prefix}: value for key "${key}" contains unprintable characters`);
  }
  if (problems.length > 0) throw new UserError(problems.join('; '));
}
