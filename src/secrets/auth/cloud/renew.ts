/**
 * Renewal of tokens from cloud logins: what the established implementation re-checks, with the role's
 * current token settings. ec2: the instance still runs, its access-list entry and role still exist (the
 * entry's expiry moves on). iam: the role still exists, still binds the principal (by the unique ID
 * recorded at login), and an inferred instance still runs. What is re-checked comes from the token's
 * internal record, never from its metadata, which a caller can see but not change anyway.
 */
import { UserError } from '../../../shared/errors.js';
import type { RenewSettings } from '../../token/token-service.js';
import type { SecretsContext } from '../../context.js';
import type { TokenEntry } from '../../token/token-entry.js';
import { loginMaxTtl, mountTtls } from '../role-token.js';
import { updateAccessListEntry } from './access-list.js';
import { canonicalArn, parseArn } from './login/arn.js';
import { describeRunningInstance, instanceCheck, type InstanceIdentity } from './login/instance-checks.js';
import { ec2MaxTtls } from './login/nonce.js';
import { principalIsBound } from './login/principal-match.js';
import { readRole, type RoleEntry } from './role-entry.js';
import type { CloudState } from './cloud-state.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

async function stillRunning(state: CloudState, services: SecretsContext, accessor: string, id: InstanceIdentity): Promise<void> {
  await instanceCheck(`failed to verify instance ID "${id.instanceId}"`, describeRunningInstance(state.providers.get(services, accessor), id));
}

function settingsOf(services: SecretsContext, accessor: string, role: RoleEntry, maxTtl: number): RenewSettings {
  return { ttl: role.token_ttl || mountTtls(services, accessor).defaultTtl, maxTtl, period: role.token_period };
}

async function renewEc2(state: CloudState, services: SecretsContext, token: TokenEntry, internal: Record<string, unknown>): Promise<RenewSettings> {
  const accessor = token.mountAccessor;
  const id = { instanceId: str(internal.instance_id), region: str(internal.region), accountId: str(internal.account_id) };
  if (id.instanceId === '' || id.region === '') throw new UserError('the token holds no instance ID and region to re-check; log in again');
  await stillRunning(state, services, accessor, id);
  const mountMax = mountTtls(services, accessor).maxTtl;
  const tagMax = typeof internal.role_tag_max_ttl === 'number' ? internal.role_tag_max_ttl : 0;
  let role: RoleEntry | undefined;
  let shortest = mountMax;
  await updateAccessListEntry(services, accessor, id.instanceId, (current) => {
    if (!current) throw new UserError(`failed to verify the access list identity entry for instance ID: "${id.instanceId}": it was removed; log in again`);
    // The token's own role (the established implementation takes the entry's, which is the role of the
    // instance's first login, not necessarily this token's).
    const roleName = str(internal.role) || current.role;
    role = readRole(services, accessor, roleName);
    if (!role) throw new UserError(`role entry not found: role "${roleName}" of instance "${id.instanceId}" no longer exists`);
    const ttls = ec2MaxTtls(mountMax, role.token_max_ttl, tagMax);
    shortest = ttls.shortest;
    const now = new Date();
    return { ...current, last_updated_time: now.toISOString(), expiration_time: new Date(now.getTime() + ttls.longest * 1000).toISOString() };
  });
  return settingsOf(services, accessor, role!, shortest);
}

async function renewIam(state: CloudState, services: SecretsContext, token: TokenEntry, internal: Record<string, unknown>): Promise<RenewSettings> {
  const accessor = token.mountAccessor;
  const roleName = str(internal.role_name);
  const role = readRole(services, accessor, roleName);
  if (!role) throw new UserError(`role entry not found: role "${roleName}" no longer exists`);
  if (role.inferred_entity_type === 'ec2_instance') {
    const instanceId = str(internal.inferred_entity_id);
    if (instanceId === '') {
      throw new UserError(`role "${roleName}" now infers an ec2 instance and this token was issued before it did, so it cannot be renewed; log in again`);
    }
    await stillRunning(state, services, accessor, { instanceId, region: str(internal.inferred_cloud_region) || role.inferred_cloud_region, accountId: str(internal.account_id) });
  }
  if (role.bound_iam_principal_arn.length > 0) {
    const arn = parseArn(str(internal.client_arn));
    const principal = { arn, canonicalArn: str(internal.canonical_arn) || canonicalArn(arn), uniqueId: str(internal.client_user_id) };
    if (!(await principalIsBound(state, services, accessor, roleName, role, principal))) {
      throw new UserError(`role "${roleName}" no longer bound to ARN "${principal.canonicalArn}"`);
    }
  }
  return settingsOf(services, accessor, role, loginMaxTtl(role.token_max_ttl, mountTtls(services, accessor)));
}

export async function renewCloudToken(state: CloudState, services: SecretsContext, token: TokenEntry): Promise<RenewSettings> {
  const internal = token.authInternal ?? {};
  return str(internal.auth_type) === 'iam' ? renewIam(state, services, token, internal) : renewEc2(state, services, token, internal);
}
