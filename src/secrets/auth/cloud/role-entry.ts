/**
 * A cloud role as stored: its constraints, its token settings and its role-tag key. Reading is here so
 * that login, role tags, the deny list and tidy share one shape; writing and the rules are in
 * path-role.ts. Names are stored lower-cased, so any casing finds the role.
 */
import type { Services } from '../../../server/services.js';
import { listEntries, readEntry } from './mount-storage.js';

export interface RoleTokenSettings {
  /** seconds; 0 = the mount default */
  token_ttl: number;
  token_max_ttl: number;
  token_explicit_max_ttl: number;
  token_period: number;
  token_policies: string[];
  token_bound_cidrs: string[];
  token_no_default_policy: boolean;
  token_num_uses: number;
  /** 'default' | 'service' | 'batch' */
  token_type: string;
}

export interface RoleEntry extends RoleTokenSettings {
  role_id: string;
  auth_type: 'ec2' | 'iam';
  bound_ami_id: string[];
  bound_account_id: string[];
  bound_region: string[];
  bound_vpc_id: string[];
  bound_subnet_id: string[];
  bound_iam_role_arn: string[];
  bound_iam_instance_profile_arn: string[];
  bound_ec2_instance_id: string[];
  bound_iam_principal_arn: string[];
  /** unique IDs resolved from bound_iam_principal_arn (those without a trailing "*") */
  bound_iam_principal_id: string[];
  role_tag: string;
  /** '' or 'ec2_instance' */
  inferred_entity_type: string;
  inferred_cloud_region: string;
  resolve_cloud_unique_ids: boolean;
  allow_instance_migration: boolean;
  disallow_reauthentication: boolean;
  /** the role-tag HMAC key, sealed (see roleHmacKey); never returned */
  hmac_key_sealed: string;
}

export const roleEntryName = (name: string) => `role/${name.toLowerCase()}`;

export const hmacSealContext = (accessor: string, name: string) => `auth-cloud/${accessor}/${roleEntryName(name)}/hmac_key`;

export function readRole(services: Services, accessor: string, name: string): RoleEntry | undefined {
  return readEntry<RoleEntry>(services.store, accessor, roleEntryName(name));
}

/** Role names, sorted. */
export function listRoleNames(services: Services, accessor: string): string[] {
  return listEntries(services.store, accessor, 'role');
}

/** The role's HMAC key for role tags, opened. */
export function roleHmacKey(services: Services, accessor: string, name: string, role: RoleEntry): string {
  return services.seal.decrypt(role.hmac_key_sealed, hmacSealContext(accessor, name));
}
