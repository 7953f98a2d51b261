/**
 * A cloud role as stored: its constraints, its token settings and its role-tag key. Reading is here so
 * that login, role tags, the deny list and tidy share one shape; writing is in path-role.ts and the rules
 * in role-validate.ts. Names are stored lower-cased, so any casing finds the role.
 */
import type { SecretsContext } from '../../context.js';
import type { LegacyTokenSettings, RoleTokenSettings } from '../role-token.js';
import { listEntries, readEntry } from './mount-storage.js';

export type { RoleTokenSettings } from '../role-token.js';

/** The deprecated ttl/max_ttl/period/policies are kept only for role reads; login uses the token_* fields. */
export interface RoleEntry extends RoleTokenSettings, Partial<LegacyTokenSettings> {
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

export function readRole(services: SecretsContext, accessor: string, name: string): RoleEntry | undefined {
  return readEntry<RoleEntry>(services.store, accessor, roleEntryName(name));
}

/** Role names, sorted. */
export function listRoleNames(services: SecretsContext, accessor: string): string[] {
  return listEntries(services.store, accessor, 'role');
}

/** The role's HMAC key for role tags, opened. */
export function roleHmacKey(services: SecretsContext, accessor: string, name: string, role: RoleEntry): string {
  return services.seal.decrypt(role.hmac_key_sealed, hmacSealContext(accessor, name));
}
