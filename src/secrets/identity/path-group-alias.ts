/**
 * identity/group-alias: create, and by ID read, update, delete and list. A group alias links an
 * external group to a group of an auth method's source (a name within an auth mount); wire shapes follow
 * Vault's identity_store_group_aliases.go, and the rules and their messages are in group-store.ts.
 */
import { NotFound } from '../../shared/errors.js';
import type { SecretsContext } from '../context.js';
import { definePath } from '../framework/path.js';
import { GROUP_ALIAS_FIELDS, GROUP_ALIAS_ID_FIELDS } from './fields.js';
import type { GroupAliasEntry } from './identity-service.js';
import { requireUpdateCapability } from './path-entity-alias.js';
import { formatRfc3339Nano } from './timestamps.js';

/** As Vault's handleAliasReadCommon answers a group alias: group aliases carry no metadata of either kind. */
export function groupAliasData(services: SecretsContext, alias: GroupAliasEntry): Record<string, unknown> {
  const mount = services.mounts.byAccessor(alias.mountAccessor);
  return {
    id: alias.id,
    canonical_id: alias.canonicalId,
    mount_accessor: alias.mountAccessor,
    metadata: null,
    custom_metadata: null,
    name: alias.name,
    merged_from_canonical_ids: null,
    namespace_id: 'root',
    local: false,
    ...(mount ? { mount_path: mount.path, mount_type: mount.type } : {}),
    creation_time: formatRfc3339Nano(alias.creationTimeNs),
    last_update_time: formatRfc3339Nano(alias.lastUpdateTimeNs),
  };
}

const written = (alias: GroupAliasEntry | undefined) => (alias ? { data: { id: alias.id, canonical_id: alias.canonicalId } } : undefined);

export const groupAliasPaths = [
  definePath({
    pattern: 'group-alias',
    fields: GROUP_ALIAS_FIELDS,
    synopsis: 'Create a new group alias.',
    description:
      'Creates a group alias: the group "name" in the auth mount with accessor "mount_accessor", attached ' +
      'to the external group "canonical_id" (a new external group when absent). With "id", that alias is ' +
      'updated instead.',
    operations: {
      create: {
        summary: 'Creates a group alias, or updates the one named by "id".',
        async handler(req, data) {
          const id = data.get<string>('id');
          if (id !== '') requireUpdateCapability(req);
          const input = { name: data.get<string>('name'), mountAccessor: data.get<string>('mount_accessor'), canonicalId: data.getOk<string>('canonical_id') };
          return written(await req.services.identity.writeGroupAlias(id === '' ? undefined : id, input));
        },
      },
    },
  }),
  definePath({
    pattern: 'group-alias/id',
    fields: {},
    synopsis: 'List the group aliases by ID.',
    description: 'Lists the IDs of all group aliases, with their name, group and mount in key_info.',
    operations: {
      list: {
        summary: 'Lists the group aliases by ID.',
        async handler(req) {
          const aliases = req.services.identity.listGroupAliases();
          const keyInfo: Record<string, unknown> = {};
          for (const alias of aliases) {
            const mount = req.services.mounts.byAccessor(alias.mountAccessor);
            keyInfo[alias.id] = {
              name: alias.name,
              canonical_id: alias.canonicalId,
              mount_accessor: alias.mountAccessor,
              custom_metadata: null,
              metadata: null,
              local: false,
              ...(mount ? { mount_type: mount.type, mount_path: mount.path } : {}),
            };
          }
          return { data: { keys: aliases.map((a) => a.id), key_info: keyInfo } };
        },
      },
    },
  }),
  definePath({
    pattern: 'group-alias/id/:id',
    fields: GROUP_ALIAS_ID_FIELDS,
    synopsis: 'Read, update or delete a group alias by its ID.',
    description:
      'Reads, updates or deletes the group alias with the given ID. An update needs the name and the mount ' +
      'accessor, as Vault does, and moves the alias when given another external group in canonical_id.',
    operations: {
      read: {
        summary: 'Reads the group alias.',
        async handler(req, data) {
          const alias = req.services.identity.groupByAliasId(data.get<string>('id'))?.alias;
          if (!alias) throw new NotFound();
          return { data: groupAliasData(req.services, alias) };
        },
      },
      update: {
        summary: 'Updates the group alias.',
        async handler(req, data) {
          const input = { name: data.get<string>('name'), mountAccessor: data.get<string>('mount_accessor'), canonicalId: data.getOk<string>('canonical_id') };
          return written(await req.services.identity.writeGroupAlias(data.get<string>('id'), input));
        },
      },
      delete: {
        summary: 'Deletes the group alias; its group stays. Deleting a missing alias is not an error.',
        async handler(req, data) {
          await req.services.identity.deleteGroupAlias(data.get<string>('id'));
        },
      },
    },
  }),
];
