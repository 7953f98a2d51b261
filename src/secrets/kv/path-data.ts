/**
 * KV version 2's data/<path>, as Vault's: a write adds a version (check-and-set by options.cas), a read
 * answers the latest or ?version=n with its metadata, a PATCH merges into the latest and adds a version,
 * a delete soft-deletes the latest. A deleted or destroyed version is answered 404 with its metadata and
 * `data: null`, as Vault does, so a client can tell it from a key that never was.
 */
import { NotFound, UserError } from '../../shared/errors.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import { isObject, mergePatch } from './merge-patch.js';
import { mountOf } from './mount.js';
import { readVersion } from './read-version.js';
import { KV_META_TABLE, KV_VERSIONS_TABLE, metaKey, openVersion, sealVersion, versionKey, type KeyMeta, type SealedRecord } from './storage.js';
import { addVersion, checkCas, isDeleted, newMeta, readConfig, versionInfo } from './versions.js';
import { BLOCKING_FIELDS, blockingParams, kvIndexHeaders, waitForKvChange } from './blocking-read.js';

const PATH_FIELD = { path: { type: 'string' as const, description: 'The location of the secret, relative to the mount\'s data/.' } };

export const DATA_FIELDS = {
  ...PATH_FIELD,
  version: { type: 'int' as const, description: 'The version to read; the latest when 0 or not given.', query: true },
  data: { type: 'object' as const, description: 'The secret: a JSON object of any keys and values.', sensitive: true },
  options: { type: 'object' as const, description: 'Write options: "cas", the version the write expects to be the current one (0: the key has none yet).' },
  ...BLOCKING_FIELDS,
};

/** What a write adds: the secret, or (a PATCH's) why there is nothing to add to: metadata for a 404 with it, null for a bare 404. */
type NextData = { secret: Record<string, unknown> } | { notFound: Record<string, unknown> | null };

/**
 * Adds the key's next version, in one write with the check-and-set it passed; `dataFor` answers the
 * secret from the key's metadata and its current version's data (which only a PATCH reads).
 */
async function addData(
  req: SecretsRequest,
  path: string,
  options: Record<string, unknown> | undefined,
  dataFor: (meta: KeyMeta | undefined, current: () => Record<string, unknown>) => NextData,
  mustExist = false,
) {
  const mount = mountOf(req);
  const { seal, store } = req.services;
  const { result } = await store.write((tx) => {
    const stored = tx.get<KeyMeta>(KV_META_TABLE, metaKey(mount, path));
    if (mustExist && !stored) return { notFound: null };
    const meta = stored ? structuredClone(stored) : newMeta('');
    const config = readConfig(tx, mount);
    checkCas(options, config, meta);
    const current = () => {
      const record = tx.get<SealedRecord>(KV_VERSIONS_TABLE, versionKey(mount, path, meta.currentVersion));
      if (!record) throw new Error('could not find version data');
      return openVersion(seal, mount, path, meta.currentVersion, record);
    };
    const next = dataFor(stored, current);
    if ('notFound' in next) return next;
    const number = meta.currentVersion + 1;
    tx.put(KV_VERSIONS_TABLE, versionKey(mount, path, number), sealVersion(seal, mount, path, number, next.secret));
    const { version, vm } = addVersion(tx, mount, path, meta, config);
    tx.put(KV_META_TABLE, metaKey(mount, path), meta);
    return { written: versionInfo(meta, version, vm) };
  });
  if ('notFound' in result) {
    if (result.notFound === null) throw new NotFound();
    return { data: result.notFound, status: 404 };
  }
  return { data: result.written };
}

export const dataPaths = [
  definePath({
    pattern: 'data/*path',
    fields: DATA_FIELDS,
    existenceCheck: (req, data) => req.services.store.get(KV_META_TABLE, metaKey(mountOf(req), data.get<string>('path'))) !== undefined,
    patchHandler: async (req, data) => {
      const body = req.input ?? {};
      if (!Object.hasOwn(body, 'data') || body.data === null) throw new UserError('no data provided');
      if (!isObject(body.data)) throw new UserError('field "data" must be a JSON object');
      const options = isObject(body.options) ? body.options : undefined;
      return addData(req, data.get<string>('path'), options, (meta, current) => {
        const vm = meta?.versions[String(meta.currentVersion)];
        if (!meta || !vm) return { notFound: null };
        if (isDeleted(vm) || vm.destroyed) return { notFound: versionInfo(meta, meta.currentVersion, vm) };
        return { secret: mergePatch(current(), body.data) as Record<string, unknown> };
      }, true);
    },
    synopsis: 'Write, patch, read and delete the versions of a secret.',
    description:
      'A write takes "data", the secret, and "options" ("cas": the version expected to be current) and ' +
      'adds a version; a read answers the latest version, or ?version=n, with its metadata; a PATCH ' +
      '(Content-Type application/merge-patch+json) merges "data" into the latest version as a new one; a ' +
      'delete marks the latest version deleted, which undelete/ reverses.',
    operations: {
      read: {
        summary: 'Read a version of a secret.',
        handler: async (req, data) => {
          await waitForKvChange(req, blockingParams(data), KV_META_TABLE);
          const { metadata, data: secret } = readVersion(req, data.get<string>('path'), data.get<number>('version'));
          const headers = kvIndexHeaders(req, KV_META_TABLE);
          return secret ? { data: { data: secret, metadata }, headers } : { data: { data: null, metadata }, status: 404, headers };
        },
      },
      create: { summary: 'Write the first version of a secret.', handler: async (req, data) => writeData(req, data) },
      update: { summary: 'Write a new version of a secret.', handler: async (req, data) => writeData(req, data) },
      delete: {
        summary: 'Soft-delete the latest version.',
        handler: async (req, data) => {
          const mount = mountOf(req);
          const key = metaKey(mount, data.get<string>('path'));
          await req.services.store.write((tx) => {
            const stored = tx.get<KeyMeta>(KV_META_TABLE, key);
            const vm = stored?.versions[String(stored.currentVersion)];
            if (!stored || !vm || vm.destroyed || isDeleted(vm)) return;
            const meta = structuredClone(stored);
            meta.versions[String(meta.currentVersion)].deletionTime = new Date().toISOString();
            tx.put(KV_META_TABLE, key, meta);
          });
        },
      },
    },
  }),
];

async function writeData(req: SecretsRequest, data: FieldData) {
  if (!data.has('data')) throw new UserError('no data provided');
  const secret = data.get<Record<string, unknown>>('data');
  return addData(req, data.get<string>('path'), data.getOk<Record<string, unknown>>('options'), () => ({ secret }));
}
