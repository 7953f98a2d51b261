/**
 * Auth method mounts: sys/auth lists them, sys/auth/<path> enables, reads and disables one. As in
 * Vault, everything under sys/auth/ also needs `sudo`, while the listing needs only `read`.
 */
import { UserError } from '../../shared/errors.js';
import { coerceField } from '../../framework/schema/field-data.js';
import { definePath } from '../framework/path.js';
import { normaliseAuthPath } from '../mounts/mount-table.js';
import { AUTH_ENABLE_FIELDS, AUTH_MOUNT_CONFIG_FIELDS } from './fields.js';
import { authMountInfo } from './mount-info.js';

const AUTH_PREFIX = 'auth/';

interface MountConfig {
  defaultLeaseTtl?: number;
  maxLeaseTtl?: number;
  tokenType?: string;
}

/**
 * Clients that speak Vault send config keys we have no use for (listing_visibility, audit keys...);
 * refusing them would break those clients, so they are reported back as warnings instead.
 */
function parseMountConfig(raw: Record<string, unknown>): { config: MountConfig; warnings: string[] } {
  const values: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const schema = Object.hasOwn(AUTH_MOUNT_CONFIG_FIELDS, key) ? AUTH_MOUNT_CONFIG_FIELDS[key] : undefined;
    if (!schema) {
      ignored.push(key);
      continue;
    }
    if (value === null || value === undefined || value === '') continue;
    const coerced = coerceField(`config.${key}`, schema, value);
    if (schema.allowedValues && !schema.allowedValues.includes(coerced as string)) {
      throw new UserError(`invalid value "${String(coerced)}" for field "config.${key}": must be one of ${schema.allowedValues.join(', ')}`);
    }
    if (typeof coerced === 'number' && coerced < 0) throw new UserError(`field "config.${key}" cannot be negative`);
    values[key] = coerced;
  }
  const config: MountConfig = {
    defaultLeaseTtl: values.default_lease_ttl as number | undefined,
    maxLeaseTtl: values.max_lease_ttl as number | undefined,
    tokenType: values.token_type as string | undefined,
  };
  if (config.defaultLeaseTtl && config.maxLeaseTtl && config.defaultLeaseTtl > config.maxLeaseTtl) {
    throw new UserError('given default lease TTL greater than given max lease TTL');
  }
  const warnings = ignored.length > 0 ? [`Endpoint ignored these unrecognized config keys: [${ignored.sort().join(' ')}]`] : [];
  return { config, warnings };
}

export const authPaths = [
  definePath({
    pattern: 'auth',
    fields: {},
    synopsis: 'List the enabled auth methods.',
    description: 'Answers every auth mount keyed by its path relative to auth/, e.g. "token/".',
    operations: {
      read: {
        summary: 'List the auth mounts.',
        handler: async (req) => {
          const data: Record<string, unknown> = {};
          for (const m of req.services.mounts.list()) data[m.path.slice(AUTH_PREFIX.length)] = authMountInfo(m, req.services.version);
          return { data };
        },
      },
    },
  }),
  definePath({
    pattern: 'auth/*path',
    fields: AUTH_ENABLE_FIELDS,
    sudo: true,
    synopsis: 'Enable, read or disable an auth method.',
    description:
      'A write enables an auth method of the given type at auth/<path>/; the path must not be in use nor ' +
      'nested inside or around another mount. A delete disables the mount, revoking every token it issued ' +
      'and removing its identity aliases. The token method at auth/token/ can be neither enabled again nor disabled.',
    operations: {
      read: {
        summary: 'Read one auth mount.',
        handler: async (req, data) => {
          const path = normaliseAuthPath(data.get<string>('path'));
          const mount = req.services.mounts.get(path);
          // Vault's answer for a missing mount, kept for clients that match on it.
          if (!mount) throw new UserError(`No auth engine at ${path}`);
          return { data: authMountInfo(mount, req.services.version) };
        },
      },
      update: {
        summary: 'Enable an auth method.',
        handler: async (req, data) => {
          const type = data.get<string>('type');
          if (type === 'token') throw new UserError('the token auth method is always mounted at auth/token/ and cannot be enabled again');
          const { config, warnings } = parseMountConfig(data.get<Record<string, unknown>>('config'));
          await req.services.mounts.enable(data.get<string>('path'), type, data.get<string>('description'), config, {
            local: data.get<boolean>('local'),
            sealWrap: data.get<boolean>('seal_wrap'),
            externalEntropyAccess: data.get<boolean>('external_entropy_access'),
            options: data.getOk<Record<string, string>>('options') ?? null,
          });
          return warnings.length > 0 ? { warnings } : undefined;
        },
      },
      delete: {
        summary: 'Disable an auth method.',
        handler: async (req, data) => {
          await req.services.mounts.disable(data.get<string>('path'));
        },
      },
    },
  }),
];
