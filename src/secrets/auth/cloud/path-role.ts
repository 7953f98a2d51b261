/**
 * auth/cloud/role/:role (create, update, read, delete) and LIST auth/cloud/roles (or role). A write
 * changes only the fields it sends; it is checked in full (rules in role-validate.ts, unique IDs looked up
 * at the provider) before anything is stored, so a refused write leaves the role as it was.
 */
import { Conflict, NotFound } from '../../../shared/errors.js';
import { uuid } from '../../../shared/ids.js';
import { definePath, type Handler, type PathDef } from '../../framework/path.js';
import { mountTtls, tokenFieldsResponse } from '../role-token.js';
import { ROLE_FIELDS } from './fields.js';
import type { MountProviders } from './mount-provider.js';
import { deleteEntry, updateEntry } from './mount-storage.js';
import { resolvePrincipalIds } from './principal-ids.js';
import { hmacSealContext, listRoleNames, readRole, roleEntryName, type RoleEntry } from './role-entry.js';
import { checkRoleName, draftRole } from './role-validate.js';

/** Another write changed the role while this one looked up unique IDs. */
class RoleChanged extends Error {}

/** Concurrent writers of one role are rare; a write retries on a changed role this often, then gives up. */
const WRITE_ATTEMPTS = 5;

const writeRole = (providers: MountProviders): Handler => async (req, data) => {
  const { services, mountAccessor: accessor } = req;
  const name = data.get<string>('role');
  checkRoleName(name);
  const mount = mountTtls(services, accessor);
  for (let attempt = 1; ; attempt++) {
    const before = readRole(services, accessor, name);
    const { role, resolve, warnings } = draftRole(before, data, mount);
    if (resolve) role.bound_iam_principal_id = await resolvePrincipalIds(providers.get(services, accessor), role.bound_iam_principal_arn);
    // The role-tag key exists from the first save on; roles without one get it on their next write.
    if (!role.hmac_key_sealed) role.hmac_key_sealed = services.seal.encrypt(uuid(), hmacSealContext(accessor, name));
    try {
      // The provider calls above are outside the transaction; a write that landed meanwhile is not overwritten.
      await updateEntry<RoleEntry>(services.store, accessor, roleEntryName(name), (current) => {
        if (JSON.stringify(current) !== JSON.stringify(before)) throw new RoleChanged();
        return role;
      });
    } catch (err) {
      if (!(err instanceof RoleChanged)) throw err;
      if (attempt < WRITE_ATTEMPTS) continue;
      throw new Conflict(`role "${name}" kept changing during this write; retry it`);
    }
    return warnings.length > 0 ? { warnings } : undefined;
  }
};

/** Role read output: Vault's key set with our field names; never the HMAC key. */
function roleResponse(role: RoleEntry): Record<string, unknown> {
  return {
    auth_type: role.auth_type,
    bound_ami_id: [...role.bound_ami_id],
    bound_account_id: [...role.bound_account_id],
    bound_ec2_instance_id: [...role.bound_ec2_instance_id],
    bound_iam_principal_arn: [...role.bound_iam_principal_arn],
    bound_iam_principal_id: [...role.bound_iam_principal_id],
    bound_iam_role_arn: [...role.bound_iam_role_arn],
    bound_iam_instance_profile_arn: [...role.bound_iam_instance_profile_arn],
    bound_region: [...role.bound_region],
    bound_subnet_id: [...role.bound_subnet_id],
    bound_vpc_id: [...role.bound_vpc_id],
    inferred_entity_type: role.inferred_entity_type,
    inferred_cloud_region: role.inferred_cloud_region,
    resolve_cloud_unique_ids: role.resolve_cloud_unique_ids,
    role_id: role.role_id,
    role_tag: role.role_tag,
    allow_instance_migration: role.allow_instance_migration,
    disallow_reauthentication: role.disallow_reauthentication,
    ...tokenFieldsResponse(role),
  };
}

const listRoles: Handler = async (req) => ({ data: { keys: listRoleNames(req.services, req.mountAccessor) } });

const listPath = (pattern: string) =>
  definePath({
    pattern,
    fields: {},
    synopsis: 'List the roles.',
    description: 'Lists the names of the roles of this mount, sorted.',
    operations: { list: { summary: 'List role names.', handler: listRoles } },
  });

/** The role paths; a write looks principals up with the mount's provider from `providers`. */
export function rolePaths(providers: MountProviders): PathDef[] {
  const write = writeRole(providers);
  return [
    listPath('roles'),
    listPath('role'),
    definePath({
      pattern: 'role/:role',
      fields: ROLE_FIELDS,
      existenceCheck: (req, data) => readRole(req.services, req.mountAccessor, data.get<string>('role')) !== undefined,
      synopsis: 'Create a role and set what its members must prove and which tokens they get.',
      description:
        'A login names a role; the caller must satisfy every constraint of the role (any one value of each list) ' +
        'and gets a token with the role\'s token settings. Only constraints the auth type checks can be set, and at ' +
        'least one must be. Writes change only the fields sent. With resolve_cloud_unique_ids (the default), each ' +
        'bound_iam_principal_arn without a trailing "*" is resolved to the principal\'s unique ID when written, so a ' +
        'principal deleted and recreated under the same name does not match until its ARN is written again.',
      operations: {
        read: {
          summary: 'Read a role.',
          handler: async (req, data) => {
            const role = readRole(req.services, req.mountAccessor, data.get<string>('role'));
            if (!role) throw new NotFound();
            return { data: roleResponse(role) };
          },
        },
        create: { summary: 'Create a role.', handler: write },
        update: { summary: 'Change the given fields of a role.', handler: write },
        delete: {
          summary: 'Delete a role.',
          handler: async (req, data) => {
            await deleteEntry(req.services.store, req.mountAccessor, roleEntryName(data.get<string>('role')));
          },
        },
      },
    }),
  ];
}
