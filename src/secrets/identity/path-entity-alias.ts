/**
 * identity/entity-alias: create, and by ID read, update, delete and list. Wire shapes follow Vault's
 * identity_store_aliases.go; the rules and their messages are in IdentityStore.
 */
import { NotFound, PermissionDenied } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import { ENTITY_ALIAS_FIELDS, ENTITY_ALIAS_ID_FIELDS } from './fields.js';
import { formatRfc3339Nano } from './timestamps.js';
import type { AliasEntry, IdentityService } from './identity-service.js';

/** An alias as GET identity/entity-alias/id/:id answers it, and as entity reads list their aliases. */
export function aliasData(store: IdentityService, alias: AliasEntry): Record<string, unknown> {
  const mount = store.mountOf(alias);
  return {
    id: alias.id,
    canonical_id: alias.canonicalId,
    mount_accessor: alias.mountAccessor,
    mount_path: mount?.path ?? '',
    mount_type: mount?.type ?? '',
    name: alias.name,
    metadata: alias.metadata,
    custom_metadata: alias.customMetadata,
    merged_from_canonical_ids: alias.mergedFromCanonicalIds ?? null,
    namespace_id: 'root',
    local: false,
    creation_time: formatRfc3339Nano(alias.creationTimeNs),
    last_update_time: formatRfc3339Nano(alias.lastUpdateTimeNs),
  };
}

/**
 * A write that changes an existing record through a path that ACLs see as `create` (Vault checks
 * `update` there) also needs `update`, so a policy meant for registering new aliases cannot be used to
 * re-point existing ones at another entity.
 */
export function requireUpdateCapability(req: SecretsRequest): void {
  if (req.caller && !req.caller.acl.allows(req.fullPath, 'update')) throw new PermissionDenied();
}

const written = (alias: AliasEntry) => ({ data: { id: alias.id, canonical_id: alias.canonicalId } });

export const entityAliasPaths = [
  definePath({
    pattern: 'entity-alias',
    fields: ENTITY_ALIAS_FIELDS,
    synopsis: 'Create a new alias.',
    description:
      'Creates an entity alias: the identity "name" in the auth mount with accessor "mount_accessor", ' +
      'owned by the entity "canonical_id". With "id", that alias is updated instead.',
    operations: {
      create: {
        summary: 'Creates an alias, or updates the one named by "id".',
        async handler(req, data) {
          const store = req.services.identity;
          const fields = {
            name: data.get<string>('name'),
            canonicalId: data.get<string>('canonical_id'),
            mountAccessor: data.get<string>('mount_accessor'),
            customMetadata: data.getOk<Record<string, string>>('custom_metadata'),
          };
          const id = data.get<string>('id');
          if (id !== '') {
            requireUpdateCapability(req);
            const { alias, changed } = await store.updateAlias(id, fields);
            return changed ? written(alias) : undefined;
          }
          return written(await store.createAlias(fields));
        },
      },
    },
  }),
  definePath({
    pattern: 'entity-alias/id',
    fields: {},
    synopsis: 'List the aliases by ID.',
    description: 'Lists the IDs of all entity aliases, with their name, entity and mount in key_info.',
    operations: {
      list: {
        summary: 'Lists the aliases by ID.',
        async handler(req) {
          const store = req.services.identity;
          const aliases = store.listAliases();
          const keyInfo: Record<string, unknown> = {};
          for (const alias of aliases) {
            const mount = store.mountOf(alias);
            keyInfo[alias.id] = {
              name: alias.name,
              canonical_id: alias.canonicalId,
              mount_accessor: alias.mountAccessor,
              mount_type: mount?.type ?? '',
              mount_path: mount?.path ?? '',
              custom_metadata: alias.customMetadata,
              local: false,
            };
          }
          return { data: { keys: aliases.map((a) => a.id), key_info: keyInfo } };
        },
      },
    },
  }),
  definePath({
    pattern: 'entity-alias/id/:id',
    fields: ENTITY_ALIAS_ID_FIELDS,
    synopsis: 'Read, update or delete an alias by its ID.',
    description:
      'Reads, updates or deletes the alias with the given ID. An update changes only the fields given, ' +
      'and is checked by the same rules as a create.',
    operations: {
      read: {
        summary: 'Reads the alias.',
        async handler(req, data) {
          const store = req.services.identity;
          const alias = store.getAlias(data.get<string>('id'));
          if (!alias) throw new NotFound();
          return { data: aliasData(store, alias) };
        },
      },
      update: {
        summary: 'Updates the alias.',
        async handler(req, data) {
          const { alias, changed } = await req.services.identity.updateAlias(data.get<string>('id'), {
            name: data.getOk<string>('name'),
            canonicalId: data.getOk<string>('canonical_id'),
            mountAccessor: data.getOk<string>('mount_accessor'),
            customMetadata: data.getOk<Record<string, string>>('custom_metadata'),
          });
          return changed ? written(alias) : undefined;
        },
      },
      delete: {
        summary: 'Deletes the alias; deleting a missing alias is not an error.',
        async handler(req, data) {
          await req.services.identity.deleteAlias(data.get<string>('id'));
        },
      },
    },
  }),
];
