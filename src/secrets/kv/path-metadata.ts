/**
 * KV version 2's metadata/<path>, as Vault's: a key's versions and settings (max_versions, cas_required,
 * delete_version_after, custom_metadata). A write sets those given, creating the key without a version
 * when it has none; a PATCH merges into them (a null in custom_metadata removes that key); a delete
 * removes the key, every version and its metadata; a LIST answers the keys and folders below a path.
 */
import { coerceField, FieldData } from '../../framework/schema/field-data.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import { NotFound, UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest, SecretsResponse } from '../framework/request.js';
import { rootRefusal } from './invalid-path.js';
import { childKeys } from './list.js';
import { isObject } from './merge-patch.js';
import { mountOf } from './mount.js';
import { KV_META_TABLE, KV_VERSIONS_TABLE, metaKey, versionKey, type KeyMeta } from './storage.js';
import { checkCustomMetadata, metadataInfo, newMeta, readConfig } from './versions.js';

const SETTINGS_FIELDS: Fields = {
  max_versions: { type: 'int', description: 'How many versions of the key to keep; 0 leaves it to the mount\'s config (10 when that says none).' },
  cas_required: { type: 'bool', description: 'Every write of the key must give options.cas.' },
  delete_version_after: { type: 'duration', description: 'How long after it is written a version is deleted by itself; 0 for never (or the mount\'s config).' },
  custom_metadata: { type: 'map', description: 'Up to 64 string keys and values describing the secret; they are not secret.' },
};

export const METADATA_FIELDS: Fields = {
  path: { type: 'string', description: 'The location of the secret, relative to the mount\'s metadata/.' },
  ...SETTINGS_FIELDS,
};

const CAS_IGNORED = '"cas_required" set to false, but is mandated by backend config. This value will be ignored.';

function list(req: SecretsRequest, prefix: string): SecretsResponse {
  const mount = mountOf(req);
  const from = `${mount.uuid}/${prefix}`;
  return { data: { keys: childKeys(req.services.store.keys(KV_META_TABLE, from), from) } };
}

/** The settings a write or a PATCH changes, onto a copy of `meta`; custom_metadata is set whole. */
function applySettings(meta: KeyMeta, data: FieldData, custom: Record<string, string> | undefined): void {
  if (data.has('max_versions')) {
    const max = data.get<number>('max_versions');
    if (max < 0) throw new UserError('max_versions cannot be negative');
    meta.maxVersions = max;
  }
  if (data.has('cas_required')) meta.casRequired = data.get<boolean>('cas_required');
  if (data.has('delete_version_after')) meta.deleteVersionAfter = data.get<number>('delete_version_after');
  if (custom) meta.customMetadata = custom;
}

async function writeSettings(req: SecretsRequest, data: FieldData): Promise<SecretsResponse | undefined> {
  if (!Object.keys(SETTINGS_FIELDS).some((f) => data.has(f))) return undefined;
  const custom = data.getOk<Record<string, string>>('custom_metadata');
  if (custom) checkCustomMetadata(custom);
  const mount = mountOf(req);
  const key = metaKey(mount, data.get<string>('path'));
  const { result: warnings } = await req.services.store.write((tx) => {
    const stored = tx.get<KeyMeta>(KV_META_TABLE, key);
    const meta = stored ? structuredClone(stored) : newMeta(new Date().toISOString());
    applySettings(meta, data, custom);
    tx.put(KV_META_TABLE, key, meta);
    return data.has('cas_required') && !data.get<boolean>('cas_required') && readConfig(tx, mount).casRequired ? [CAS_IGNORED] : [];
  });
  return warnings.length > 0 ? { warnings } : undefined;
}

/** custom_metadata as a PATCH gives it: string values to set, nulls to remove. */
function customPatch(raw: unknown): Record<string, string | null> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new UserError('field "custom_metadata" must be a JSON object');
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = v === null ? null : (coerceField(`custom_metadata.${k}`, { type: 'string', description: '' }, v) as string);
  return out;
}

export const metadataPaths = [
  definePath({
    pattern: 'metadata',
    fields: {},
    synopsis: 'List the keys at the top of the mount.',
    description: 'A LIST answers the keys and the folders (ending in "/") at the top of the mount; any other operation is a 404, as in Vault.',
    operations: {
      list: { summary: 'List the top-level keys.', handler: async (req) => list(req, '') },
      read: { summary: 'Refused: only a LIST is done at the root.', handler: rootRefusal },
      update: { summary: 'Refused: only a LIST is done at the root.', handler: rootRefusal },
      delete: { summary: 'Refused: only a LIST is done at the root.', handler: rootRefusal },
    },
  }),
  definePath({
    pattern: 'metadata/*path',
    fields: METADATA_FIELDS,
    existenceCheck: (req, data) => req.services.store.get(KV_META_TABLE, metaKey(mountOf(req), data.get<string>('path'))) !== undefined,
    patchHandler: async (req, data) => {
      const { custom_metadata: rawCustom, ...rest } = req.input ?? {};
      const changes = customPatch(rawCustom);
      const settings = new FieldData(Object.fromEntries(Object.entries(rest).filter(([k]) => Object.hasOwn(SETTINGS_FIELDS, k))), SETTINGS_FIELDS, 'update');
      const mount = mountOf(req);
      const key = metaKey(mount, data.get<string>('path'));
      const { result } = await req.services.store.write((tx) => {
        const stored = tx.get<KeyMeta>(KV_META_TABLE, key);
        if (!stored) return undefined;
        const meta = structuredClone(stored);
        let custom: Record<string, string> | undefined;
        if (changes) {
          custom = { ...(meta.customMetadata ?? {}) };
          for (const [k, v] of Object.entries(changes)) {
            if (v === null) delete custom[k];
            else custom[k] = v;
          }
          checkCustomMetadata(custom);
        }
        applySettings(meta, settings, custom);
        tx.put(KV_META_TABLE, key, meta);
        return settings.has('cas_required') && !settings.get<boolean>('cas_required') && readConfig(tx, mount).casRequired ? [CAS_IGNORED] : [];
      });
      if (!result) throw new NotFound();
      return result.length > 0 ? { warnings: result } : undefined;
    },
    synopsis: 'Read, write, patch, list or delete the metadata of a secret.',
    description:
      'A read answers the key\'s versions (created_time, deletion_time, destroyed), current_version, ' +
      'oldest_version and settings; a write sets max_versions, cas_required, delete_version_after and ' +
      'custom_metadata (creating the key without a version when it has none); a PATCH ' +
      '(application/merge-patch+json) merges into them; a delete removes the key with every version; a ' +
      'LIST answers the keys and folders below the path.',
    operations: {
      read: {
        summary: 'Read the metadata of a secret.',
        handler: async (req, data) => {
          const meta = req.services.store.get<KeyMeta>(KV_META_TABLE, metaKey(mountOf(req), data.get<string>('path')));
          if (!meta) throw new NotFound();
          return { data: metadataInfo(meta) };
        },
      },
      create: { summary: 'Create a key\'s metadata.', handler: writeSettings },
      update: { summary: 'Change a key\'s metadata.', handler: writeSettings },
      delete: {
        summary: 'Delete a key, its versions and its metadata.',
        handler: async (req, data) => {
          const mount = mountOf(req);
          const path = data.get<string>('path');
          await req.services.store.write((tx) => {
            const meta = tx.get<KeyMeta>(KV_META_TABLE, metaKey(mount, path));
            if (!meta) return;
            for (const n of Object.keys(meta.versions)) tx.delete(KV_VERSIONS_TABLE, versionKey(mount, path, Number(n)));
            tx.delete(KV_META_TABLE, metaKey(mount, path));
          });
        },
      },
      list: { summary: 'List the keys below a path.', handler: async (req, data) => list(req, `${data.get<string>('path')}/`) },
    },
  }),
];
