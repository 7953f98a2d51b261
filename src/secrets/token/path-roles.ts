/**
 * auth/token/roles/:role_name (create, update, read, delete) and LIST auth/token/roles: Vault's token
 * roles, which auth/token/create/:role_name creates tokens against. A write changes only the fields it
 * sends and is checked as a whole (role-draft.ts) inside its transaction, so a refused write leaves the role as it was.
 */
import { NotFound } from '../../shared/errors.js';
import { definePath, type Handler, type PathDef } from '../framework/path.js';
import { mountTtls } from '../auth/role-token.js';
import { TOKEN_ROLE_FIELDS } from './role-fields.js';
import { draftTokenRole } from './role-draft.js';
import { deleteTokenRole, listTokenRoles, readTokenRole, updateTokenRole, type TokenRoleEntry } from './role-store.js';

const writeRole: Handler = async (req, data) => {
  const name = data.get<string>('role_name');
  const { maxTtl } = mountTtls(req.services, req.mountAccessor);
  const warnings = await updateTokenRole(req.services.store, name, (current) => {
    const { role, warnings } = draftTokenRole(name, current, data, maxTtl);
    return { role, result: warnings };
  });
  return warnings.length > 0 ? { warnings } : undefined;
};

/** Vault's read: every field, with token_bound_cidrs, bound_cidrs and token_num_uses only when set. */
function roleResponse(role: TokenRoleEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {
    allowed_entity_aliases: role.allowed_entity_aliases,
    allowed_policies: role.allowed_policies,
    allowed_policies_glob: role.allowed_policies_glob,
    disallowed_policies: role.disallowed_policies,
    disallowed_policies_glob: role.disallowed_policies_glob,
    explicit_max_ttl: role.explicit_max_ttl,
    name: role.name,
    orphan: role.orphan,
    path_suffix: role.path_suffix,
    period: role.period,
    renewable: role.renewable,
    token_explicit_max_ttl: role.token_explicit_max_ttl,
    token_no_default_policy: role.token_no_default_policy,
    token_period: role.token_period,
    token_type: role.token_type,
  };
  if (role.token_bound_cidrs.length > 0) out.token_bound_cidrs = role.token_bound_cidrs;
  if (role.bound_cidrs.length > 0) out.bound_cidrs = role.bound_cidrs;
  if (role.token_num_uses > 0) out.token_num_uses = role.token_num_uses;
  return out;
}

export const rolesPaths: PathDef[] = [
  definePath({
    pattern: 'roles',
    fields: {},
    synopsis: 'List the token roles.',
    description: 'Lists the names of the token roles, sorted.',
    operations: { list: { summary: 'List token roles.', handler: async (req) => ({ data: { keys: listTokenRoles(req.services.store) } }) } },
  }),
  definePath({
    pattern: 'roles/:role_name',
    fields: TOKEN_ROLE_FIELDS,
    existenceCheck: (req, data) => readTokenRole(req.services.store, data.get<string>('role_name')) !== undefined,
    synopsis: 'Create, read, update and delete token roles.',
    description:
      'A token role sets the rules of auth/token/create/<role>: the policies its tokens may have (allowed_policies, ' +
      'disallowed_policies and their glob forms) in place of a subset of the creating token\'s, whether they are ' +
      'orphans, renewable, their type, CIDRs, period, explicit max TTL and use limit, a suffix for their path, and ' +
      'the entity aliases a create may attach them to. Writes change only the fields sent. Role names are case-sensitive.',
    operations: {
      read: {
        summary: 'Read a token role.',
        handler: async (req, data) => {
          const role = readTokenRole(req.services.store, data.get<string>('role_name'));
          if (!role) throw new NotFound();
          return { data: roleResponse(role) };
        },
      },
      create: { summary: 'Create a token role.', handler: writeRole },
      update: { summary: 'Change the given fields of a token role.', handler: writeRole },
      delete: {
        summary: 'Delete a token role.',
        handler: async (req, data) => {
          await deleteTokenRole(req.services.store, data.get<string>('role_name'));
        },
      },
    },
  }),
];
