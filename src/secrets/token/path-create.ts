/** auth/token/create and auth/token/create-orphan: new tokens under Vault's rules for who may ask for what. */
import { definePath, type Handler, type PathDef } from '../framework/path.js';
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { PathCap } from '../policy/capabilities.js';
import { TOKEN_CREATE_FIELDS } from './fields.js';
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

function createHandler(orphanPath: boolean): Handler {
  return async (req, data) => {
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
    const noParent = data.get<boolean>('no_parent');
    if (noParent && !sudo) throw new UserError('root or sudo privileges required to create orphan token');
    const orphan = orphanPath || noParent;

    const secret = data.get<string>('id');
    if (secret !== '' && !sudo) throw new UserError('root or sudo privileges required to specify token id');
    const period = data.get<number>('period');
    if (period > 0 && !sudo) throw new UserError('root or sudo privileges required to create periodic token');

    const entityIdGiven = data.get<string>('entity_id');
    if (entityIdGiven !== '') {
      // Identity policies follow the entity, so attaching one is a privilege grant.
      if (!sudo) throw new UserError('root or sudo privileges required to set entity_id');
      if (!req.services.identity.entityExists(entityIdGiven)) throw new UserError(`entity "${entityIdGiven}" does not exist`);
    }

    const noDefault = data.get<boolean>('no_default_policy');
    const requested = data.get<string[]>('policies');
    const parentHasDefault = parent.policies.includes('default');
    let policies: string[];
    if (requested.length === 0) {
      // Inherit the parent's set; `default` only if the parent has it.
      policies = sanitizePolicies(parent.policies, false);
    } else if (!sudo) {
      const wanted = sanitizePolicies(requested, false);
      if (!isSubset(sanitizePolicies(parent.policies, false), wanted)) throw new UserError('child policies must be subset of parent');
      policies = sanitizePolicies(wanted, !noDefault && parentHasDefault);
    } else {
      policies = sanitizePolicies(requested, !noDefault);
    }
    if (noDefault) policies = policies.filter((p) => p !== 'default');
    if (policies.includes('root') && !parent.policies.includes('root')) {
      throw new UserError('root tokens may not be created without parent token being root');
    }

    let boundCidrs = data.get<string[]>('bound_cidrs');
    if ((!orphan || !sudo) && parent.boundCidrs.length > 0) {
      // A token made by a bound token stays bound where its maker is, so it cannot be used to escape the
      // binding; only root or sudo (who may mint unbound tokens anyway) make orphans free of it.
      if (boundCidrs.length > 0) throw new UserError('bound_cidrs cannot be set on a child of a token with bound CIDRs: the child inherits them');
      boundCidrs = parent.boundCidrs;
    }

    // The mount's tuned TTLs (sys/auth/token/tune) stand in for the system's, as Vault's token store does;
    // a root token asked for without a TTL still never expires.
    const mount = req.services.mounts.byAccessor(req.mountAccessor)?.config;
    const requestedTtl = data.get<number>('ttl');
    const { secret: clientToken, entry, warnings } = await tokens.create({
      secret: secret === '' ? undefined : secret,
      policies,
      noDefaultPolicy: !policies.includes('default'),
      ttl: requestedTtl || (policies.includes('root') ? 0 : (mount?.defaultLeaseTtl ?? 0)),
      maxTtl: mount?.maxLeaseTtl ?? 0,
      explicitMaxTtl: data.get<number>('explicit_max_ttl'),
      period,
      numUses: data.get<number>('num_uses'),
      boundCidrs,
      type: data.get<'service' | 'batch'>('type'),
      meta: data.get<Record<string, string>>('meta'),
      displayName: displayName(data.get<string>('display_name')),
      entityId: entityIdGiven !== '' ? entityIdGiven : orphan ? '' : parent.entityId,
      parent,
      orphan,
      renewable: data.get<boolean>('renewable'),
      path: `${req.mountPath}${req.path}`,
      mountAccessor: req.mountAccessor,
    });

    for (const p of entry.policies) if (!req.services.policies.get(p)) warnings.push(`Policy "${p}" does not exist`);
    const identityPolicies = entry.entityId ? req.services.identity.entityPolicies(entry.entityId) : [];
    return { data: null, auth: tokens.authBlock(clientToken, entry, identityPolicies), warnings };
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
    operations: { update: { summary: 'Create an orphan token.', handler: createHandler(true) } },
  }),
  definePath({
    pattern: 'create',
    fields: TOKEN_CREATE_FIELDS,
    synopsis: 'Create a token that is a child of the calling token.',
    description:
      'Creates a token. Without root or sudo on this path its policies must be a subset of the calling ' +
      "token's; without policies it gets the caller's. Revoking the caller revokes the new token, unless it " +
      'is an orphan (no_parent, which needs root or sudo).',
    operations: { update: { summary: 'Create a token.', handler: createHandler(false) } },
  }),
];
