/**
 * auth/cloud/config/tidy/identity-accesslist and config/tidy/roletag-denylist: how long past expiry an
 * entry is kept before tidy removes it, and whether the periodic tidy runs at all. The deprecated
 * `identity-whitelist` and `roletag-blacklist` names are served by backend.ts as aliases.
 */
import { NotFound, UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { configTidyFields, DEFAULT_SAFETY_BUFFER_SECONDS } from './fields.js';
import { deleteEntry, readEntry, updateEntry } from './mount-storage.js';

export const TIDY_LISTS = ['identity-accesslist', 'roletag-denylist'] as const;
export type TidyList = (typeof TIDY_LISTS)[number];

export interface TidyConfig {
  safety_buffer: number;
  disable_periodic_tidy: boolean;
}

const entry = (list: TidyList) => `config/tidy/${list}`;

export function tidyConfig(store: Parameters<typeof readEntry>[0], accessor: string, list: TidyList): TidyConfig {
  return readEntry<TidyConfig>(store, accessor, entry(list)) ?? { safety_buffer: DEFAULT_SAFETY_BUFFER_SECONDS, disable_periodic_tidy: false };
}

function tidyConfigPath(list: TidyList) {
  const what = list === 'identity-accesslist' ? 'identity access list' : 'role tag deny list';
  return definePath({
    pattern: `config/tidy/${list}`,
    fields: configTidyFields(what),
    synopsis: `Configure tidying of the ${what}.`,
    description: `Sets the safety buffer used when the ${what} is tidied, and whether the periodic tidy runs.`,
    operations: {
      read: {
        summary: 'Read the tidy configuration.',
        // As Vault: a configuration never written (or deleted) is not found, although tidy applies the defaults.
        handler: async (req) => {
          const stored = readEntry<TidyConfig>(req.services.store, req.mountAccessor, entry(list));
          if (!stored) throw new NotFound();
          return { data: { ...stored } };
        },
      },
      update: {
        summary: 'Change the given fields; the others keep their values (the defaults at first).',
        handler: async (req, data) => {
          // A negative buffer would let the periodic tidy drop entries before they expire (a deny-listed tag usable again).
          if (data.get<number>('safety_buffer') < 0) throw new UserError('safety_buffer cannot be negative');
          await updateEntry<TidyConfig>(req.services.store, req.mountAccessor, entry(list), (current) => ({
            ...(current ?? tidyConfig(req.services.store, req.mountAccessor, list)),
            ...(data.has('safety_buffer') ? { safety_buffer: data.get<number>('safety_buffer') } : {}),
            ...(data.has('disable_periodic_tidy') ? { disable_periodic_tidy: data.get<boolean>('disable_periodic_tidy') } : {}),
          }));
        },
      },
      delete: {
        summary: 'Remove the tidy configuration (tidy applies the defaults again; a read finds nothing).',
        handler: async (req) => deleteEntry(req.services.store, req.mountAccessor, entry(list)),
      },
    },
  });
}

export const configTidyPaths = TIDY_LISTS.map(tidyConfigPath);
