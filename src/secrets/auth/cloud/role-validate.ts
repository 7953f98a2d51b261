/**
 * The rules of a role write, in Vault's order and with its messages: what the request changes on the
 * stored role (only the fields it sends), and whether the result is a role login can be checked against.
 * Nothing here calls the provider; whether unique IDs must be looked up is returned for the caller to do.
 */
import type { FieldData } from '../../../framework/schema/field-data.js';
import { UserError } from '../../../shared/errors.js';
import { uuid } from '../../../shared/ids.js';
import { checkAgainstMount, DEFAULT_TOKEN_SETTINGS, parseTokenFields, type MountTtls } from '../role-token.js';
import type { RoleEntry } from './role-entry.js';
import { parseArn } from './login/arn.js';

const EC2_INSTANCE = 'ec2_instance';
/** EC2 limits tag keys to 127 characters. */
const ROLE_TAG_MAX = 127;
/** Vault's name pattern; it also keeps ':' and ',' out of names, which role tags use as separators. */
const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/;

type ListField =
  | 'bound_ami_id'
  | 'bound_account_id'
  | 'bound_region'
  | 'bound_vpc_id'
  | 'bound_subnet_id'
  | 'bound_iam_role_arn'
  | 'bound_iam_instance_profile_arn'
  | 'bound_ec2_instance_id'
  | 'bound_iam_principal_arn';

/** The constraints only an instance can satisfy, in the order Vault checks them. */
const EC2_BINDS: ListField[] = ['bound_account_id', 'bound_region', 'bound_ami_id', 'bound_iam_instance_profile_arn', 'bound_ec2_instance_id', 'bound_iam_role_arn', 'bound_iam_principal_arn', 'bound_vpc_id', 'bound_subnet_id'];

export interface RoleDraft {
  /** the role to store, once bound_iam_principal_id is filled in when `resolve` says so */
  role: RoleEntry;
  /** the non-wildcard ARNs of bound_iam_principal_arn must be resolved to unique IDs */
  resolve: boolean;
  warnings: string[];
}

export function checkRoleName(name: string): void {
  if (!ROLE_NAME.test(name)) {
    throw new UserError(`invalid role name "${name}": use letters, digits, "_", "-" and ".", starting and ending with a letter, digit or "_"`);
  }
}

function newRole(): RoleEntry {
  return {
    ...structuredClone(DEFAULT_TOKEN_SETTINGS),
    role_id: uuid(),
    // Set below: a new role takes the sent auth_type or iam.
    auth_type: '' as RoleEntry['auth_type'],
    bound_ami_id: [],
    bound_account_id: [],
    bound_region: [],
    bound_vpc_id: [],
    bound_subnet_id: [],
    bound_iam_role_arn: [],
    bound_iam_instance_profile_arn: [],
    bound_ec2_instance_id: [],
    bound_iam_principal_arn: [],
    bound_iam_principal_id: [],
    role_tag: '',
    inferred_entity_type: '',
    inferred_cloud_region: '',
    resolve_cloud_unique_ids: true,
    allow_instance_migration: false,
    disallow_reauthentication: false,
    hmac_key_sealed: '',
  };
}

/**
 * The stored role after this write, or a 400 naming the field. `current` is the stored role, undefined
 * when the write creates it.
 */
export function draftRole(current: RoleEntry | undefined, data: FieldData, mount: MountTtls): RoleDraft {
  const isNew = current === undefined;
  const role: RoleEntry = isNew ? newRole() : structuredClone(current);
  const setList = (field: ListField) => {
    if (data.has(field)) role[field] = data.get<string[]>(field).filter((v) => v !== '');
  };

  setList('bound_ami_id');
  setList('bound_account_id');
  setList('bound_region');
  setList('bound_vpc_id');
  setList('bound_subnet_id');

  if (data.has('resolve_cloud_unique_ids')) {
    const wanted = data.get<boolean>('resolve_cloud_unique_ids');
    if (!isNew && role.resolve_cloud_unique_ids && !wanted) {
      throw new UserError('changing resolve_cloud_unique_ids from true to false is not allowed');
    }
    role.resolve_cloud_unique_ids = wanted;
  }

  setList('bound_iam_role_arn');
  setList('bound_iam_instance_profile_arn');
  setList('bound_ec2_instance_id');

  if (data.has('bound_iam_principal_arn')) {
    setList('bound_iam_principal_arn');
    role.bound_iam_principal_id = [];
  }
  // Also when resolution was just turned on: the IDs of the ARNs already bound are looked up then.
  const resolve = role.resolve_cloud_unique_ids && role.bound_iam_principal_id.length === 0 && role.bound_iam_principal_arn.some((a) => !a.endsWith('*'));
  if (!role.resolve_cloud_unique_ids) checkNoRolePaths(role.bound_iam_principal_arn);

  if (data.has('inferred_entity_type')) role.inferred_entity_type = data.get<string>('inferred_entity_type');
  if (data.has('inferred_cloud_region')) role.inferred_cloud_region = data.get<string>('inferred_cloud_region');

  if (data.has('auth_type')) {
    const authType = data.get<string>('auth_type');
    if (isNew) {
      if (authType !== 'ec2' && authType !== 'iam') throw new UserError(`unrecognized auth_type: ${authType}`);
      role.auth_type = authType;
    } else if (authType !== role.auth_type) {
      throw new UserError('changing auth_type on a role is not allowed');
    }
  } else if (isNew) {
    role.auth_type = 'iam';
  }

  let instanceBinds = role.auth_type === 'ec2';
  if (role.inferred_entity_type !== '') {
    if (role.auth_type !== 'iam') throw new UserError("specified inferred_entity_type but didn't allow iam auth_type");
    if (role.inferred_entity_type !== EC2_INSTANCE) throw new UserError(`specified invalid inferred_entity_type: ${role.inferred_entity_type}`);
    if (role.inferred_cloud_region === '') throw new UserError('specified inferred_entity_type but not inferred_cloud_region');
    instanceBinds = true;
  } else if (role.inferred_cloud_region !== '') {
    throw new UserError('specified inferred_cloud_region but not inferred_entity_type');
  }

  let binds = 0;
  for (const field of EC2_BINDS) {
    if (role[field].length === 0) continue;
    if (field === 'bound_iam_principal_arn') {
      if (role.auth_type !== 'iam') throw new UserError('specified bound_iam_principal_arn but not specifying iam auth_type');
    } else if (!instanceBinds) {
      throw new UserError(`specified ${field} but not specifying ec2 auth_type or inferring ${EC2_INSTANCE}`);
    }
    binds++;
  }
  if (binds === 0) throw new UserError('at least one bound parameter should be specified on the role');

  for (const field of ['disallow_reauthentication', 'allow_instance_migration'] as const) {
    if (!data.has(field)) continue;
    if (role.auth_type !== 'ec2') throw new UserError(`specified ${field} when not using ec2 auth type`);
    role[field] = data.get<boolean>(field);
  }
  if (role.allow_instance_migration && role.disallow_reauthentication) {
    throw new UserError('cannot specify both disallow_reauthentication=true and allow_instance_migration=true');
  }

  Object.assign(role, parseTokenFields(data, role));
  const warnings = checkAgainstMount(role, mount);

  if (data.has('role_tag')) {
    if (role.auth_type !== 'ec2') throw new UserError('tried to enable role_tag when not using ec2 auth method');
    role.role_tag = data.get<string>('role_tag');
    if (role.role_tag.length > ROLE_TAG_MAX) throw new UserError(`length of role tag exceeds the EC2 key limit of ${ROLE_TAG_MAX} characters`);
  }

  return { role, resolve, warnings };
}

/**
 * Without unique IDs, a role bind matches the caller's ARN by text, and the caller's ARN (an assumed-role
 * ARN from the token service) never carries the role's path: a bind with a path could never match.
 */
function checkNoRolePaths(arns: readonly string[]): void {
  for (const arn of arns) {
    if (arn.endsWith('*')) continue;
    let entity;
    try {
      entity = parseArn(arn);
    } catch (err) {
      // Not a principal ARN: with resolution off, binds are not syntax-checked (Vault).
      if (err instanceof UserError) continue;
      throw err;
    }
    if (entity.type === 'role' && entity.path !== '') {
      throw new UserError(
        `bound_iam_principal_arn "${arn}" contains a path, which never matches while resolve_cloud_unique_ids is false ` +
          `(the caller's role ARN carries no path): bind arn:${entity.partition}:iam::${entity.accountId}:role/${entity.friendlyName} instead`,
      );
    }
  }
}
