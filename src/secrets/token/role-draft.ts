/**
 * A token role after a create or update, with the rules and messages of Vault's token store
 * (tokenStoreRoleCreateUpdate): a create starts from the defaults, an update changes only the fields sent,
 * and the result is checked as a whole before anything is stored.
 */
import type { FieldData } from '../../framework/schema/field-data.js';
import { UserError } from '../../shared/errors.js';
import { parseCidrList } from './cidr.js';
import { ROLE_NAME, type TokenRoleEntry, type TokenRoleType } from './role-store.js';
import { sanitizePolicies } from './token-store.js';

/** Vault checks a path suffix with this, unanchored, as its token store does; the message quotes Vault's spelling. */
const PATH_SUFFIX = /\w[\w.-]+\w/;
const PATH_SUFFIX_TEXT = '\\w[\\w-.]+\\w';

function newRole(name: string): TokenRoleEntry {
  return {
    name,
    allowed_policies: [],
    disallowed_policies: [],
    allowed_policies_glob: [],
    disallowed_policies_glob: [],
    orphan: false,
    renewable: true,
    path_suffix: '',
    allowed_entity_aliases: null,
    token_explicit_max_ttl: 0,
    token_period: 0,
    token_bound_cidrs: [],
    token_no_default_policy: false,
    token_num_uses: 0,
    token_type: 'default-service',
    explicit_max_ttl: 0,
    period: 0,
    bound_cidrs: [],
  };
}

/** Vault's strutil.RemoveDuplicates(list, lowercase): trimmed, lower-cased, empties dropped, sorted, unique. */
function lowerUnique(list: readonly string[]): string[] {
  return [...new Set(list.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))].sort();
}

export function checkRoleName(name: string): void {
  if (!ROLE_NAME.test(name)) {
    throw new UserError(`invalid role_name "${name}": use letters, digits, "_", "-" and ".", starting and ending with a letter, digit or "_"`);
  }
}

type Pair = { name: 'token_period'; legacy: 'period' } | { name: 'token_explicit_max_ttl'; legacy: 'explicit_max_ttl' };

/**
 * A token_* field wins over its deprecated name (with Vault's warning when both are sent) and clears it;
 * the deprecated name alone sets both.
 */
function upgradeDuration(data: FieldData, role: TokenRoleEntry, { name, legacy }: Pair, warnings: string[]): void {
  if (data.has(name)) {
    role[name] = data.get<number>(name);
    if (data.has(legacy)) warnings.push(`Both '${name}' and deprecated '${legacy}' value supplied, ignoring the deprecated value`);
    role[legacy] = 0;
  } else if (data.has(legacy)) {
    role[legacy] = data.get<number>(legacy);
    role[name] = role[legacy];
  }
}

function upgradeCidrs(data: FieldData, role: TokenRoleEntry, warnings: string[]): void {
  if (data.has('token_bound_cidrs')) {
    role.token_bound_cidrs = parseCidrList(data.get<string[]>('token_bound_cidrs'), 'token_bound_cidrs');
    if (data.has('bound_cidrs')) warnings.push("Both 'token_bound_cidrs' and deprecated 'bound_cidrs' value supplied, ignoring the deprecated value");
    role.bound_cidrs = [];
  } else if (data.has('bound_cidrs')) {
    role.bound_cidrs = parseCidrList(data.get<string[]>('bound_cidrs'), 'bound_cidrs');
    role.token_bound_cidrs = [...role.bound_cidrs];
  }
}

/** The checks on the whole role; each message names the field to change. */
function validate(role: TokenRoleEntry): void {
  if (role.path_suffix !== '' && !PATH_SUFFIX.test(role.path_suffix)) {
    throw new UserError(`field "path_suffix": given role path suffix contains invalid characters; must match ${PATH_SUFFIX_TEXT}`);
  }
  if (role.path_suffix.includes('..')) throw new UserError('field "path_suffix": error registering path suffix: path cannot contain parent references');
  if (role.token_period < 0) throw new UserError("'token_period' cannot be negative");
  if (role.token_explicit_max_ttl < 0) throw new UserError("'token_explicit_max_ttl' cannot be negative");
  if (role.token_num_uses < 0) throw new UserError("'token_num_uses' cannot be negative");
  if (role.token_type === 'batch') {
    if (!role.orphan) throw new UserError("'token_type' cannot be 'batch' when role is set to generate non-orphan tokens");
    if (role.token_period !== 0) throw new UserError("'token_type' cannot be 'batch' when role is set to generate periodic tokens");
    if (role.renewable) throw new UserError("'token_type' cannot be 'batch' when role is set to generate renewable tokens");
    if (role.token_explicit_max_ttl !== 0) throw new UserError("'token_type' cannot be 'batch' when role is set to generate tokens with an explicit max TTL");
  }
  if ((role.token_type === 'batch' || role.token_type === 'default-batch') && role.token_num_uses !== 0) {
    throw new UserError("'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count");
  }
}

/**
 * The role this write makes of `current` (a create when undefined), and its warnings. `maxLeaseTtl` is the
 * token mount's (or the system's) maximum, which an explicit max TTL above earns a warning, as Vault gives.
 */
export function draftTokenRole(name: string, current: TokenRoleEntry | undefined, data: FieldData, maxLeaseTtl: number): { role: TokenRoleEntry; warnings: string[] } {
  checkRoleName(name);
  const role = current ? structuredClone(current) : newRole(name);
  const warnings: string[] = [];
  if (data.has('orphan')) role.orphan = data.get<boolean>('orphan');
  if (data.has('renewable')) role.renewable = data.get<boolean>('renewable');
  if (data.has('path_suffix')) role.path_suffix = data.get<string>('path_suffix');
  if (data.has('allowed_policies')) role.allowed_policies = sanitizePolicies(data.get<string[]>('allowed_policies'), false);
  if (data.has('disallowed_policies')) role.disallowed_policies = lowerUnique(data.get<string[]>('disallowed_policies'));
  if (data.has('allowed_policies_glob')) role.allowed_policies_glob = sanitizePolicies(data.get<string[]>('allowed_policies_glob'), false);
  if (data.has('disallowed_policies_glob')) role.disallowed_policies_glob = lowerUnique(data.get<string[]>('disallowed_policies_glob'));
  if (data.has('allowed_entity_aliases')) role.allowed_entity_aliases = lowerUnique(data.get<string[]>('allowed_entity_aliases'));
  if (data.has('token_no_default_policy')) role.token_no_default_policy = data.get<boolean>('token_no_default_policy');
  if (data.has('token_num_uses')) role.token_num_uses = data.get<number>('token_num_uses');
  if (data.has('token_type')) role.token_type = data.get<TokenRoleType>('token_type');
  upgradeDuration(data, role, { name: 'token_period', legacy: 'period' }, warnings);
  upgradeDuration(data, role, { name: 'token_explicit_max_ttl', legacy: 'explicit_max_ttl' }, warnings);
  upgradeCidrs(data, role, warnings);
  validate(role);
  if (role.token_explicit_max_ttl > maxLeaseTtl) {
    warnings.push(
      `Given explicit max TTL of ${role.token_explicit_max_ttl} is greater than system/mount allowed value of ${maxLeaseTtl} seconds; ` +
        'until this is fixed attempting to create tokens against this role will result in an error',
    );
  }
  return { role, warnings };
}
