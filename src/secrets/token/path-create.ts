/**
 * auth/token/create, create-orphan and create/:role_name: new tokens under Vault's rules for who may ask
 * for what. A role (auth/token/roles) replaces some of those rules with its own: its allowed and
 * disallowed policies, whether its tokens are orphans, their type, CIDRs, period and limits.
 */
import { definePath, type Handler, type PathDef } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { loginAliasInTx } from '../identity/identity-store.js';
import { PathCap } from '../policy/capabilities.js';
import { TOKEN_CREATE_FIELDS } from './fields.js';
import { TOKEN_CREATE_ROLE_FIELDS } from './role-fields.js';
import { anyGlobMatches } from './glob.js';
import { rolePolicies, roleBoundsPolicies } from './role-policies.js';
import { readTokenRole, type TokenRoleEntry } from './role-store.js';
import type { TokenEntry } from './token-entry.js';
import type { DraftToken } from './token-service.js';
import { sanitizePolicies } from './token-store.js';

const DISPLAY_NAME_UNSAFE = /[^a-zA-Z0-9-]/g;

function displayName(given: string): string {
  if (given === '') return 'token';
  const full = `token-${given}`.replace(DISPLAY_NAME_UNSAFE, '-');
  return full.endsWith('-') ? full.slice(0, -1) : full;
}

function isSubset(parent: string[], child: string[]): boolean {
  const have = new Set(parent);
  return child.every((p) => have.has(p));
}

type CreateKind = 'create' | 'orphan' | 'role';

/** The type asked for, within what the role allows: a default-* role type gives way to the request's. */
function tokenType(data: FieldData, role: TokenRoleEntry | undefined): 'service' | 'batch' {
  const asked = data.has('type') ? data.get<'service' | 'batch'>('type') : undefined;
  switch (role?.token_type) {
    case 'service':
    case 'batch':
      return role.token_type;
    case 'default-batch':
      return asked ?? 'batch';
    default:
      return asked ?? 'service';
  }
}

/** The lesser of the request's and the role's value, as Vault takes it, with its warning when both are set. */
function lesser(asked: number, fromRole: number, warnings: string[], what: string): number {
  if (fromRole === 0) return asked;
  if (asked === 0) return fromRole;
  const value = Math.min(asked, fromRole);
  warnings.push(`${what} specified both during creation call and in role; using the lesser value of ${value} seconds`);
  return value;
}

/** The request's use limit within the role's: 0 means unlimited, so any limit is less. */
function roleNumUses(asked: number, role: TokenRoleEntry | undefined): number {
  if (!role || role.token_num_uses === 0) return asked;
  return asked === 0 ? role.token_num_uses : Math.min(asked, role.token_num_uses);
}

/** The entity alias a role lets the create name, checked in lower case against its allowed names or globs. */
function entityAliasOf(data: FieldData, role: TokenRoleEntry | undefined): string {
  const alias = data.get<string>('entity_alias');
  if (alias === '') return '';
  if (!role) throw new UserError("'entity_alias' is only allowed in combination with token role");
  const lower = alias.toLowerCase();
  const allowed = role.allowed_entity_aliases ?? [];
  if (!allowed.includes(lower) && !anyGlobMatches(allowed, lower)) throw new UserError("invalid 'entity_alias' value");
  if (data.get<string>('entity_id') !== '') throw new UserError("'entity_id' and 'entity_alias' cannot both be set");
  return alias;
}

/** Policies by the create's usual rules: the parent's when none are asked for, else a subset of them unless sudo. */
function usualPolicies(requested: string[], parent: TokenEntry, sudo: boolean, noDefault: boolean): string[] {
  if (requested.length === 0) return sanitizePolicies(parent.policies, false);
  if (sudo) return sanitizePolicies(requested, !noDefault);
  const wanted = sanitizePolicies(requested, false);
  if (!isSubset(sanitizePolicies(parent.policies, false), wanted)) throw new UserError('child policies must be subset of parent');
  return sanitizePolicies(wanted, !noDefault && parent.policies.includes('default'));
}

function loadRole(req: SecretsRequest, data: FieldData): TokenRoleEntry {
  const name = data.get<string>('role_name');
  const role = readTokenRole(req.services.store, name);
  if (!role) throw new UserError(`unknown role ${name}`);
  return role;
}

/**
 * Stores the token; with an entity alias, the alias (and its entity, when new) in the same transaction, so
 * that a refused token leaves no entity behind.
 */
async function store(req: SecretsRequest, draft: DraftToken, entityAlias: string): Promise<void> {
  const { services } = req;
  await services.store.write((tx) => {
    if (entityAlias !== '') {
      const { entityId } = loginAliasInTx(tx, { mountAccessor: req.mountAccessor, name: entityAlias });
      if (services.identity.entityDisabledInTx(tx, entityId)) throw new PermissionDenied('entity from given entity alias is disabled');
      draft.entry.entityId = entityId;
    }
    services.tokens.putInTx(tx, draft);
  });
  services.tokens.created(draft);
}

function createHandler(kind: CreateKind): Handler {
  return async (req, data) => {
    const role = kind === 'role' ? loadRole(req, data) : undefined;
    const tokens = req.services.tokens;
    const caller = req.caller;
    if (!caller) throw new PermissionDenied();
    // Re-read: the pipeline has already counted this request's use, so the caller may be gone or down a use.
    const parent = tokens.getById(caller.token.id);
    if (!parent) throw new UserError('parent token lookup failed: no parent found');
    if (parent.type === 'batch') throw new UserError('batch tokens cannot create more tokens');
    // A limited-use token could otherwise escape its limit through children.
    if (parent.numUses > 0) throw new UserError('restricted use token cannot generate child tokens');

    const sudo = caller.acl.allows(req.fullPath, PathCap.Sudo);
    const type = tokenType(data, role);
    const entityAlias = entityAliasOf(data, role);
    const noParent = data.get<boolean>('no_parent');
    // A role decides orphanhood itself, and no_parent is then not looked at, as in Vault.
    if (!role && noParent && !sudo) throw new UserError('root or sudo privileges required to create orphan token');
    const orphan = role ? role.orphan : kind === 'orphan' || noParent;

    const secret = data.get<string>('id');
    if (secret !== '' && !sudo) throw new UserError('root or sudo privileges required to specify token id');
    const askedPeriod = data.get<number>('period');
    if (askedPeriod > 0 && !sudo) throw new UserError('root or sudo privileges required to create periodic token');

    const entityIdGiven = data.get<string>('entity_id');
    if (entityIdGiven !== '') {
      // Identity policies follow the entity, so attaching one is a privilege grant.
      if (!sudo) throw new UserError('root or sudo privileges required to set entity_id');
      if (!req.services.identity.entityExists(entityIdGiven)) throw new UserError(`entity "${entityIdGiven}" does not exist`);
    }

    const noDefault = data.get<boolean>('no_default_policy');
    const requested = data.get<string[]>('policies');
    let policies = role && roleBoundsPolicies(role) ? rolePolicies(role, requested, noDefault, parent.policies) : usualPolicies(requested, parent, sudo, noDefault);
    if (noDefault) policies = policies.filter((p) => p !== 'default');
    if (policies.includes('root') && !parent.policies.includes('root')) {
      throw new UserError('root tokens may not be created without parent token being root');
    }

    let boundCidrs = data.get<string[]>('bound_cidrs');
    if (role) {
      // A role's CIDRs replace the parent's, as in Vault: a role is how an operator grants an exception.
      if (role.token_bound_cidrs.length > 0) boundCidrs = role.token_bound_cidrs;
    } else if ((!orphan || !sudo) && parent.boundCidrs.length > 0) {
      // A token made by a bound token stays bound where its maker is, so it cannot be used to escape the
      // binding; only root or sudo (who may mint unbound tokens anyway) make orphans free of it.
      if (boundCidrs.length > 0) throw new UserError('bound_cidrs cannot be set on a child of a token with bound CIDRs: the child inherits them');
      boundCidrs = parent.boundCidrs;
    }

    const warnings: string[] = [];
    let explicitMaxTtl = data.get<number>('explicit_max_ttl');
    let period = askedPeriod;
    // Batch tokens have neither; the role's do not apply to them, as in Vault.
    if (role && type !== 'batch') {
      explicitMaxTtl = lesser(explicitMaxTtl, role.token_explicit_max_ttl, warnings, 'Explicit max TTL');
      period = lesser(period, role.token_period, warnings, 'Period');
    }

    // The mount's tuned TTLs (sys/auth/token/tune) stand in for the system's, as Vault's token store does;
    // a root token asked for without a TTL still never expires.
    const mount = req.services.mounts.byAccessor(req.mountAccessor)?.config;
    const requestedTtl = data.get<number>('ttl');
    const draft = tokens.draft({
      secret: secret === '' ? undefined : secret,
      policies,
      noDefaultPolicy: !policies.includes('default'),
      ttl: requestedTtl || (policies.includes('root') ? 0 : (mount?.defaultLeaseTtl ?? 0)),
      maxTtl: mount?.maxLeaseTtl ?? 0,
      explicitMaxTtl,
      period,
      numUses: roleNumUses(data.get<number>('num_uses'), role),
      boundCidrs,
      type,
      meta: data.get<Record<string, string>>('meta'),
      displayName: displayName(data.get<string>('display_name')),
      entityId: entityIdGiven !== '' ? entityIdGiven : orphan ? '' : parent.entityId,
      parent,
      orphan,
      renewable: data.get<boolean>('renewable') && (role?.renewable ?? true),
      path: `${req.mountPath}${req.path}${role?.path_suffix ? `/${role.path_suffix}` : ''}`,
      mountAccessor: req.mountAccessor,
      role: role?.name,
    });
    await store(req, draft, entityAlias);

    const { entry } = draft;
    warnings.push(...draft.warnings);
    for (const p of entry.policies) if (!req.services.policies.get(p)) warnings.push(`Policy "${p}" does not exist`);
    const identityPolicies = entry.entityId ? req.services.identity.entityPolicies(entry.entityId) : [];
    return { data: null, auth: tokens.authBlock(draft.secret, entry, identityPolicies), warnings };
  };
}

export const createPaths: PathDef[] = [
  definePath({
    pattern: 'create-orphan',
    fields: TOKEN_CREATE_FIELDS,
    synopsis: 'Create an orphan token: it has no parent and is not revoked with its creator.',
    description:
      'Creates a token that has no parent, like create with no_parent, but without needing sudo: access to ' +
      'this path is granted by policy instead.',
    operations: { update: { summary: 'Create an orphan token.', handler: createHandler('orphan') } },
  }),
  definePath({
    pattern: 'create/:role_name',
    fields: TOKEN_CREATE_ROLE_FIELDS,
    synopsis: 'Create a token under the rules of a token role.',
    description:
      "Creates a token as create does, with the role's rules in place of some of create's: a role with allowed " +
      "or disallowed policies bounds the policies itself (not by the caller's); the role decides whether the token " +
      'is an orphan (no sudo needed), its type, its CIDRs, and caps its period, explicit max TTL and uses. The ' +
      "token's path is auth/token/create/<role>, with the role's path_suffix. With entity_alias (which the role's " +
      "allowed_entity_aliases must match) the token belongs to that alias's entity, made when missing.",
    operations: { update: { summary: 'Create a token against a role.', handler: createHandler('role') } },
  }),
  definePath({
    pattern: 'create',
    fields: TOKEN_CREATE_FIELDS,
    synopsis: 'Create a token that is a child of the calling token.',
    description:
      'Creates a token. Without root or sudo on this path its policies must be a subset of the calling ' +
      "token's; without policies it gets the caller's. Revoking the caller revokes the new token, unless it " +
      'is an orphan (no_parent, which needs root or sudo).',
    operations: { update: { summary: 'Create a token.', handler: createHandler('create') } },
  }),
];
