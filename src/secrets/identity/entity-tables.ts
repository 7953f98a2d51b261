/**
 * The entity tables and the index entries written with every alias, shared by the identity store, group
 * membership and entity merges so that each keeps the indexes the same way.
 *
 * Tables:
 *   entities           entity id → EntityEntry
 *   entity-names       entity name → entity id
 *   entity-aliases     alias id → AliasEntry
 *   alias-keys         `<mount accessor>/<alias name>` → alias id (accessors never contain '/')
 *   aliases-by-entity  `<entity id>/<alias id>` → alias id
 *   merged-entities    id of an entity merged into another → the id of the entity it now is
 */
import type { WriteTx } from '../../storage/store.js';
import type { AliasEntry } from './identity-service.js';

export const ENTITIES_TABLE = 'entities';
export const ENTITY_NAMES_TABLE = 'entity-names';
export const ALIASES_TABLE = 'entity-aliases';
export const ALIAS_KEYS_TABLE = 'alias-keys';
export const ALIASES_BY_ENTITY_TABLE = 'aliases-by-entity';
export const MERGED_ENTITIES_TABLE = 'merged-entities';

export const aliasKey = (mountAccessor: string, name: string): string => `${mountAccessor}/${name}`;
const byEntityKey = (entityId: string, aliasId: string): string => `${entityId}/${aliasId}`;

export function aliasesOfTx(tx: Pick<WriteTx, 'get' | 'list'>, entityId: string): AliasEntry[] {
  return tx
    .list<string>(ALIASES_BY_ENTITY_TABLE, `${entityId}/`)
    .map((e) => tx.get<AliasEntry>(ALIASES_TABLE, e.value))
    .filter((a): a is AliasEntry => a !== undefined);
}

export function putAlias(tx: WriteTx, alias: AliasEntry): void {
  tx.put(ALIASES_TABLE, alias.id, alias);
  tx.put(ALIAS_KEYS_TABLE, aliasKey(alias.mountAccessor, alias.name), alias.id);
  tx.put(ALIASES_BY_ENTITY_TABLE, byEntityKey(alias.canonicalId, alias.id), alias.id);
}

export function dropAlias(tx: WriteTx, alias: AliasEntry): void {
  tx.delete(ALIASES_TABLE, alias.id);
  // Only remove index entries that still point at this alias: a racing writer may own the key now.
  if (tx.get<string>(ALIAS_KEYS_TABLE, aliasKey(alias.mountAccessor, alias.name)) === alias.id) {
    tx.delete(ALIAS_KEYS_TABLE, aliasKey(alias.mountAccessor, alias.name));
  }
  tx.delete(ALIASES_BY_ENTITY_TABLE, byEntityKey(alias.canonicalId, alias.id));
}
