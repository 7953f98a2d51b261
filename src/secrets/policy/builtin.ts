/**
 * The two policies every server has. `root` has no rules: holding it bypasses the ACL entirely (see Acl.root).
 * `default` is the subset of Vault's default policy that lets a token look after itself, plus the policy
 * formatter, which reveals nothing (svc's own: Vault has no such endpoint); it grants no
 * namespace, so a token with only `default` cannot use the scheduler.
 */
import { UserError } from '../../shared/errors.js';
import type { Policy } from './policy.js';

export const ROOT_POLICY_NAME = 'root';
export const DEFAULT_POLICY_NAME = 'default';

export const ROOT_POLICY: Policy = { name: ROOT_POLICY_NAME, text: '', paths: [], namespaces: [] };

export const DEFAULT_POLICY_TEXT = `# Allow tokens to look up their own properties
path "auth/token/lookup-self" {
  capabilities = ["read"]
}

# Allow tokens to renew themselves
path "auth/token/renew-self" {
  capabilities = ["update"]
}

# Allow tokens to revoke themselves
path "auth/token/revoke-self" {
  capabilities = ["update"]
}

# Allow a token to look up its own capabilities on a path
path "sys/capabilities-self" {
  capabilities = ["update"]
}

# Allow a token to look up its resultant ACL from all policies
path "sys/internal/ui/resultant-acl" {
  capabilities = ["read"]
}

# Allow a token to have a policy laid out as "svc policy fmt" does (the web UI's editor)
path "sys/internal/ui/format-policy" {
  capabilities = ["update"]
}
`;

/** DEFAULT_POLICY_TEXT, already parsed (a test keeps the two in step), so startup need not load the HCL parser. */
export const DEFAULT_POLICY: Policy = {
  name: DEFAULT_POLICY_NAME,
  text: DEFAULT_POLICY_TEXT,
  paths: [
    { pattern: 'auth/token/lookup-self', capabilities: ['read'] },
    { pattern: 'auth/token/renew-self', capabilities: ['update'] },
    { pattern: 'auth/token/revoke-self', capabilities: ['update'] },
    { pattern: 'sys/capabilities-self', capabilities: ['update'] },
    { pattern: 'sys/internal/ui/format-policy', capabilities: ['update'] },
    { pattern: 'sys/internal/ui/resultant-acl', capabilities: ['read'] },
  ],
  namespaces: [],
};

/** True for policies that cannot be written at all (only `root`; `default` may be rewritten, as in Vault). */
export function isBuiltinImmutable(name: string): boolean {
  return normalize(name) === ROOT_POLICY_NAME;
}

/** True for policies that cannot be deleted: `root` and `default`. */
export function isBuiltinUndeletable(name: string): boolean {
  const n = normalize(name);
  return n === ROOT_POLICY_NAME || n === DEFAULT_POLICY_NAME;
}

/** Throws Vault's 400 when a write targets `root`. */
export function assertPolicyWritable(name: string): void {
  if (isBuiltinImmutable(name)) throw new UserError(`cannot update "${ROOT_POLICY_NAME}" policy`);
}

/** Throws Vault's 400 when a delete targets `root` or `default`. */
export function assertPolicyDeletable(name: string): void {
  if (isBuiltinUndeletable(name)) throw new UserError(`cannot delete "${normalize(name)}" policy`);
}

function normalize(name: string): string {
  return name.trim().toLowerCase();
}
