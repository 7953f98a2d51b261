/**
 * identity/entity/merge inside one write transaction, as Vault's mergeEntity does for the API: the
 * aliases of the from entities move to the target (an alias clash on a mount is refused unless
 * conflicting_alias_ids_to_keep picks the survivor), their group memberships pass to the target, they
 * are deleted, and their IDs are recorded on the target (merged_entity_ids) so that tokens issued to
 * them act as the target. Policies are not merged, as in Vault.
 */
import { UserError } from '../../shared/errors.js';
import type { WriteTx } from '../../storage/store.js';
import { ENTITIES_TABLE, ENTITY_NAMES_TABLE, MERGED_ENTITIES_TABLE, aliasesOfTx, dropAlias, putAlias } from './entity-tables.js';
import { replaceEntityInGroups } from './group-store.js';
import type { AliasEntry, EntityEntry, MergeInput } from './identity-service.js';
import { laterThan } from './timestamps.js';

/** go-multierror's list format, which Vault's clash message is written in. */
function multiError(messages: string[]): string {
  return `${messages.length} errors occurred:\n\t${messages.map((m) => `* ${m}`).join('\n\t')}\n\n`;
}

function mergeTargets(tx: WriteTx, to: EntityEntry, input: MergeInput): EntityEntry[] {
  const keep = input.conflictingAliasIdsToKeep;
  if (input.fromEntityIds.length > 1 && keep.length > 1) {
    throw new UserError('aliases conflicts cannot be resolved with multiple from entity ids - merge one entity at a time');
  }
  const toAliases = aliasesOfTx(tx, to.id);
  const accessorOwner = new Map<string, string>();
  const clashes: string[] = [];
  const froms: EntityEntry[] = [];
  for (const fromId of [...new Set(input.fromEntityIds)]) {
    if (fromId === to.id) throw new UserError('to_entity_id should not be present in from_entity_ids');
    const from = tx.get<EntityEntry>(ENTITIES_TABLE, fromId);
    if (!from) throw new UserError('entity id to merge from is invalid');
    froms.push(from);
    for (const fromAlias of aliasesOfTx(tx, fromId)) {
      // Two from entities with aliases on one mount would leave the target two aliases there.
      const owner = accessorOwner.get(fromAlias.mountAccessor);
      if (owner !== undefined && owner !== fromId) {
        throw new UserError(`mount accessor ${fromAlias.mountAccessor} found in multiple fromEntities, merge should be done with one fromEntity at a time`);
      }
      accessorOwner.set(fromAlias.mountAccessor, fromId);
      if (keep.length > 0) continue;
      for (const toAlias of toAliases.filter((a) => a.mountAccessor === fromAlias.mountAccessor)) {
        clashes.push(
          `mountAccessor: ${toAlias.mountAccessor}, toEntity ID: ${to.id}, fromEntity ID: ${fromId}, ` +
            `conflicting toEntity alias ID: ${toAlias.id}, conflicting fromEntity alias ID: ${fromAlias.id}`,
        );
      }
    }
  }
  if (clashes.length > 0) {
    throw new UserError(
      multiError([
        'toEntity and at least one fromEntity have aliases with the same mount accessor, repeat the merge request specifying exactly one fromEntity, clashes: ',
        ...clashes,
      ]),
    );
  }
  return froms;
}

/** Moves one from entity's aliases to the target, resolving clashes by conflicting_alias_ids_to_keep. */
function moveAliases(tx: WriteTx, from: EntityEntry, to: EntityEntry, keep: string[]): void {
  const toByAccessor = new Map(aliasesOfTx(tx, to.id).map((a) => [a.mountAccessor, a]));
  for (const fromAlias of aliasesOfTx(tx, from.id)) {
    const toAlias = toByAccessor.get(fromAlias.mountAccessor);
    if (toAlias) {
      if (keep.includes(toAlias.id)) {
        dropAlias(tx, fromAlias);
        continue;
      }
      if (!keep.includes(fromAlias.id)) {
        throw new UserError(
          `conflicting mount accessors in following alias IDs and neither were present in conflicting_alias_ids_to_keep: ${fromAlias.id}, ${toAlias.id}`,
        );
      }
      dropAlias(tx, toAlias);
    }
    dropAlias(tx, fromAlias);
    const moved: AliasEntry = {
      ...fromAlias,
      canonicalId: to.id,
      mergedFromCanonicalIds: [...(fromAlias.mergedFromCanonicalIds ?? []), from.id],
      lastUpdateTimeNs: laterThan(fromAlias.lastUpdateTimeNs),
    };
    putAlias(tx, moved);
    toByAccessor.set(moved.mountAccessor, moved);
  }
}

export function mergeEntitiesInTx(tx: WriteTx, input: MergeInput): void {
  const to = tx.get<EntityEntry>(ENTITIES_TABLE, input.toEntityId);
  if (!to) throw new UserError('entity id to merge to is invalid');
  const merged = [...(to.mergedEntityIds ?? [])];
  for (const from of mergeTargets(tx, to, input)) {
    moveAliases(tx, from, to, input.conflictingAliasIdsToKeep);
    replaceEntityInGroups(tx, from.id, to.id);
    const absorbed = [...(from.mergedEntityIds ?? []), from.id];
    merged.push(...absorbed);
    for (const id of absorbed) tx.put(MERGED_ENTITIES_TABLE, id, to.id);
    tx.delete(ENTITIES_TABLE, from.id);
    if (tx.get<string>(ENTITY_NAMES_TABLE, from.name) === from.id) tx.delete(ENTITY_NAMES_TABLE, from.name);
  }
  tx.put(ENTITIES_TABLE, to.id, { ...to, mergedEntityIds: merged });
}

