/**
 * A request made with a token, as both pipelines establish it: the live token and the ACL its policies
 * and its entity's make.
 */
import type { SecretsContext } from '../context.js';
import type { Acl } from '../policy/acl.js';
import type { TokenEntry } from './token-entry.js';

export interface TokenCaller {
  kind: 'token';
  token: TokenEntry;
  acl: Acl;
}

/**
 * Checks beyond the token itself: its entity must not be disabled, and the auth mount that issued it
 * must still exist — so a login that raced a mount's disable cannot leave a working token behind.
 */
export function tokenUsable(token: TokenEntry, services: Pick<SecretsContext, 'identity' | 'mounts'>): boolean {
  if (token.entityId && services.identity.entityDisabled(token.entityId)) return false;
  return token.mountAccessor === '' || services.mounts.byAccessor(token.mountAccessor) !== undefined;
}

/** The caller a resolved, usable token makes. */
export async function callerOf(token: TokenEntry, services: Pick<SecretsContext, 'identity' | 'policies'>): Promise<TokenCaller> {
  const identityPolicies = token.entityId ? services.identity.entityPolicies(token.entityId) : [];
  return { kind: 'token', token, acl: await services.policies.aclFor([...token.policies, ...identityPolicies]) };
}
