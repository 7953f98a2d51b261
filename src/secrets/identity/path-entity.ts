/**
 * identity/entity: create or update, and read, update, delete and list by ID or by name. Wire shapes
 * follow Vault's identity_store_entities.go: a write that creates answers {id, name, aliases}, a write
 * that updates answers 204. identity/entity/merge folds entities into one (entity-merge.ts has the rules).
 */
import { NotFound, UserError } from '../../shared/errors.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import { definePath } from '../framework/path.js';
import type { SecretsResponse } from '../framework/request.js';
import { ENTITY_FIELDS, ENTITY_ID_FIELDS, ENTITY_MERGE_FIELDS, ENTITY_NAME_FIELDS } from './fields.js';
import { formatRfc3339Nano } from './timestamps.js';
import type { EntityEntry, EntityInput, IdentityService } from './identity-service.js';
import { aliasData, requireUpdateCapability } from './path-entity-alias.js';

/** The entity as identity/entity/id/:id reads it, with the groups it belongs to as Vault lists them. */
export function entityData(store: IdentityService, entity: EntityEntry): Record<string, unknown> {
  const groups = store.groupsOfEntity(entity.id);
  return {
    id: entity.id,
    name: entity.name,
    policies: entity.policies,
    metadata: entity.metadata,
    disabled: entity.disabled,
    aliases: store.aliasesOf(entity.id).map((a) => aliasData(store, a)),
    creation_time: formatRfc3339Nano(entity.creationTimeNs),
    last_update_time: formatRfc3339Nano(entity.lastUpdateTimeNs),
    direct_group_ids: groups.direct,
    group_ids: [...groups.direct, ...groups.inherited],
    inherited_group_ids: groups.inherited,
    merged_entity_ids: entity.mergedEntityIds ?? null,
    namespace_id: 'root',
    bucket_key: '',
  };
}

function keyInfo(store: IdentityService, entity: EntityEntry): Record<string, unknown> {
  const info: Record<string, unknown> = { name: entity.name };
  const aliases = store.aliasesOf(entity.id);
  if (aliases.length > 0) {
    info.aliases = aliases.map((a) => {
      const mount = store.mountOf(a);
      return { id: a.id, name: a.name, mount_accessor: a.mountAccessor, mount_type: mount?.type ?? '', mount_path: mount?.path ?? '' };
    });
  }
  return info;
}

/** The entity fields every write path accepts, only those the caller sent. */
function commonInput(data: FieldData): EntityInput {
  return {
    policies: data.getOk<string[]>('policies'),
    metadata: data.getOk<Record<string, string>>('metadata'),
    disabled: data.getOk<boolean>('disabled'),
  };
}

async function write(store: IdentityService, input: EntityInput): Promise<SecretsResponse | void> {
  const { entity, created } = await store.upsertEntity(input);
  if (created) return { data: { id: entity.id, name: entity.name, aliases: null } };
}

function found(entity: EntityEntry | undefined): EntityEntry {
  if (!entity) throw new NotFound();
  return entity;
}

export const entityPaths = [
  definePath({
    pattern: 'entity',
    fields: ENTITY_FIELDS,
    synopsis: 'Create a new entity, or update one.',
    description:
      'Creates an entity. With "id", or with the "name" of an existing entity, that entity is updated ' +
      'instead: only the fields given change.',
    operations: {
      create: {
        summary: 'Creates an entity, or updates the one named by "id" or "name".',
        async handler(req, data) {
          const store = req.services.identity;
          const id = data.getOk<string>('id');
          const name = data.getOk<string>('name');
          if (id || (name && store.getEntityByName(name))) requireUpdateCapability(req);
          return write(store, { ...commonInput(data), id, name });
        },
      },
    },
  }),
  definePath({
    pattern: 'entity/id',
    fields: {},
    synopsis: 'List the entities by ID.',
    description: 'Lists the IDs of all entities, with their names and aliases in key_info.',
    operations: {
      list: {
        summary: 'Lists the entities by ID.',
        async handler(req) {
          const store = req.services.identity;
          const entities = store.listEntities();
          return {
            data: { keys: entities.map((e) => e.id), key_info: Object.fromEntries(entities.map((e) => [e.id, keyInfo(store, e)])) },
          };
        },
      },
    },
  }),
  definePath({
    pattern: 'entity/id/:id',
    patch: true,
    fields: ENTITY_ID_FIELDS,
    synopsis: 'Read, update or delete an entity by its ID.',
    description: 'Reads, updates or deletes the entity with the given ID. Deleting an entity deletes its aliases.',
    operations: {
      read: {
        summary: 'Reads the entity.',
        async handler(req, data) {
          const store = req.services.identity;
          return { data: entityData(store, found(store.getEntity(data.get<string>('id')))) };
        },
      },
      update: {
        summary: 'Updates the entity; only the fields given change.',
        async handler(req, data) {
          return write(req.services.identity, { ...commonInput(data), id: data.get<string>('id'), name: data.getOk<string>('name') });
        },
      },
      delete: {
        summary: 'Deletes the entity and its aliases; deleting a missing entity is not an error.',
        async handler(req, data) {
          await req.services.identity.deleteEntity(data.get<string>('id'));
        },
      },
    },
  }),
  definePath({
    pattern: 'entity/name',
    fields: {},
    synopsis: 'List the entities by name.',
    description: 'Lists the names of all entities, with their IDs and aliases in key_info.',
    operations: {
      list: {
        summary: 'Lists the entities by name.',
        async handler(req) {
          const store = req.services.identity;
          const entities = store.listEntities().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          return {
            data: {
              keys: entities.map((e) => e.name),
              key_info: Object.fromEntries(entities.map((e) => [e.name, { id: e.id, ...keyInfo(store, e) }])),
            },
          };
        },
      },
    },
  }),
  definePath({
    pattern: 'entity/name/:name',
    patch: true,
    fields: ENTITY_NAME_FIELDS,
    existenceCheck: (req, data) => req.services.identity.getEntityByName(data.get<string>('name')) !== undefined,
    synopsis: 'Create, read, update or delete an entity by its name.',
    description:
      'Reads, updates or deletes the entity with the given name. Writing to a name that no entity has ' +
      'creates the entity. Deleting an entity deletes its aliases.',
    operations: {
      read: {
        summary: 'Reads the entity.',
        async handler(req, data) {
          const store = req.services.identity;
          return { data: entityData(store, found(store.getEntityByName(data.get<string>('name')))) };
        },
      },
      create: {
        summary: 'Creates an entity with this name.',
        handler: (req, data) => write(req.services.identity, { ...commonInput(data), name: data.get<string>('name') }),
      },
      update: {
        summary: 'Updates the entity; only the fields given change.',
        handler: (req, data) => write(req.services.identity, { ...commonInput(data), name: data.get<string>('name') }),
      },
      delete: {
        summary: 'Deletes the entity and its aliases; deleting a missing entity is not an error.',
        async handler(req, data) {
          await req.services.identity.deleteEntityByName(data.get<string>('name'));
        },
      },
    },
  }),
  definePath({
    pattern: 'entity/merge',
    fields: ENTITY_MERGE_FIELDS,
    synopsis: 'Merge two or more entities together.',
    description:
      'Moves the aliases and group memberships of the entities in "from_entity_ids" to "to_entity_id" and ' +
      'deletes them; their IDs are kept in merged_entity_ids, so their tokens act as the target from then ' +
      'on. An alias of a from entity on a mount where the target has one is refused unless ' +
      '"conflicting_alias_ids_to_keep" names the one to keep. Policies are not merged.',
    operations: {
      update: {
        summary: 'Merges the entities.',
        async handler(req, data) {
          const toEntityId = data.get<string>('to_entity_id');
          if (toEntityId === '') throw new UserError('missing entity id to merge to');
          const fromEntityIds = data.get<string[]>('from_entity_ids');
          if (fromEntityIds.length === 0) throw new UserError('missing entity ids to merge from');
          await req.services.identity.mergeEntities({
            toEntityId,
            fromEntityIds,
            conflictingAliasIdsToKeep: data.get<string[]>('conflicting_alias_ids_to_keep'),
          });
        },
      },
    },
  }),
];
