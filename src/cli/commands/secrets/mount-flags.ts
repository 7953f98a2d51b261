/** The settings `svc secrets enable` and `svc secrets tune` share, and the request body they make. */
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
