/**
 * The fields of token roles (auth/token/roles/:role_name) and of a create against one. Apart from
 * fields.ts, which the CLI's start-up bundle holds for `svc token create`: these reuse the auth methods'
 * token_* schemas, which only the server and the commands that mount them load.
 */
import type { FieldSchema, Fields } from '../../framework/schema/field-schema.js';
import { ROLE_TOKEN_FIELDS } from '../auth/token-fields.js';
import { TOKEN_CREATE_FIELDS } from './fields.js';

const ROLE_NAME: FieldSchema = { type: 'string', key: true, required: true, description: 'The name of the token role.' };

export const TOKEN_CREATE_ROLE_FIELDS: Fields = { ...TOKEN_CREATE_FIELDS, role_name: ROLE_NAME };

/** Role values that use one of Vault's token_* fields take that field's schema, as Vault's tokenutil does. */
const { token_bound_cidrs, token_explicit_max_ttl, token_no_default_policy, token_num_uses, token_period, period } = ROLE_TOKEN_FIELDS;

export const TOKEN_ROLE_TYPES = ['service', 'batch', 'default-service', 'default-batch'] as const;

export const TOKEN_ROLE_FIELDS: Fields = {
  role_name: ROLE_NAME,
  allowed_policies: {
    type: 'list',
    description: "Policies tokens of the role may have, instead of a subset of the creating token's; without policies asked for, tokens get these.",
    cli: { complete: 'policy' },
  },
  disallowed_policies: {
    type: 'list',
    description: 'Policies tokens of the role may never have; listing "default" leaves it out.',
    cli: { complete: 'policy' },
  },
  allowed_policies_glob: {
    type: 'list',
    description: 'As allowed_policies, with "*" matching any text in a policy name.',
  },
  disallowed_policies_glob: {
    type: 'list',
    description: 'As disallowed_policies, with "*" matching any text in a policy name.',
  },
  orphan: {
    type: 'bool',
    description: 'Tokens of the role have no parent, so revoking their creator leaves them; no sudo needed.',
  },
  renewable: {
    type: 'bool',
    default: true,
    description: 'Whether tokens of the role may be renewed.',
  },
  path_suffix: {
    type: 'string',
    description: 'Added to the path of the tokens of the role (auth/token/create/<role>/<suffix>), to tell issues of the role apart.',
  },
  allowed_entity_aliases: {
    type: 'list',
    description: 'Entity alias names a token create may ask for (entity_alias); "*" matches any text. Compared in lower case.',
  },
  token_bound_cidrs,
  token_explicit_max_ttl,
  token_no_default_policy,
  token_num_uses,
  token_period,
  token_type: {
    type: 'string',
    allowedValues: TOKEN_ROLE_TYPES,
    description: 'Type of the tokens: service, batch, or default-service / default-batch (that type unless the create asks for the other).',
  },
  period,
  explicit_max_ttl: { type: 'duration', deprecated: 'token_explicit_max_ttl', description: 'Deprecated: use token_explicit_max_ttl.', cli: { hidden: true } },
  bound_cidrs: { type: 'list', deprecated: 'token_bound_cidrs', description: 'Deprecated: use token_bound_cidrs.', cli: { hidden: true } },
};
