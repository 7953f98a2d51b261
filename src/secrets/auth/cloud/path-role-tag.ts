/**
 * auth/cloud/role/:role/tag: creates a role tag for a role that has `role_tag` set (see role-tag.ts for
 * the format).
 *
 * A tag's capabilities must be a strict subset of the role's. We read "strict" as how the
 * rule is enforced — a tag can never grant more than its role, and a policy the role does not grant is a
 * 400 where Vault only warns — not as "proper subset". A tag that restricts nothing (the role's policies,
 * no max_ttl, no instance_id, no flags) is accepted: once `role_tag` is set, an instance cannot log in to
 * the role without a tag, so such a tag is how an operator admits an instance with exactly the role's
 * rights; refusing it would only make them add a meaningless restriction, and it grants nothing the role
 * does not. The other settings cannot widen anything by construction — login caps the tag's max_ttl at the
 * role's and the mount's, and takes allow_instance_migration from the role only — so asking for more there
 * earns a warning that says so rather than an error.
 */
import { UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { sanitizePolicies } from '../../token/token-store.js';
import { ROLE_TAG_FIELDS } from './fields.js';
import { mountTtls } from '../role-token.js';
import { readRole, roleHmacKey } from './role-entry.js';
import { MAX_ROLE_TAG_LENGTH, newRoleTagNonce, policiesBeyondRole, signRoleTag, type RoleTag } from './role-tag.js';

/** ':' separates a tag's items and ',' its policies. */
const SEPARATORS = /[:,]/;

export const roleTagPaths = [
  definePath({
    pattern: 'role/:role/tag',
    fields: ROLE_TAG_FIELDS,
    synopsis: 'Create a role tag for a role.',
    description:
      "Creates a signed value to place in the instance tag named by the role's role_tag. An ec2 login to the role " +
      "from an instance carrying it gets the tag's narrower policies, max TTL and flags.",
    operations: {
      update: {
        summary: 'Create a role tag.',
        handler: async (req, data) => {
          const { services, mountAccessor } = req;
          const name = data.get<string>('role');
          const role = readRole(services, mountAccessor, name);
          if (!role) throw new UserError(`entry not found for role ${name}`);
          if (!role.role_tag) throw new UserError(`tag creation is not enabled for this role: set role_tag on role "${name}" first`);

          const disallow = data.get<boolean>('disallow_reauthentication');
          const migrate = data.get<boolean>('allow_instance_migration');
          if (disallow && migrate) throw new UserError('cannot set both disallow_reauthentication and allow_instance_migration');

          const maxTtl = data.get<number>('max_ttl');
          if (maxTtl < 0) throw new UserError('max_ttl cannot be negative');

          // Policies given but empty means the default policy alone, which the tag must then name.
          let policies: string[] = [];
          if (data.has('policies')) {
            policies = sanitizePolicies(data.get<string[]>('policies'), false);
            if (policies.length === 0) policies = ['default'];
          }
          const bad = policies.filter((p) => SEPARATORS.test(p));
          if (bad.length > 0) throw new UserError(`policy names in a role tag cannot contain ":" or ",": ${bad.join(' ')}`);
          const beyond = policiesBeyondRole(role, policies);
          if (beyond.length > 0) {
            throw new UserError(`policies on the role tag must be a subset of the policies of role "${name}"; the role does not grant: ${beyond.join(', ')}`);
          }

          const instanceId = data.get<string>('instance_id').trim().toLowerCase();
          if (instanceId.includes(':')) throw new UserError('instance_id cannot contain ":"');

          const warnings: string[] = [];
          const mountMax = mountTtls(services, mountAccessor).maxTtl;
          if (maxTtl > mountMax) {
            warnings.push(`max_ttl of ${maxTtl} seconds is greater than the mount's maximum of ${mountMax} seconds; logins with the tag are capped at the mount's maximum`);
          }
          if (role.token_max_ttl > 0 && maxTtl > role.token_max_ttl) {
            warnings.push(`max_ttl of ${maxTtl} seconds is greater than the role's token_max_ttl of ${role.token_max_ttl} seconds; logins with the tag are capped at the role's`);
          }
          if (migrate && !role.allow_instance_migration) {
            warnings.push(`role "${name}" does not allow instance migration: logins with this tag cannot migrate unless the role's allow_instance_migration is set`);
          }

          if (!role.hmac_key_sealed) throw new UserError(`role "${name}" has no role tag key yet: write the role again to create one`);
          const tag: RoleTag = { nonce: newRoleTagNonce(), role: name, policies, maxTtl, instanceId, disallowReauthentication: disallow, allowInstanceMigration: migrate };
          const value = signRoleTag(tag, roleHmacKey(services, mountAccessor, name, role));
          if (value.length > MAX_ROLE_TAG_LENGTH) {
            throw new UserError(`the role tag would be ${value.length} characters, more than the ${MAX_ROLE_TAG_LENGTH} an instance tag value holds: give fewer or shorter policies`);
          }
          return { data: { tag_key: role.role_tag, tag_value: value }, warnings };
        },
      },
    },
  }),
];
