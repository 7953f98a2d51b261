/**
 * identity/group: create or update, and read, update, delete and list by ID or by name. Wire shapes
 * follow Vault's identity_store_groups.go: a write that creates answers {id, name}, a write that updates
 * answers 204, and member_group_ids is computed from the groups that name this one as a parent.
 */
import { NotFound } from '../../shared/errors.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { SecretsContext } from '../context.js';
import { definePath } from '../framework/path.js';
import type { SecretsResponse } from '../framework/request.js';
import { GROUP_FIELDS, GROUP_ID_FIELDS, GROUP_NAME_FIELDS } from './fields.js';
import type { GroupAliasEntry, GroupEntry, GroupInput, IdentityService } from './identity-service.js';
import { requireUpdateCapability } from './path-entity-alias.js';
import { groupAliasData } from './path-group-alias.js';
import { formatRfc3339Nano } from './timestamps.js';

/** A group alias as Vault embeds it in a group read: its read, less the keys the embedding leaves out. */
function embeddedAlias(services: SecretsContext, alias: GroupAliasEntry): Record<string, unknown> {
  const { custom_metadata: _, namespace_id: __, local: ___, ...embedded } = groupAliasData(services, alias);
  return embedded;
}

/** The group as identity/group/id/:id reads it. Vault answers null for the ID lists it builds by appending. */
export function groupData(services: SecretsContext, group: GroupEntry): Record<string, unknown> {
  const memberGroupIds = services.identity.memberGroupIds(group.id);
  return {
    id: group.id,
    name: group.name,
    type: group.type,
    policies: group.policies,
    member_entity_ids: group.memberEntityIds,
    member_group_ids: memberGroupIds.length > 0 ? memberGroupIds : null,
    parent_group_ids: group.parentGroupIds.length > 0 ? group.parentGroupIds : null,
    metadata: group.metadata,
    creation_time: formatRfc3339Nano(group.creationTimeNs),
    last_update_time: formatRfc3339Nano(group.lastUpdateTimeNs),
    modify_index: group.modifyIndex,
    namespace_id: 'root',
    alias: group.alias ? embeddedAlias(services, group.alias) : {},
  };
}

function keyInfo(services: SecretsContext, group: GroupEntry): Record<string, unknown> {
  const info: Record<string, unknown> = {
    name: group.name,
    num_member_entities: group.memberEntityIds.length,
    num_parent_groups: group.parentGroupIds.length,
  };
  if (group.alias) {
    const mount = services.mounts.byAccessor(group.alias.mountAccessor);
    info.alias = {
      id: group.alias.id,
      name: group.alias.name,
      mount_accessor: group.alias.mountAccessor,
      ...(mount ? { mount_type: mount.type, mount_path: mount.path } : {}),
    };
  }
  return info;
}

/** The group fields every write path accepts, only those the caller sent. */
function commonInput(data: FieldData): GroupInput {
  return {
    type: data.getOk<string>('type'),
    policies: data.getOk<string[]>('policies'),
    metadata: data.getOk<Record<string, string>>('metadata'),
    memberEntityIds: data.getOk<string[]>('member_entity_ids'),
    memberGroupIds: data.getOk<string[]>('member_group_ids'),
  };
}

async function write(store: IdentityService, id: string | undefined, input: GroupInput): Promise<SecretsResponse | void> {
  const { group, created } = await store.upsertGroup(id, input);
  if (created) return { data: { id: group.id, name: group.name } };
}

function found(group: GroupEntry | undefined): GroupEntry {
  if (!group) throw new NotFound();
  return group;
}

export const groupPaths = [
  definePath({
    pattern: 'group',
    fields: GROUP_FIELDS,
    synopsis: 'Create a new group, or update one.',
    description:
      'Creates a group. With "id", or with the "name" of an existing group, that group is updated instead: ' +
      'only the fields given change. The policies of a group join the identity policies of the tokens of ' +
      'its member entities, and of the members of its member groups.',
    operations: {
      create: {
        summary: 'Creates a group, or updates the one named by "id" or "name".',
        async handler(req, data) {
          const store = req.services.identity;
          const id = data.getOk<string>('id');
          const name = data.getOk<string>('name');
          if (id || (name && store.getGroupByName(name))) requireUpdateCapability(req);
          return write(store, id || undefined, { ...commonInput(data), name });
        },
      },
    },
  }),
  definePath({
    pattern: 'group/id',
    fields: {},
    synopsis: 'List the groups by ID.',
    description: 'Lists the IDs of all groups, with their names, member counts and alias in key_info.',
    operations: {
      list: {
        summary: 'Lists the groups by ID.',
        async handler(req) {
          const groups = req.services.identity.listGroups();
          return {
            data: { keys: groups.map((g) => g.id), key_info: Object.fromEntries(groups.map((g) => [g.id, keyInfo(req.services, g)])) },
          };
        },
      },
    },
  }),
  definePath({
    pattern: 'group/id/:id',
    fields: GROUP_ID_FIELDS,
    synopsis: 'Read, update or delete a group by its ID.',
    description: 'Reads, updates or deletes the group with the given ID. Deleting a group deletes its alias.',
    operations: {
      read: {
        summary: 'Reads the group.',
        async handler(req, data) {
          return { data: groupData(req.services, found(req.services.identity.getGroup(data.get<string>('id')))) };
        },
      },
      update: {
        summary: 'Updates the group; only the fields given change.',
        handler: (req, data) => write(req.services.identity, data.get<string>('id'), { ...commonInput(data), name: data.getOk<string>('name') }),
      },
      delete: {
        summary: 'Deletes the group and its alias; deleting a missing group is not an error.',
        async handler(req, data) {
          await req.services.identity.deleteGroup(data.get<string>('id'));
        },
      },
    },
  }),
  definePath({
    pattern: 'group/name',
    fields: {},
    synopsis: 'List the groups by name.',
    description: 'Lists the names of all groups.',
    operations: {
      list: {
        summary: 'Lists the groups by name.',
        async handler(req) {
          const names = req.services.identity.listGroups().map((g) => g.name);
          return { data: { keys: names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) } };
        },
      },
    },
  }),
  definePath({
    pattern: 'group/name/:name',
    fields: GROUP_NAME_FIELDS,
    existenceCheck: (req, data) => req.services.identity.getGroupByName(data.get<string>('name')) !== undefined,
    synopsis: 'Create, read, update or delete a group by its name.',
    description:
      'Reads, updates or deletes the group with the given name. Writing to a name that no group has ' +
      'creates the group. Deleting a group deletes its alias.',
    operations: {
      read: {
        summary: 'Reads the group.',
        async handler(req, data) {
          return { data: groupData(req.services, found(req.services.identity.getGroupByName(data.get<string>('name')))) };
        },
      },
      create: {
        summary: 'Creates a group with this name.',
        handler: (req, data) => write(req.services.identity, undefined, { ...commonInput(data), name: data.get<string>('name') }),
      },
      update: {
        summary: 'Updates the group; only the fields given change.',
        handler: (req, data) => write(req.services.identity, undefined, { ...commonInput(data), name: data.get<string>('name') }),
      },
      delete: {
        summary: 'Deletes the group and its alias; deleting a missing group is not an error.',
        async handler(req, data) {
          await req.services.identity.deleteGroupByName(data.get<string>('name'));
        },
      },
    },
  }),
];
