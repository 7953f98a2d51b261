/**
 * The end of every successful cloud login: the entity alias is found or made (named per
 * config/identity), and a token is issued with the role's token settings, the login's policies and
 * metadata, and what renewal needs to re-check the login.
 */
import { PermissionDenied } from '../../../../shared/errors.js';
import type { SecretsRequest, SecretsResponse } from '../../../../server/http/types.js';
import { mountTtls } from '../../role-token.js';
import type { RoleEntry } from '../role-entry.js';

export interface LoginOutcome {
  role: RoleEntry;
  policies: string[];
  /** seconds; 0 = the mount's */
  maxTtl: number;
  /** the token's metadata, shown in the login answer */
  metadata: Record<string, string>;
  aliasName: string;
  aliasMetadata: Record<string, string>;
  /** after the mount's prefix, e.g. the principal's name; '' for none */
  displayName: string;
  /** kept on the token, never shown: renewal trusts it over the metadata a caller could read */
  internal: Record<string, unknown>;
}

/**
 * A role's `default` token type means the mount's default; a mount tuned to `service` or `batch` only
 * (not `default-…`) forces its type whatever the role says, as in Vault.
 */
export function tokenTypeFor(roleType: string, mountType: string): 'service' | 'batch' {
  if (mountType === 'service' || mountType === 'batch') return mountType;
  if (roleType === 'service' || roleType === 'batch') return roleType;
  return mountType === 'default-batch' ? 'batch' : 'service';
}

/** `auth/cloud/` → `cloud-`, then the name; a mount's display name alone when there is none. */
function displayName(mountPath: string, name: string): string {
  const prefix = mountPath.replace(/^auth\//, '').replace(/\//g, '-');
  return `${prefix}${name}`.replace(/-+$/, '');
}

export async function issueLoginToken(req: SecretsRequest, outcome: LoginOutcome): Promise<SecretsResponse> {
  const { services, mountAccessor } = req;
  const { entityId } = await services.identity.upsertLoginAlias({ mountAccessor, name: outcome.aliasName, metadata: outcome.aliasMetadata });
  if (services.identity.entityDisabled(entityId)) {
    throw new PermissionDenied(`permission denied: entity ${entityId} (alias "${outcome.aliasName}") is disabled`);
  }
  const role = outcome.role;
  const mount = services.mounts.byAccessor(mountAccessor);
  const { secret, entry, warnings } = await services.tokens.create({
    policies: outcome.policies,
    ttl: role.token_ttl || mountTtls(services, mountAccessor).defaultTtl,
    maxTtl: outcome.maxTtl,
    explicitMaxTtl: role.token_explicit_max_ttl,
    period: role.token_period,
    numUses: role.token_num_uses,
    boundCidrs: role.token_bound_cidrs,
    noDefaultPolicy: role.token_no_default_policy,
    type: tokenTypeFor(role.token_type, mount?.config.tokenType ?? 'default-service'),
    meta: outcome.metadata,
    displayName: displayName(req.mountPath, outcome.displayName),
    entityId,
    orphan: true,
    path: `${req.mountPath}login`,
    mountAccessor,
    authInternal: outcome.internal,
  });
  return {
    data: null,
    auth: services.tokens.authBlock(secret, entry, services.identity.entityPolicies(entityId)),
    warnings: warnings.length > 0 ? warnings : undefined,
  };
}
