/**
 * What an ec2 login, and an iam login that infers an instance, check about the instance: that the
 * provider knows it and it is running, and that it satisfies every ec2 constraint of the role. The
 * facts come from DescribeInstances (and GetInstanceProfile for the profile's role), except the account,
 * which is the identity document's (or the token service's, when inferred).
 */
import { UserError } from '../../../../shared/errors.js';
import type { CloudInstance } from '../../../../cloud/compute.js';
import type { CloudProvider } from '../../../../cloud/provider.js';
import type { RoleEntry } from '../role-entry.js';
import { parseArn } from './arn.js';

/** A failed check; callers prefix it with what was being checked, as the established messages do. */
export class InstanceCheckFailed extends Error {}

/** Runs a check, turning its failure into a 400 that starts with `prefix`. */
export async function instanceCheck<T>(prefix: string, check: Promise<T>): Promise<T> {
  try {
    return await check;
  } catch (err) {
    if (err instanceof InstanceCheckFailed) throw new UserError(`${prefix}: ${err.message}`);
    throw err;
  }
}

export interface InstanceIdentity {
  instanceId: string;
  accountId: string;
  region: string;
}

/** The instance as the mount's provider describes it, in the identity's account and region; it must be running. */
export async function describeRunningInstance(provider: CloudProvider, id: InstanceIdentity): Promise<CloudInstance> {
  let found: CloudInstance[];
  try {
    found = await provider.compute(id.region, id.accountId).describeInstances([id.instanceId]);
  } catch (err) {
    throw new InstanceCheckFailed(`error fetching description for instance ID "${id.instanceId}": ${(err as Error).message}`);
  }
  if (found.length === 0) throw new InstanceCheckFailed(`no instance with ID "${id.instanceId}" in region ${id.region}`);
  const instance = found[0];
  if (instance.instanceId !== id.instanceId) {
    throw new InstanceCheckFailed(`expected instance ID "${id.instanceId}" but the provider described "${instance.instanceId}"`);
  }
  if (!instance.state) throw new InstanceCheckFailed(`the provider reported no state for instance "${id.instanceId}"`);
  if (instance.state !== 'running') throw new InstanceCheckFailed(`instance is not in 'running' state (it is '${instance.state}')`);
  return instance;
}

/** A bound value matches when equal, or, ending in '*', as a prefix; '*' anywhere else is literal. */
export function matchesBound(bound: string, value: string): boolean {
  return bound.endsWith('*') ? value.startsWith(bound.slice(0, -1)) : bound === value;
}

/** The role's bound_region against the instance's region (a 400 naming both). */
export function checkBoundRegion(roleName: string, role: RoleEntry, region: string): void {
  if (role.bound_region.length > 0 && !role.bound_region.includes(region)) {
    throw new UserError(`Region "${region}" does not satisfy the constraint on role "${roleName}"`);
  }
}

/**
 * The role's ec2 constraints, in the established order; the first that fails is reported. Every list
 * constraint is met by any one of its values. `bound_region` is the caller's: ec2 logins check it against
 * the document, inferred instances have the role's own region.
 */
export async function checkInstanceBindings(
  provider: CloudProvider,
  roleName: string,
  role: RoleEntry,
  id: InstanceIdentity,
  instance: CloudInstance,
): Promise<void> {
  const quoted = `"${roleName}"`;
  if (role.bound_ec2_instance_id.length > 0 && !role.bound_ec2_instance_id.includes(instance.instanceId)) {
    throw new InstanceCheckFailed(`instance ID "${instance.instanceId}" does not belong to the role ${quoted}`);
  }
  if (role.bound_account_id.length > 0 && !role.bound_account_id.includes(id.accountId)) {
    throw new InstanceCheckFailed(`account ID "${id.accountId}" does not belong to role ${quoted}`);
  }
  if (role.bound_ami_id.length > 0 && !role.bound_ami_id.includes(instance.imageId ?? '')) {
    throw new InstanceCheckFailed(`AMI ID "${instance.imageId ?? ''}" does not belong to role ${quoted}`);
  }
  if (role.bound_subnet_id.length > 0 && !role.bound_subnet_id.includes(instance.subnetId ?? '')) {
    throw new InstanceCheckFailed(`subnet ID "${instance.subnetId ?? ''}" does not satisfy the constraint on role ${quoted}`);
  }
  if (role.bound_vpc_id.length > 0 && !role.bound_vpc_id.includes(instance.vpcId ?? '')) {
    throw new InstanceCheckFailed(`VPC ID "${instance.vpcId ?? ''}" does not satisfy the constraint on role ${quoted}`);
  }
  const needsProfile = role.bound_iam_instance_profile_arn.length > 0 || role.bound_iam_role_arn.length > 0;
  if (!needsProfile) return;
  const profileArn = instance.iamInstanceProfileArn;
  if (!profileArn) {
    throw new InstanceCheckFailed(`instance "${instance.instanceId}" has no instance profile, and role ${quoted} is bound to an instance profile or its role`);
  }
  if (role.bound_iam_instance_profile_arn.length > 0 && !role.bound_iam_instance_profile_arn.some((b) => matchesBound(b, profileArn))) {
    throw new InstanceCheckFailed(`IAM instance profile ARN "${profileArn}" does not satisfy the constraint role ${quoted}`);
  }
  if (role.bound_iam_role_arn.length === 0) return;
  const roleArn = await instanceProfileRoleArn(provider, id, profileArn);
  if (!role.bound_iam_role_arn.some((b) => matchesBound(b, roleArn))) {
    throw new InstanceCheckFailed(`IAM role ARN "${roleArn}" does not satisfy the constraint role ${quoted}`);
  }
}

async function instanceProfileRoleArn(provider: CloudProvider, id: InstanceIdentity, profileArn: string): Promise<string> {
  let name: string;
  try {
    name = parseArn(profileArn).friendlyName;
  } catch (err) {
    throw new InstanceCheckFailed(`instance profile ARN "${profileArn}" cannot be read: ${(err as Error).message}`);
  }
  let roles;
  try {
    ({ roles } = await provider.identity(id.accountId, id.region).getInstanceProfile(name));
  } catch (err) {
    throw new InstanceCheckFailed(`error fetching instance profile "${name}" (needs iam:GetInstanceProfile): ${(err as Error).message}`);
  }
  if (roles.length !== 1) throw new InstanceCheckFailed(`instance profile "${name}" has ${roles.length} roles; exactly one is needed to check bound_iam_role_arn`);
  return roles[0].arn;
}
