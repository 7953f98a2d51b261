/**
 * identity/lookup/entity and identity/lookup/group: find an entity or a group by ID, name, alias ID, or
 * alias name and mount accessor, as Vault's identity_lookup.go does. The answer is the record as its
 * read path answers it, 204 when nothing matches, and 400 unless exactly one criterion (or the alias pair)
 * is given.
 */
import { UserError } from '../../shared/errors.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import { definePath } from '../framework/path.js';
import { LOOKUP_ENTITY_FIELDS, LOOKUP_GROUP_FIELDS } from './fields.js';
import type { EntityEntry, GroupEntry } from './identity-service.js';
import { entityData } from './path-entity.js';
import { groupData } from './path-group.js';

const CRITERIA = 'one of "id", "name", "alias_id" or a pair of "alias_name" and "alias_mount_accessor" must be supplied';

type Criterion = { id: string } | { name: string } | { aliasId: string } | { aliasName: string; accessor: string };

/** The one criterion the caller gave; the same fields and rules for entities and groups. */
function criterion(data: FieldData): Criterion {
  const id = data.getOk<string>('id');
  const name = data.getOk<string>('name');
  const aliasId = data.getOk<string>('alias_id');
  const aliasName = data.getOk<string>('alias_name');
  const accessor = data.getOk<string>('alias_mount_accessor');
  const given = [id, name, aliasId, aliasName, accessor].filter((v) => v !== undefined).length;
  if (given === 0) throw new UserError(CRITERIA);
  if (given > 2 || (given === 2 && (!aliasName || !accessor))) throw new UserError(`only ${CRITERIA}`);
  if (given === 1 && (aliasName || accessor)) throw new UserError('alias_name and alias_mount_accessor must both be supplied');
  if (id !== undefined) return { id };
  if (name !== undefined) return { name };
  if (aliasId !== undefined) return { aliasId };
  return { aliasName: aliasName!, accessor: accessor! };
}

export const lookupPaths = [
  definePath({
    pattern: 'lookup/entity',
    fields: LOOKUP_ENTITY_FIELDS,
    synopsis: 'Look up an entity by one of its identifiers.',
    description:
      'Answers the entity with the given "id", "name", an alias with "alias_id", or the alias with ' +
      '"alias_name" in the mount "alias_mount_accessor"; no content when none matches.',
    operations: {
      update: {
        summary: 'Looks up an entity.',
        async handler(req, data) {
          const c = criterion(data);
          const store = req.services.identity;
          let entity: EntityEntry | undefined;
          if ('id' in c) entity = c.id ? store.getEntity(c.id) : undefined;
          else if ('name' in c) entity = c.name ? store.getEntityByName(c.name) : undefined;
          else {
            const alias = 'aliasId' in c ? c.aliasId && store.getAlias(c.aliasId) : store.getAliasByFactors(c.accessor, c.aliasName);
            entity = alias ? store.getEntity(alias.canonicalId) : undefined;
          }
          if (entity) return { data: entityData(store, entity) };
        },
      },
    },
  }),
  definePath({
    pattern: 'lookup/group',
    fields: LOOKUP_GROUP_FIELDS,
    synopsis: 'Look up a group by one of its identifiers.',
    description:
      'Answers the group with the given "id", "name", the alias with "alias_id", or the alias with ' +
      '"alias_name" in the mount "alias_mount_accessor"; no content when none matches.',
    operations: {
      update: {
        summary: 'Looks up a group.',
        async handler(req, data) {
          const c = criterion(data);
          const store = req.services.identity;
          let group: GroupEntry | undefined;
          if ('id' in c) group = c.id ? store.getGroup(c.id) : undefined;
          else if ('name' in c) group = c.name ? store.getGroupByName(c.name) : undefined;
          else if ('aliasId' in c) group = c.aliasId ? store.groupByAliasId(c.aliasId) : undefined;
          else group = store.groupByAliasFactors(c.accessor, c.aliasName);
          if (group) return { data: groupData(req.services, group) };
        },
      },
    },
  }),
];
