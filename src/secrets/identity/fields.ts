/**
 * Field schemas of the identity endpoints. They live apart from the handlers because the CLI builds its
 * flags from them, and the CLI bundle must not pull in server code.
 */
import type { FieldSchema, Fields } from '../../server/framework/field-schema.js';

const entityName: FieldSchema = {
  type: 'string',
  key: true,
  description: 'Name of the entity.',
};

const entityMetadata: FieldSchema = {
  type: 'map',
  description: 'Metadata of the entity, as string keys and values. Replaces the whole map when given.',
};

const entityPolicies: FieldSchema = {
  type: 'list',
  description: 'Policies granted to every token of the entity, on top of the tokens\' own policies; root is not allowed.',
  cli: { complete: 'policy' },
};

const entityDisabled: FieldSchema = {
  type: 'bool',
  description: 'Whether the entity is disabled. Tokens of a disabled entity are refused.',
};

/** POST identity/entity */
export const ENTITY_FIELDS: Fields = {
  name: {
    ...entityName,
    description:
      'Name of the entity. A new entity without a name gets one of the form entity_<8 hex>. Without "id", ' +
      'an existing entity of this name is updated.',
  },
  id: {
    type: 'string',
    key: true,
    description: 'ID of an existing entity to update; it must exist. Without it, a new entity is created unless "name" names one.',
    cli: { complete: 'entity' },
  },
  metadata: entityMetadata,
  policies: entityPolicies,
  disabled: entityDisabled,
};

/** identity/entity/id/:id */
export const ENTITY_ID_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of the entity.' },
  name: { ...entityName, description: 'New name of the entity. Names are unique.' },
  metadata: entityMetadata,
  policies: entityPolicies,
  disabled: entityDisabled,
};

/** identity/entity/name/:name */
export const ENTITY_NAME_FIELDS: Fields = {
  name: { ...entityName, description: 'Name of the entity. Writing to a name no entity has creates the entity.' },
  metadata: entityMetadata,
  policies: entityPolicies,
  disabled: entityDisabled,
};

const aliasName: FieldSchema = {
  type: 'string',
  key: true,
  description:
    'Identifier of the client in the authentication source, for example a username, or a role ID for ' +
    'role-based methods.',
};

const aliasCanonicalId: FieldSchema = {
  type: 'string',
  key: true,
  description: 'ID of the entity that owns the alias.',
  cli: { complete: 'entity' },
};

const aliasMountAccessor: FieldSchema = {
  type: 'string',
  key: true,
  description: 'Accessor of the auth mount the alias belongs to (see `svc auth list`).',
  cli: { complete: 'accessor' },
};

const aliasCustomMetadata: FieldSchema = {
  type: 'map',
  description: 'User-provided metadata describing the alias, as string keys and values. Replaces the whole map when given.',
};

/** POST identity/entity-alias */
export const ENTITY_ALIAS_FIELDS: Fields = {
  name: { ...aliasName, required: ['create'] },
  canonical_id: { ...aliasCanonicalId, required: ['create'] },
  mount_accessor: { ...aliasMountAccessor, required: ['create'] },
  id: {
    type: 'string',
    key: true,
    description: 'ID of an existing alias to update with the given values, instead of creating one; it must exist.',
    cli: { complete: 'entity-alias' },
  },
  custom_metadata: aliasCustomMetadata,
};

/** identity/entity-alias/id/:id */
export const ENTITY_ALIAS_ID_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of the alias.' },
  name: { ...aliasName, description: `${aliasName.description} Empty or absent keeps the current name.` },
  canonical_id: { ...aliasCanonicalId, description: 'ID of the entity to move the alias to. Empty or absent keeps the current entity.' },
  mount_accessor: { ...aliasMountAccessor, description: 'Accessor of the auth mount to move the alias to. Empty or absent keeps the current mount.' },
  custom_metadata: { ...aliasCustomMetadata, description: 'User-provided metadata describing the alias. Absent keeps the current map; given, it replaces it.' },
};

/** POST identity/lookup/entity: one criterion, or the alias name and mount accessor together. */
export const LOOKUP_ENTITY_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of the entity.', cli: { complete: 'entity' } },
  name: { type: 'string', key: true, description: 'Name of the entity.', cli: { complete: 'entity-name' } },
  alias_id: { type: 'string', key: true, description: 'ID of an alias of the entity.', cli: { complete: 'entity-alias' } },
  alias_name: { type: 'string', key: true, description: 'Name of an alias of the entity; needs alias_mount_accessor.' },
  alias_mount_accessor: { type: 'string', key: true, description: 'Accessor of the auth mount of the alias named by alias_name.', cli: { complete: 'accessor' } },
};
