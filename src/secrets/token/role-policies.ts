/**
 * The policies of a token created against a role that lists allowed or disallowed policies, by Vault's
 * rules (handleCreateCommon): such a role sets its own bounds instead of the creating token's, and
 * "default" is added unless the request, the role or a disallowed entry keeps it out.
 */
import { UserError } from '../../shared/errors.js';
import { anyGlobMatches } from './glob.js';
import type { TokenRoleEntry } from './role-store.js';
import { sanitizePolicies } from './token-store.js';

/** Whether the role decides the policies itself; otherwise the create's usual rules apply. */
export function roleBoundsPolicies(role: TokenRoleEntry): boolean {
  return role.allowed_policies.length + role.disallowed_policies.length + role.allowed_policies_glob.length + role.disallowed_policies_glob.length > 0;
}

/** Go's %q of a string list, as Vault's message shows them: ["a" "b"]. */
const quoted = (list: readonly string[]) => `[${list.map((p) => JSON.stringify(p)).join(' ')}]`;

/** The token's policies, before no_default_policy strips "default"; throws a 400 when the role refuses them. */
export function rolePolicies(role: TokenRoleEntry, requested: readonly string[], noDefaultPolicy: boolean, parentPolicies: readonly string[]): string[] {
  const addDefault =
    !noDefaultPolicy && !role.token_no_default_policy && !role.disallowed_policies.includes('default') && !anyGlobMatches(role.disallowed_policies_glob, 'default');
  let policies = requested.length > 0 ? sanitizePolicies(requested, addDefault) : [];

  if (role.allowed_policies.length > 0 || role.allowed_policies_glob.length > 0) {
    const allowed = sanitizePolicies(role.allowed_policies, addDefault);
    if (policies.length === 0) {
      policies = allowed;
    } else {
      const allowedGlob = sanitizePolicies(role.allowed_policies_glob, false);
      if (policies.some((p) => !allowed.includes(p) && !anyGlobMatches(allowedGlob, p))) {
        throw new UserError(
          `token policies (${quoted(policies)}) must be subset of the role's allowed policies (${quoted(allowed)}) or glob policies (${quoted(allowedGlob)})`,
        );
      }
    }
  } else if (policies.length === 0) {
    policies = sanitizePolicies(parentPolicies, addDefault);
  }

  for (const p of policies) {
    if (role.disallowed_policies.includes(p) || anyGlobMatches(role.disallowed_policies_glob, p)) {
      throw new UserError(`token policy "${p}" is disallowed by this role`);
    }
  }
  // Every branch above has sanitised its list already.
  return policies;
}
