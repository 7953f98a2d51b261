/**
 * Field schemas of the auth/token/* endpoints. The server paths and the `svc token` commands both import
 * them (the CLI's flags are generated from them), so this file must stay free of server code.
 */
import type { FieldSchema, Fields } from '../../framework/schema/field-schema.js';

export const TOKEN_CREATE_FIELDS: Fields = {
  policies: {
    type: 'list',
    description: 'Policies for the token. Without any, the token gets the policies of the token creating it.',
    cli: { flag: 'policy', complete: 'policy' },
  },
  ttl: {
    type: 'duration',
    description: 'Initial TTL of the token; 0 means the system default (768h), capped by the system max.',
  },
  explicit_max_ttl: {
    type: 'duration',
    description: 'Hard limit on the lifetime of the token, which renewals cannot pass.',
  },
  period: {
    type: 'duration',
    description: 'Make the token periodic: every renewal resets its TTL to this period. Needs root or sudo.',
  },
  num_uses: {
    type: 'int',
    description: 'Number of requests the token may make before it is revoked; 0 means unlimited.',
    cli: { flag: 'use-limit' },
  },
  bound_cidrs: {
    type: 'list',
    description: 'CIDR blocks or IP addresses the token may be used from.',
  },
  no_default_policy: {
    type: 'bool',
    description: 'Do not add the "default" policy to the token.',
  },
  no_parent: {
    type: 'bool',
    description: 'Create the token with no parent, so it is not revoked with its creator. Needs root or sudo.',
    cli: { flag: 'orphan' },
  },
  renewable: {
    type: 'bool',
    default: true,
    description: 'Allow the token to be renewed up to its max TTL.',
  },
  type: {
    type: 'string',
    default: 'service',
    allowedValues: ['service', 'batch'],
    description: 'The token type: service, or batch (lightweight: not renewable, no accessor, no children).',
  },
  meta: {
    type: 'map',
    description: 'Metadata to attach to the token, shown in lookups and in audit.',
    cli: { flag: 'metadata' },
  },
  display_name: {
    type: 'string',
    description: 'A name for the token; it is shown as "token-<name>".',
  },
  id: {
    type: 'string',
    sensitive: true,
    description: 'Use this value as the token instead of a random one. Needs root or sudo.',
  },
  entity_id: {
    type: 'string',
    key: true,
    description: 'Attach the token to this identity entity, which must exist. Needs root or sudo.',
    cli: { complete: 'entity' },
  },
  entity_alias: {
    type: 'string',
    key: true,
    description:
      "Attach the token to the entity of this alias of the token mount, made when missing; only with a role, whose allowed_entity_aliases must match it.",
    // Only a role's create path takes it, and `svc token create` has no role to name.
    cli: { hidden: true },
  },
};

export const TOKEN_LOOKUP_FIELDS: Fields = {
  token: {
    type: 'string',
    sensitive: true,
    description: 'The token to look up; the calling token when empty.',
  },
};

export const TOKEN_LOOKUP_SELF_FIELDS: Fields = {
  token: {
    type: 'string',
    sensitive: true,
    description: 'Unused: the calling token is looked up.',
    cli: { hidden: true },
  },
};

export const TOKEN_ACCESSOR_FIELDS: Fields = {
  accessor: {
    type: 'string',
    key: true,
    required: true,
    description: 'The accessor of the token.',
  },
};

const INCREMENT: FieldSchema = {
  type: 'duration',
  default: 0,
  description: 'The requested TTL from now; without it the token gets its current TTL again (periodic tokens: their period).',
  cli: { aliases: ['i'] },
};

export const TOKEN_RENEW_FIELDS: Fields = {
  token: { type: 'string', required: true, sensitive: true, description: 'The token to renew.' },
  increment: INCREMENT,
};

export const TOKEN_RENEW_SELF_FIELDS: Fields = {
  increment: INCREMENT,
};

export const TOKEN_RENEW_ACCESSOR_FIELDS: Fields = {
  accessor: { type: 'string', key: true, required: true, description: 'The accessor of the token to renew.' },
  increment: INCREMENT,
};

export const TOKEN_REVOKE_FIELDS: Fields = {
  token: { type: 'string', required: true, sensitive: true, description: 'The token to revoke.' },
};
