/**
 * Field schemas of the identity endpoints. They live apart from the handlers because the CLI builds its
 * flags from them, and the CLI bundle must not pull in server code.
 */
import type { FieldSchema, Fields } from '../../framework/schema/field-schema.js';

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

const groupName: FieldSchema = { type: 'string', key: true, description: 'Name of the group.' };

const groupFields: Fields = {
  type: {
    type: 'string',
    description:
      'Type of the group: "internal" (members set here) or "external" (membership comes from the group ' +
      'alias, which the auth method reports at login). Defaults to internal; cannot be changed.',
  },
  metadata: { type: 'map', description: 'Metadata of the group, as string keys and values. Replaces the whole map when given.' },
  policies: {
    type: 'list',
    description: 'Policies granted to every token of a member entity, also through member groups; root is not allowed.',
    cli: { complete: 'policy' },
  },
  member_entity_ids: {
    type: 'list',
    key: true,
    description: 'IDs of the entities that are members of the group; replaces the list when given. Internal groups only.',
    cli: { complete: 'entity' },
  },
  member_group_ids: {
    type: 'list',
    key: true,
    description:
      'IDs of the groups that are members of the group, and so gain its policies; replaces the list when ' +
      'given. Internal groups only; a group cannot contain itself, directly or through others.',
  },
};

/** POST identity/group */
export const GROUP_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of an existing group to update; it must exist.' },
  name: {
    ...groupName,
    description: 'Name of the group. A new group without a name gets one of the form group_<8 hex>. Without "id", an existing group of this name is updated.',
  },
  ...groupFields,
};

/** identity/group/id/:id */
export const GROUP_ID_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of the group.' },
  name: { ...groupName, description: 'New name of the group. Names are unique.' },
  ...groupFields,
};

/** identity/group/name/:name */
export const GROUP_NAME_FIELDS: Fields = {
  name: { ...groupName, description: 'Name of the group. Writing to a name no group has creates the group.' },
  ...groupFields,
};

const groupAliasFields: Fields = {
  name: { type: 'string', key: true, description: 'Name of the group in the auth method\'s source, as the method reports it at login.' },
  mount_accessor: { type: 'string', key: true, description: 'Accessor of the auth mount the alias belongs to (see `svc auth list`).', cli: { complete: 'accessor' } },
  canonical_id: {
    type: 'string',
    key: true,
    description: 'ID of the external group the alias belongs to. Without it, a new alias gets a new external group, and an update keeps its group.',
  },
};

/** POST identity/group-alias */
export const GROUP_ALIAS_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of an existing group alias to update instead of creating one; it must exist.' },
  ...groupAliasFields,
};

/** identity/group-alias/id/:id */
export const GROUP_ALIAS_ID_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of the group alias.' },
  ...groupAliasFields,
};

/** POST identity/lookup/group: one criterion, or the alias name and mount accessor together. */
export const LOOKUP_GROUP_FIELDS: Fields = {
  id: { type: 'string', key: true, description: 'ID of the group.' },
  name: { type: 'string', key: true, description: 'Name of the group.' },
  alias_id: { type: 'string', key: true, description: 'ID of the alias of the group.' },
  alias_name: { type: 'string', key: true, description: 'Name of the alias of the group; needs alias_mount_accessor.' },
  alias_mount_accessor: { type: 'string', key: true, description: 'Accessor of the auth mount of the alias named by alias_name.', cli: { complete: 'accessor' } },
};

/** POST identity/entity/merge */
export const ENTITY_MERGE_FIELDS: Fields = {
  from_entity_ids: {
    type: 'list',
    key: true,
    description: 'IDs of the entities to merge into to_entity_id; they are deleted, and their tokens act as to_entity_id from then on.',
    cli: { complete: 'entity' },
  },
  to_entity_id: { type: 'string', key: true, description: 'ID of the entity the others are merged into.', cli: { complete: 'entity' } },
  conflicting_alias_ids_to_keep: {
    type: 'list',
    key: true,
    description:
      'Where the target and a from entity both have an alias on one mount, the ID of the alias to keep; the ' +
      'other is deleted. Needs a single from entity when more than one ID is given.',
    cli: { complete: 'entity-alias' },
  },
  force: {
    type: 'bool',
    description: 'Vault\'s flag for merging MFA secrets, accepted for compatibility; entities here hold none, so it changes nothing.',
  },
};
