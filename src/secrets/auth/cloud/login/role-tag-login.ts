/**
 * Role tags at an ec2 login: when the role names a tag key, the instance must carry a tag under it whose
 * value is a role tag for this role, signed with its key, meant for this instance (if it names one), not
 * deny-listed and within the role's policies. The tag then narrows the login (see login-ec2.ts).
 */
import { UserError } from '../../../../shared/errors.js';
import type { SecretsContext } from '../../../context.js';
import type { CloudInstance } from '../../../../cloud/compute.js';
import { isDenyListed } from '../deny-list.js';
import type { RoleEntry } from '../role-entry.js';
import { policiesBeyondRole, verifyRoleTag, type VerifiedRoleTag } from '../role-tag.js';

export function roleTagForLogin(services: SecretsContext, accessor: string, roleName: string, role: RoleEntry, instance: CloudInstance): VerifiedRoleTag {
  const value = instance.tags[role.role_tag] ?? '';
  if (value === '') throw new UserError(`missing tag with key "${role.role_tag}" on the instance: role "${roleName}" admits instances only with a role tag`);
  const tag = verifyRoleTag(services, accessor, value);
  if (tag.role !== roleName.toLowerCase()) {
    throw new UserError(`role on the tag is not matching the role supplied: the tag is for role "${tag.role}", the login is to "${roleName}"`);
  }
  if (tag.instanceId !== '' && tag.instanceId !== instance.instanceId.toLowerCase()) {
    throw new UserError(`role tag is being used by an unauthorized instance: it is for instance "${tag.instanceId}"`);
  }
  if (isDenyListed(services, accessor, value)) throw new UserError('role tag is deny listed');
  const beyond = policiesBeyondRole(role, tag.policies);
  if (beyond.length > 0) {
    throw new UserError(`policies on the role tag must be subset of policies on the role; the role does not grant: ${beyond.join(', ')}`);
  }
  return tag;
}
