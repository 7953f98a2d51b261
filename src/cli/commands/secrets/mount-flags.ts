/** The settings `svc secrets enable` and `svc secrets tune` share, those only an enable takes, and the request body they make. */
import type { FlagSpec, FlagValues } from '../../define.js';
import { UsageError } from '../../../shared/errors.js';

export const MOUNT_SETTING_FLAGS: FlagSpec[] = [
  { name: 'description', type: 'string', description: 'A human-friendly description of the secrets engine, shown by `svc secrets list`.' },
  { name: 'default-lease-ttl', type: 'duration', description: 'The default lease duration of the engine\'s secrets, such as "1h"; "system" or 0 for the system default.' },
  { name: 'max-lease-ttl', type: 'duration', description: 'The maximum lease duration of the engine\'s secrets, such as "24h"; "system" or 0 for the system default.' },
  { name: 'options', type: 'strings', description: 'An option of the engine as key=value, such as kv\'s version=2; may be repeated.' },
  { name: 'version', type: 'int', description: 'The version of the KV engine: the same as -options=version=N.' },
];

/** The TTLs given as `config` fields (enable) or top-level fields (tune), and the options merged with -version. */
export function mountSettings(flags: FlagValues): { ttls: Record<string, unknown>; options?: Record<string, string>; description?: string } {
  const ttls: Record<string, unknown> = {};
  if (flags['default-lease-ttl'] !== undefined) ttls.default_lease_ttl = flags['default-lease-ttl'];
  if (flags['max-lease-ttl'] !== undefined) ttls.max_lease_ttl = flags['max-lease-ttl'];
  const pairs = (flags.options as string[] | undefined) ?? [];
  const options: Record<string, string> = {};
  for (const kv of pairs) {
    const eq = kv.indexOf('=');
    if (eq < 1) throw new UsageError(`invalid -options "${kv}": give it as key=value`);
    options[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  if (flags.version !== undefined) options.version = String(flags.version);
  return { ttls, options: Object.keys(options).length > 0 ? options : undefined, description: flags.description as string | undefined };
}

/** A mount path as Vault's CLI sends it: no leading slash, one trailing slash. */
export function mountPath(arg: string): string {
  const path = arg.trim().replace(/^\/+|\/+$/g, '');
  if (path === '') throw new UsageError('the mount path must not be empty');
  return `${path}/`;
}

/** Vault's enable-only settings: the three mount flags, and those sent in `config` only when given. */
export const ENABLE_FLAGS: FlagSpec[] = [
  { name: 'local', type: 'bool', description: 'Mark the engine local-only, as Vault\'s are not replicated. A single svc cluster replicates to none, so it only shows as "local" in `svc secrets list -detailed`.' },
  { name: 'seal-wrap', type: 'bool', description: 'Mark the engine seal-wrapped, as Vault; kept and shown: svc encrypts every secret at rest anyway.' },
  { name: 'external-entropy-access', type: 'bool', description: 'Give the engine Vault\'s external entropy source; kept and shown: svc has no such source.' },
  { name: 'force-no-cache', type: 'bool', description: 'Turn off caching for the engine, as Vault; kept and shown.' },
  { name: 'plugin-version', type: 'string', description: 'The engine\'s version: engines are built in, so only the running one (`svc secrets list -detailed` shows it) is accepted.' },
  { name: 'audit-non-hmac-request-keys', type: 'strings', description: 'A request data key the audit log should not HMAC; repeat for more. Kept and shown: svc\'s audit log HMACs every value.' },
  { name: 'audit-non-hmac-response-keys', type: 'strings', description: 'A response data key the audit log should not HMAC; repeat for more. Kept and shown, as the request keys.' },
  { name: 'listing-visibility', type: 'string', description: 'Whether sys/internal/ui/mounts lists the engine to callers without a token: "unauth" does, "hidden" or "" do not.' },
  { name: 'passthrough-request-headers', type: 'strings', description: 'A request header to hand to the engine; repeat for more. Kept and shown: the KV engine reads none.' },
  { name: 'allowed-response-headers', type: 'strings', description: 'A response header the engine may set; repeat for more. Kept and shown: the KV engine sets none.' },
];

/** The keys of `config` from the flags given, as Vault's CLI sends only those set. */
const CONFIG_FLAGS = {
  'force-no-cache': 'force_no_cache',
  'plugin-version': 'plugin_version',
  'audit-non-hmac-request-keys': 'audit_non_hmac_request_keys',
  'audit-non-hmac-response-keys': 'audit_non_hmac_response_keys',
  'listing-visibility': 'listing_visibility',
  'passthrough-request-headers': 'passthrough_request_headers',
  'allowed-response-headers': 'allowed_response_headers',
} as const;

export function enableConfig(flags: FlagValues): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(CONFIG_FLAGS)) {
    const value = flags[flag];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    config[key] = value;
  }
  return config;
}

/** The top-level fields of an enable from its flags. */
export function enableFlags(flags: FlagValues): Record<string, boolean> {
  return { local: flags.local === true, seal_wrap: flags['seal-wrap'] === true, external_entropy_access: flags['external-entropy-access'] === true };
}
