/**
 * The checks both login types make on the role before looking at the instance or principal, in the
 * established order: the role exists, the caller's address is inside its token_bound_cidrs, and the role
 * is of this login's auth type.
 */
import { PermissionDenied, UserError } from '../../../../shared/errors.js';
import type { SecretsRequest } from '../../../framework/request.js';
import { addressInCidrs } from '../../../token/cidr.js';
import { readRole, type RoleEntry } from '../role-entry.js';

export interface LoginRoleQuery {
  name: string;
  authType: 'ec2' | 'iam';
  /** what the name was taken from when the body named no role, for the message when no such role exists */
  impliedBy?: string;
}

export function loginRole(req: SecretsRequest, q: LoginRoleQuery): RoleEntry {
  const role = readRole(req.services, req.mountAccessor, q.name);
  if (!role) {
    const how = q.impliedBy ? `: no role was given, so the role named like the ${q.impliedBy} was looked up` : '';
    throw new UserError(`entry for role "${q.name}" not found${how}`);
  }
  if (role.token_bound_cidrs.length > 0 && !addressInCidrs(req.remoteAddress, role.token_bound_cidrs)) {
    throw new PermissionDenied(`permission denied: logins to role "${q.name}" are allowed only from its token_bound_cidrs`);
  }
  if (role.auth_type !== q.authType) {
    throw new UserError(`auth method ${q.authType} not allowed for role ${q.name}: the role's auth_type is ${role.auth_type}`);
  }
  return role;
}
