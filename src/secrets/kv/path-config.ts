/**
 * KV version 2's config, as Vault's: the mount's max_versions, cas_required and delete_version_after,
 * which every key follows unless its own metadata says otherwise. A negative delete_version_after
 * disables automatic deletion for the whole mount.
 */
import { parseDurationSeconds } from '../../shared/duration.js';
import { UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import { mountOf } from './mount.js';
import { KV_CONFIG_TABLE, configKey, type KvConfig } from './storage.js';
import { goDuration, readConfig } from './versions.js';

export const configPaths = [
  definePath({
    pattern: 'config',
    fields: {
      max_versions: { type: 'int', description: 'How many versions of each key to keep; 0 for the default, 10.' },
      cas_required: { type: 'bool', description: 'Every write must give options.cas.' },
      delete_version_after: { type: 'string', description: 'How long after it is written a version is deleted by itself, e.g. "72h"; 0 for never, a negative value to disable it for every key.' },
    },
    synopsis: 'Read or change the mount\'s KV settings.',
    description: 'Configures max_versions, cas_required and delete_version_after for every key of the mount.',
    operations: {
      read: {
        summary: 'Read the mount\'s KV settings.',
        handler: async (req) => {
          const config = readConfig(req.services.store, mountOf(req));
          return { data: { cas_required: config.casRequired, delete_version_after: goDuration(config.deleteVersionAfter), max_versions: config.maxVersions } };
        },
      },
      update: {
        summary: 'Change the mount\'s KV settings.',
        handler: async (req, data) => {
          const mount = mountOf(req);
          let dva: number | undefined;
          const rawDva = data.getOk<string>('delete_version_after');
          if (rawDva !== undefined && rawDva !== '') {
            const seconds = parseDurationSeconds(rawDva);
            if (seconds === undefined) throw new UserError(`invalid value "${rawDva}" for field "delete_version_after": give a duration such as "72h"`);
            dva = seconds < 0 ? -1 : Math.trunc(seconds);
          }
          if (data.has('max_versions') && data.get<number>('max_versions') < 0) throw new UserError('max_versions cannot be negative');
          await req.services.store.write((tx) => {
            const config: KvConfig = { ...readConfig(tx, mount) };
            if (data.has('max_versions')) config.maxVersions = data.get<number>('max_versions');
            if (data.has('cas_required')) config.casRequired = data.get<boolean>('cas_required');
            if (dva !== undefined) config.deleteVersionAfter = dva;
            tx.put(KV_CONFIG_TABLE, configKey(mount), config);
          });
        },
      },
    },
  }),
];
