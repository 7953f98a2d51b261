/**
 * sys/auth/<path>/tune, as Vault's: a read answers the mount's settings in force (its TTLs, or the
 * system's where it has none), a write changes those given. Tokens the mount issues afterwards follow the
 * new TTLs. Like everything under sys/auth/, it needs `sudo`.
 */
import { UserError } from '../../shared/errors.js';
import { parseDurationSeconds } from '../../shared/duration.js';
import { definePath } from '../framework/path.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import { normaliseAuthPath } from '../mounts/mount-table.js';
import type { MountEntry } from '../mounts/mount-service.js';
import { SYSTEM_DEFAULT_TTL, SYSTEM_MAX_TTL } from '../token/token-store.js';
import { AUTH_TUNE_FIELDS } from './fields.js';
import { checkListingVisibility } from './listing-visibility.js';


function tuneInfo(m: MountEntry): Record<string, unknown> {
  const data: Record<string, unknown> = {
    description: m.description,
    default_lease_ttl: Math.min(m.config.defaultLeaseTtl || SYSTEM_DEFAULT_TTL, m.config.maxLeaseTtl || SYSTEM_MAX_TTL),
    max_lease_ttl: m.config.maxLeaseTtl || SYSTEM_MAX_TTL,
    force_no_cache: false,
    token_type: m.config.tokenType,
  };
  if (m.config.listingVisibility) data.listing_visibility = m.config.listingVisibility;
  return data;
}

/** A TTL field: undefined when not given, 0 for "system", else whole seconds. */
function ttlField(data: FieldData, name: string): number | undefined {
  const raw = data.getOk<string>(name);
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'system') return 0;
  const seconds = parseDurationSeconds(raw);
  if (seconds === undefined || seconds < 0) throw new UserError(`invalid value "${raw}" for field "${name}": give a duration such as "1h" or "system"`);
  return Math.floor(seconds);
}

function tuned(entry: MountEntry, data: FieldData): MountEntry {
  const config = { ...entry.config };
  const defaultTtl = ttlField(data, 'default_lease_ttl');
  const maxTtl = ttlField(data, 'max_lease_ttl');
  if (defaultTtl !== undefined) config.defaultLeaseTtl = defaultTtl;
  if (maxTtl !== undefined) config.maxLeaseTtl = maxTtl;
  // A mount without a default of its own gets the system's capped at its maximum (Vault's DefaultLeaseTTL).
  const effectiveMax = config.maxLeaseTtl || SYSTEM_MAX_TTL;
  if (config.defaultLeaseTtl > effectiveMax) {
    throw new UserError(`backend max lease TTL of ${effectiveMax} would be less than backend default lease TTL of ${config.defaultLeaseTtl}`);
  }
  const visibility = data.getOk<string>('listing_visibility');
  if (visibility !== undefined) {
    checkListingVisibility(visibility);
    config.listingVisibility = visibility;
  }
  const tokenType = data.getOk<string>('token_type');
  if (tokenType !== undefined) {
    // The token method's own tokens are typed per request (auth/token/create's type), as in Vault.
    if (entry.type === 'token') throw new UserError("token_type cannot be set for 'token' auth mount");
    config.tokenType = tokenType;
  }
  return { ...entry, description: data.getOk<string>('description') ?? entry.description, config };
}

export const authTunePaths = [
  definePath({
    pattern: 'auth/*path/tune',
    fields: AUTH_TUNE_FIELDS,
    sudo: true,
    synopsis: "Read or change an auth mount's settings.",
    description:
      'A read answers the mount\'s description, its default and maximum lease TTLs in force (the system\'s ' +
      'where the mount has none), listing_visibility and token_type. A write changes the settings given; ' +
      'a default lease TTL above the maximum is refused. Tokens the mount issues afterwards get the new TTLs.',
    operations: {
      read: {
        summary: "Read an auth mount's settings.",
        handler: async (req, data) => {
          const path = normaliseAuthPath(data.get<string>('path'));
          const mount = req.services.mounts.get(path);
          if (!mount) throw new UserError(`cannot fetch mount entry on "${path}"`);
          return { data: tuneInfo(mount) };
        },
      },
      update: {
        summary: "Change an auth mount's settings.",
        handler: async (req, data) => {
          await req.services.mounts.tune(data.get<string>('path'), (entry) => tuned(entry, data));
        },
      },
    },
  }),
];
