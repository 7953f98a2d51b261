/**
 * sys/mounts, as Vault's: the secrets engines table (sys/, identity/ and the engines mounted since), one
 * engine at sys/mounts/<path>: a write enables it, a delete disables it with all its data, a read answers
 * it; sys/mounts/<path>/tune reads and changes its settings (a kv mount's `version` option among them:
 * Vault's enable-versioning). ACL as in Vault: the capability on sys/mounts/<path>, no sudo.
 */
import { coerceField } from '../../framework/schema/field-data.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import { parseDurationSeconds } from '../../shared/duration.js';
import { UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import { normaliseSecretPath, type SecretMountConfig, type SecretMountEntry } from '../mounts/secret-mount-table.js';
import { SYSTEM_DEFAULT_TTL, SYSTEM_MAX_TTL } from '../token/token-store.js';
import { secretMountInfo } from './mount-info.js';
import { checkListingVisibility } from './listing-visibility.js';

const PATH_FIELD: Fields = { path: { type: 'string', description: 'The mount path of the secrets engine, e.g. "secret".' } };

export const MOUNT_ENABLE_FIELDS: Fields = {
  ...PATH_FIELD,
  type: { type: 'string', description: 'The engine type: "kv", or "kv-v2" for kv with version 2.', required: ['create', 'update'] },
  description: { type: 'string', description: 'A human-friendly description of the engine.' },
  config: {
    type: 'object',
    description:
      'Mount configuration: default_lease_ttl, max_lease_ttl, force_no_cache, listing_visibility ("unauth" ' +
      'lists the mount to callers without a token at sys/internal/ui/mounts; "hidden" or "" do not), ' +
      'plugin_version, and the lists audit_non_hmac_request_keys, audit_non_hmac_response_keys, ' +
      'passthrough_request_headers and allowed_response_headers (a JSON list or one comma-separated string), ' +
      'kept and answered as Vault does: the engines take no request headers and set none, and the audit log ' +
      'HMACs every value.',
  },
  options: { type: 'map', description: 'Options for the engine, string to string: kv\'s "version", "1" or "2".' },
  local: { type: 'bool', description: "Mark the mount local, as Vault's local mounts (not replicated); stored and shown in reads. svc replicates to no other cluster, so it changes nothing else." },
  seal_wrap: { type: 'bool', description: 'Seal-wrap the mount, as Vault; stored and shown in reads.' },
  external_entropy_access: { type: 'bool', description: 'Give the mount external entropy, as Vault; stored and shown in reads.' },
  plugin_version: { type: 'string', description: 'The engine\'s version: every engine is built in, so only its running version (or "") is accepted, as config.plugin_version is.' },
};

export const MOUNT_TUNE_FIELDS: Fields = {
  ...PATH_FIELD,
  default_lease_ttl: { type: 'string', description: 'The default lease duration, such as "1h"; "system" (or 0) returns to the system default.' },
  max_lease_ttl: { type: 'string', description: 'The maximum lease duration, such as "24h"; "system" (or 0) returns to the system default.' },
  description: { type: 'string', description: 'A human-friendly description of the engine.' },
  options: { type: 'map', description: 'Options merged into the engine\'s: kv\'s "version" of "2" upgrades a version 1 mount.' },
};

/** A TTL: undefined when not given, 0 for "system", else whole seconds. */
function ttlOf(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === 'system') return 0;
  const seconds = typeof raw === 'number' || typeof raw === 'string' ? parseDurationSeconds(raw) : undefined;
  if (seconds === undefined || seconds < 0) throw new UserError(`invalid value "${String(raw)}" for field "${name}": give a duration such as "1h" or "system"`);
  return Math.floor(seconds);
}

function checkTtls(defaultTtl: number, maxTtl: number): void {
  const effectiveMax = maxTtl || SYSTEM_MAX_TTL;
  if (defaultTtl > effectiveMax) throw new UserError(`backend max lease TTL of ${effectiveMax} would be less than backend default lease TTL of ${defaultTtl}`);
}

/** The config keys that are lists of strings, with their names in the mount's entry. */
const LIST_CONFIG = {
  audit_non_hmac_request_keys: 'auditNonHmacRequestKeys',
  audit_non_hmac_response_keys: 'auditNonHmacResponseKeys',
  passthrough_request_headers: 'passthroughRequestHeaders',
  allowed_response_headers: 'allowedResponseHeaders',
} as const;

const KNOWN_CONFIG = ['default_lease_ttl', 'max_lease_ttl', 'force_no_cache', 'listing_visibility', 'plugin_version', ...Object.keys(LIST_CONFIG)];

/** A list setting as Vault takes it, a JSON list of strings or one comma-separated string; an empty one is not kept. */
function stringList(name: string, raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const items = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? (raw as string[]) : undefined;
  if (!items) throw new UserError(`field "config.${name}" must be a list of strings or one comma-separated string`);
  const kept = items.map((v) => v.trim()).filter((v) => v !== '');
  return kept.length > 0 ? kept : undefined;
}

const SEMVER = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Vault's plugin_version check, for engines that are all built in: a version asked for must be the one
 * running (as Vault takes a builtin's own version, and stores none), any other is not in the catalog.
 */
function checkPluginVersion(field: string, asked: unknown, type: string, version: string): void {
  if (asked === undefined || asked === null || asked === '') return;
  if (typeof asked !== 'string') throw new UserError(`field "${field}" must be a string, such as "v1.2.0"`);
  const m = SEMVER.exec(asked.trim());
  if (!m) throw new UserError(`version "${asked}" is not a valid semantic version (field "${field}")`);
  const canonical = `v${Number(m[1])}.${Number(m[2] ?? 0)}.${Number(m[3] ?? 0)}${m[4] ?? ''}${m[5] ?? ''}`;
  const running = `v${version}+builtin.svc`;
  if (canonical !== running) {
    throw new UserError(`secrets plugin "${type}", version ${canonical} not found: svc's engines are built in and run ${running}; leave ${field} empty`);
  }
}

/** The config object of an enable; keys svc has no use for come back as a warning, as sys/auth does. */
function enableConfig(raw: Record<string, unknown>, type: string, version: string): { config: Partial<SecretMountConfig>; warnings: string[] } {
  const ignored = Object.keys(raw).filter((k) => !KNOWN_CONFIG.includes(k));
  const config: Partial<SecretMountConfig> = {
    defaultLeaseTtl: ttlOf('config.default_lease_ttl', raw.default_lease_ttl) ?? 0,
    maxLeaseTtl: ttlOf('config.max_lease_ttl', raw.max_lease_ttl) ?? 0,
    forceNoCache: raw.force_no_cache === undefined ? false : (coerceField('config.force_no_cache', { type: 'bool', description: '' }, raw.force_no_cache) as boolean),
  };
  checkTtls(config.defaultLeaseTtl!, config.maxLeaseTtl!);
  for (const [name, key] of Object.entries(LIST_CONFIG)) {
    const list = stringList(name, raw[name]);
    if (list) config[key] = list;
  }
  const visibility = raw.listing_visibility ?? '';
  if (typeof visibility !== 'string') throw new UserError('field "config.listing_visibility" must be a string: "unauth", "hidden" or ""');
  checkListingVisibility(visibility);
  if (visibility) config.listingVisibility = visibility;
  checkPluginVersion('config.plugin_version', raw.plugin_version, type, version);
  const warnings = ignored.length > 0 ? [`Endpoint ignored these unrecognized config keys: [${ignored.sort().join(' ')}]`] : [];
  return { config, warnings };
}

function tuneInfo(m: SecretMountEntry): Record<string, unknown> {
  return {
    default_lease_ttl: Math.min(m.config.defaultLeaseTtl || SYSTEM_DEFAULT_TTL, m.config.maxLeaseTtl || SYSTEM_MAX_TTL),
    description: m.description,
    force_no_cache: m.config.forceNoCache,
    max_lease_ttl: m.config.maxLeaseTtl || SYSTEM_MAX_TTL,
    options: m.options,
  };
}

function tuned(entry: SecretMountEntry, data: FieldData): SecretMountEntry {
  const config = { ...entry.config };
  const defaultTtl = ttlOf('default_lease_ttl', data.getOk('default_lease_ttl'));
  const maxTtl = ttlOf('max_lease_ttl', data.getOk('max_lease_ttl'));
  if (defaultTtl !== undefined) config.defaultLeaseTtl = defaultTtl;
  if (maxTtl !== undefined) config.maxLeaseTtl = maxTtl;
  checkTtls(config.defaultLeaseTtl, config.maxLeaseTtl);
  const options = data.getOk<Record<string, string>>('options');
  return {
    ...entry,
    description: data.getOk<string>('description') ?? entry.description,
    config,
    options: options ? { ...(entry.options ?? {}), ...options } : entry.options,
  };
}

export const mountsPaths = [
  definePath({
    pattern: 'mounts',
    fields: {},
    synopsis: 'List the secrets engines.',
    description: 'Answers every secrets engine mount keyed by its path, e.g. "secret/", with its type, accessor, config and options.',
    operations: {
      read: {
        summary: 'List the secrets engine mounts.',
        handler: async (req) => {
          const { services } = req;
          return { data: Object.fromEntries(services.secretMounts.list().map((m) => [m.path, secretMountInfo(m, services.version)])) };
        },
      },
    },
  }),
  definePath({
    pattern: 'mounts/*path/tune',
    fields: MOUNT_TUNE_FIELDS,
    synopsis: "Read or change a secrets engine's settings.",
    description:
      'A read answers the engine\'s description, default and maximum lease TTLs in force (the system\'s where ' +
      'it has none) and options; a write changes those given. Options are merged into the engine\'s: a kv ' +
      'mount tuned to version "2" is upgraded, its data becoming version 1 of each key; it cannot go back.',
    operations: {
      read: {
        summary: "Read a secrets engine's settings.",
        handler: async (req, data) => {
          const path = normaliseSecretPath(data.get<string>('path'));
          const mount = req.services.secretMounts.get(path);
          if (!mount) throw new UserError(`cannot fetch mount entry on "${path}"`);
          return { data: tuneInfo(mount) };
        },
      },
      update: {
        summary: "Change a secrets engine's settings.",
        handler: async (req, data) => {
          const { warnings } = await req.services.secretMounts.tune(data.get<string>('path'), (entry) => tuned(entry, data));
          return warnings.length > 0 ? { warnings } : undefined;
        },
      },
    },
  }),
  definePath({
    pattern: 'mounts/*path',
    fields: MOUNT_ENABLE_FIELDS,
    synopsis: 'Enable, read or disable a secrets engine.',
    description:
      'A write enables an engine of the given type at <path>/; the path must be free, not nested inside or ' +
      'around another engine, and not one of sys/, identity/, auth/, cubbyhole/ or audit/. A delete disables ' +
      'the engine and removes all of its data in the same write. A read answers the engine as sys/mounts lists it.',
    operations: {
      read: {
        summary: 'Read one secrets engine mount.',
        handler: async (req, data) => {
          const path = normaliseSecretPath(data.get<string>('path'));
          const mount = req.services.secretMounts.get(path);
          // Vault's answer for a path with no engine, kept for clients that match on it.
          if (!mount) throw new UserError(`No secret engine mount at ${path}`);
          return { data: secretMountInfo(mount, req.services.version) };
        },
      },
      update: {
        summary: 'Enable a secrets engine.',
        handler: async (req, data) => {
          const type = data.get<string>('type');
          checkPluginVersion('plugin_version', data.getOk('plugin_version'), type, req.services.version);
          const { config, warnings } = enableConfig(data.get<Record<string, unknown>>('config'), type, req.services.version);
          await req.services.secretMounts.enable(data.get<string>('path'), type, {
            description: data.get<string>('description'),
            config,
            options: data.getOk<Record<string, string>>('options') ?? null,
            local: data.get<boolean>('local'),
            sealWrap: data.get<boolean>('seal_wrap'),
            externalEntropyAccess: data.get<boolean>('external_entropy_access'),
          });
          return warnings.length > 0 ? { warnings } : undefined;
        },
      },
      delete: {
        summary: 'Disable a secrets engine and remove its data.',
        handler: async (req, data) => {
          await req.services.secretMounts.disable(data.get<string>('path'));
        },
      },
    },
  }),
];
