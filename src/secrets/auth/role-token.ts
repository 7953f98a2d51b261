/**
 * The token settings of an auth method's role (Vault's tokenutil): reading them from a write request with
 * tokenutil's rules and messages, checking them against the mount's TTLs, and showing them on read. Any
 * auth method's role endpoint uses it with the fields of token-fields.ts.
 */
import type { FieldData } from '../../framework/schema/field-data.js';
import type { SecretsContext } from '../context.js';
import { UserError } from '../../shared/errors.js';
import { formatDuration } from '../../shared/duration.js';
import { parseCidrList } from '../token/cidr.js';
import { sanitizePolicies, SYSTEM_DEFAULT_TTL, SYSTEM_MAX_TTL } from '../token/token-store.js';

export interface RoleTokenSettings {
  /** seconds; 0 = the mount default */
  token_ttl: number;
  token_max_ttl: number;
  token_explicit_max_ttl: number;
  token_period: number;
  token_policies: string[];
  token_bound_cidrs: string[];
  token_no_default_policy: boolean;
  token_num_uses: number;
  /** 'default' | 'service' | 'batch' */
  token_type: string;
}

/**
 * The deprecated names, kept as sent so a read shows them back (only while non-zero) the way Vault does.
 * The token_* values are the ones in force.
 */
export interface LegacyTokenSettings {
  ttl: number;
  max_ttl: number;
  period: number;
  policies: string[];
}

export const DEFAULT_TOKEN_SETTINGS: Readonly<RoleTokenSettings> = {
  token_ttl: 0,
  token_max_ttl: 0,
  token_explicit_max_ttl: 0,
  token_period: 0,
  token_policies: [],
  token_bound_cidrs: [],
  token_no_default_policy: false,
  token_num_uses: 0,
  token_type: 'default',
};

export type StoredTokenSettings = RoleTokenSettings & Partial<LegacyTokenSettings>;

type DurationPair = ['token_ttl', 'ttl'] | ['token_max_ttl', 'max_ttl'] | ['token_period', 'period'];

/**
 * The settings after a write: the current ones with only the sent fields changed. When a token_* field
 * and its deprecated name are both sent, the token_* value wins (and the deprecated one records it);
 * sending only the token_* field clears the deprecated one. Throws a 400 naming the field.
 */
export function parseTokenFields(data: FieldData, current: StoredTokenSettings = DEFAULT_TOKEN_SETTINGS): RoleTokenSettings & LegacyTokenSettings {
  const next: RoleTokenSettings & LegacyTokenSettings = {
    token_ttl: current.token_ttl,
    token_max_ttl: current.token_max_ttl,
    token_explicit_max_ttl: current.token_explicit_max_ttl,
    token_period: current.token_period,
    token_policies: [...current.token_policies],
    token_bound_cidrs: [...current.token_bound_cidrs],
    token_no_default_policy: current.token_no_default_policy,
    token_num_uses: current.token_num_uses,
    token_type: current.token_type || 'default',
    ttl: current.ttl ?? 0,
    max_ttl: current.max_ttl ?? 0,
    period: current.period ?? 0,
    policies: [...(current.policies ?? [])],
  };

  if (data.has('token_bound_cidrs')) next.token_bound_cidrs = parseCidrList(data.get<string[]>('token_bound_cidrs'), 'token_bound_cidrs');
  if (data.has('token_explicit_max_ttl')) next.token_explicit_max_ttl = data.get<number>('token_explicit_max_ttl');
  if (data.has('token_no_default_policy')) next.token_no_default_policy = data.get<boolean>('token_no_default_policy');
  if (data.has('token_type')) next.token_type = data.get<string>('token_type') || 'default';
  if (data.has('token_num_uses')) next.token_num_uses = data.get<number>('token_num_uses');
  for (const pair of [['token_ttl', 'ttl'], ['token_max_ttl', 'max_ttl'], ['token_period', 'period']] as DurationPair[]) upgradeDuration(data, next, pair);
  upgradePolicies(data, next);

  // Checked on the merged values, so a deprecated name cannot slip past a rule its token_* name obeys;
  // each message names the field the caller used.
  const ttlName = usedName(data, 'token_ttl', 'ttl');
  const maxName = usedName(data, 'token_max_ttl', 'max_ttl');
  const periodName = usedName(data, 'token_period', 'period');
  if (next.token_explicit_max_ttl < 0) throw new UserError(`'token_explicit_max_ttl' cannot be negative`);
  if (next.token_max_ttl < 0) throw new UserError(`'${maxName}' cannot be negative`);
  if (next.token_period < 0) throw new UserError(`'${periodName}' cannot be negative`);
  if (next.token_num_uses < 0) throw new UserError(`'token_num_uses' cannot be negative`);
  if (next.token_type === 'batch') {
    if (next.token_period !== 0) throw new UserError(`'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens`);
    if (next.token_num_uses !== 0) throw new UserError(`'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count`);
  }
  if (next.token_ttl < 0) throw new UserError(`'${ttlName}' cannot be negative`);
  if (next.token_ttl > 0 && next.token_max_ttl > 0 && next.token_ttl > next.token_max_ttl) {
    throw new UserError(`'${ttlName}' cannot be greater than '${maxName}'`);
  }
  return next;
}

function usedName(data: FieldData, name: string, legacy: string): string {
  return !data.has(name) && data.has(legacy) ? legacy : name;
}

/** tokenutil.UpgradeValue for a duration. */
function upgradeDuration(data: FieldData, next: RoleTokenSettings & LegacyTokenSettings, [name, legacy]: DurationPair): void {
  if (data.has(name)) {
    next[name] = data.get<number>(name);
    next[legacy] = data.has(legacy) ? next[name] : 0;
  } else if (data.has(legacy)) {
    next[legacy] = data.get<number>(legacy);
    next[name] = next[legacy];
  }
}

/** tokenutil.UpgradeValue for policies: the deprecated list is sanitised (Vault's policyutil.ParsePolicies). */
function upgradePolicies(data: FieldData, next: RoleTokenSettings & LegacyTokenSettings): void {
  if (data.has('token_policies')) {
    next.token_policies = data.get<string[]>('token_policies').filter((p) => p !== '');
    next.policies = data.has('policies') ? [...next.token_policies] : [];
  } else if (data.has('policies')) {
    next.policies = sanitizePolicies(data.get<string[]>('policies'), false);
    next.token_policies = [...next.policies];
  }
}

/** The mount's lease TTLs in seconds, the system's where the mount has none of its own. */
export interface MountTtls {
  defaultTtl: number;
  maxTtl: number;
}

export function mountTtls(services: SecretsContext, accessor: string): MountTtls {
  const config = services.mounts.byAccessor(accessor)?.config;
  const maxTtl = config?.maxLeaseTtl || SYSTEM_MAX_TTL;
  // Without a default of its own, the system's, capped at the mount's maximum (Vault's DefaultLeaseTTL).
  return { defaultTtl: Math.min(config?.defaultLeaseTtl || SYSTEM_DEFAULT_TTL, maxTtl), maxTtl };
}

/** A login token's max TTL: the role's, never above the mount's maximum (0 on the role: the mount's), as Vault caps every lease. */
export function loginMaxTtl(roleMaxTtl: number, mount: MountTtls): number {
  return roleMaxTtl > 0 ? Math.min(roleMaxTtl, mount.maxTtl) : mount.maxTtl;
}

/**
 * TTLs above the mount's are capped at login, so a ttl or max ttl above them is only a warning; a period
 * above the mount's maximum would be capped on every renewal, so it is refused. Returns the warnings.
 */
export function checkAgainstMount(t: RoleTokenSettings, mount: MountTtls): string[] {
  const warnings: string[] = [];
  if (t.token_ttl > mount.defaultTtl) {
    warnings.push(`Given ttl of ${t.token_ttl} seconds greater than current mount/system default of ${mount.defaultTtl} seconds; ttl will be capped at login time`);
  }
  if (t.token_max_ttl > mount.maxTtl) {
    warnings.push(`Given max ttl of ${t.token_max_ttl} seconds greater than current mount/system default of ${mount.maxTtl} seconds; max ttl will be capped at login time`);
  }
  if (t.token_period > mount.maxTtl) {
    throw new UserError(`period of '${formatDuration(t.token_period)}' is greater than the backend's maximum lease TTL of '${formatDuration(mount.maxTtl)}'`);
  }
  return warnings;
}

/** The token fields of a role read (durations in whole seconds; lists never null); deprecated names only while set. */
export function tokenFieldsResponse(t: StoredTokenSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {
    token_bound_cidrs: [...t.token_bound_cidrs],
    token_explicit_max_ttl: t.token_explicit_max_ttl,
    token_max_ttl: t.token_max_ttl,
    token_no_default_policy: t.token_no_default_policy,
    token_num_uses: t.token_num_uses,
    token_period: t.token_period,
    token_policies: [...t.token_policies],
    token_type: t.token_type || 'default',
    token_ttl: t.token_ttl,
  };
  if (t.ttl) out.ttl = t.ttl;
  if (t.max_ttl) out.max_ttl = t.max_ttl;
  if (t.period) out.period = t.period;
  if (t.policies && t.policies.length > 0) out.policies = [...t.token_policies];
  return out;
}
