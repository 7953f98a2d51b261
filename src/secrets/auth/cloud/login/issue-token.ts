/**
 * The end of every successful cloud login: the entity alias is found or made (named per
 * config/identity), and a token is issued with the role's token settings, the login's policies and
 * metadata, and what renewal needs to re-check the login. The login's own record (the ec2 access list),
 * the alias and the token are written in one transaction: a refused login writes nothing, and a login
 * waits for one flush to disk, not three.
 */
import { PermissionDenied } from '../../../../shared/errors.js';
import type { SecretsRequest, SecretsResponse } from '../../../framework/request.js';
import type { WriteTx } from '../../../../storage/store.js';
import { loginAliasInTx } from '../../../identity/identity-store.js';
import { mountTtls } from '../../role-token.js';
import type { RoleEntry } from '../role-entry.js';

export interface LoginOutcome {
  role: RoleEntry;
  policies: string[];
  /** seconds; never above the mount's maximum (see loginMaxTtl) */
  maxTtl: number;
  /** the token's metadata, shown in the login answer */
  metadata: Record<string, string>;
  aliasName: string;
  aliasMetadata: Record<string, string>;
  /** after the mount's prefix, e.g. the principal's name; '' for none */
  displayName: string;
  /** kept on the token, never shown: renewal trusts it over the metadata a caller could read */
  internal: Record<string, unknown>;
  /**
   * The login's own writes and last checks, run first inside the login's transaction; what it answers
   * completes the outcome (an ec2 login's nonce, role-tag policies and max TTL are known only there).
   */
  stage?: (tx: WriteTx) => OutcomeCompletion;
}

export interface OutcomeCompletion {
  policies?: string[];
  maxTtl?: number;
  metadata?: Record<string, string>;
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
  const role = outcome.role;
  const ttl = role.token_ttl || mountTtls(services, mountAccessor).defaultTtl;
  const type = tokenTypeFor(role.token_type, services.mounts.byAccessor(mountAccessor)?.config.tokenType ?? 'default-service');
  const { result } = await services.store.write((tx) => {
    const done = outcome.stage?.(tx) ?? {};
    const { entityId } = loginAliasInTx(tx, { mountAccessor, name: outcome.aliasName, metadata: outcome.aliasMetadata });
    if (services.identity.entityDisabledInTx(tx, entityId)) {
      throw new PermissionDenied(`permission denied: entity ${entityId} (alias "${outcome.aliasName}") is disabled`);
    }
    const draft = services.tokens.draft({
      policies: done.policies ?? outcome.policies,
      ttl,
      maxTtl: done.maxTtl ?? outcome.maxTtl,
      explicitMaxTtl: role.token_explicit_max_ttl,
      period: role.token_period,
      numUses: role.token_num_uses,
      boundCidrs: role.token_bound_cidrs,
      noDefaultPolicy: role.token_no_default_policy,
      type,
      meta: { ...outcome.metadata, ...done.metadata },
      displayName: displayName(req.mountPath, outcome.displayName),
      entityId,
      orphan: true,
      path: `${req.mountPath}login`,
      mountAccessor,
      authInternal: outcome.internal,
    });
    services.tokens.putInTx(tx, draft);
    return draft;
  });
  services.tokens.created(result);
  const { secret, entry, warnings } = result;
  return {
    data: null,
    auth: services.tokens.authBlock(secret, entry, services.identity.entityPolicies(entry.entityId)),
    warnings: warnings.length > 0 ? warnings : undefined,
  };
}
