/**
 * identity/lookup/entity: finds an entity by ID, name, alias ID, or alias name and mount accessor, as
 * Vault's identity/lookup.go does. The answer is the entity as identity/entity/id/:id reads it, 204 when
 * nothing matches, and 400 unless exactly one criterion (or the alias pair) is given.
 */
import { UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import { LOOKUP_ENTITY_FIELDS } from './fields.js';
import type { EntityEntry } from './identity-service.js';
import { entityData } from './path-entity.js';

const CRITERIA = 'one of "id", "name", "alias_id" or a pair of "alias_name" and "alias_mount_accessor" must be supplied';

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
          const id = data.getOk<string>('id');
          const name = data.getOk<string>('name');
          const aliasId = data.getOk<string>('alias_id');
          const aliasName = data.getOk<string>('alias_name');
          const accessor = data.getOk<string>('alias_mount_accessor');
          const given = [id, name, aliasId, aliasName, accessor].filter((v) => v !== undefined).length;
          if (given === 0) throw new UserError(CRITERIA);
          if (given > 2 || (given === 2 && (!aliasName || !accessor))) throw new UserError(`only ${CRITERIA}`);
          if (given === 1 && (aliasName || accessor)) throw new UserError('alias_name and alias_mount_accessor must both be supplied');

          const store = req.services.identity;
          let entity: EntityEntry | undefined;
          if (id) entity = store.getEntity(id);
          else if (name) entity = store.getEntityByName(name);
          else if (aliasId) {
            const alias = store.getAlias(aliasId);
            entity = alias && store.getEntity(alias.canonicalId);
          } else if (aliasName && accessor) {
            const alias = store.getAliasByFactors(accessor, aliasName);
            entity = alias && store.getEntity(alias.canonicalId);
          }
          if (entity) return { data: entityData(store, entity) };
        },
      },
    },
  }),
];
