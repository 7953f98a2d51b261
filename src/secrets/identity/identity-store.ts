/**
 * The identity store: entities (the people and machines behind tokens), entity aliases (an identity in
 * one auth mount: a name plus the mount's accessor) and groups of entities. Every rule that relates two
 * records — unique entity names, one alias per (mount, name), one alias per entity and mount — is
 * checked inside the write transaction that changes them, against the secondary index tables written in
 * that same transaction (entity-tables.ts and group-store.ts list them), so the rules hold when requests
 * race and when several servers share the store.
 */
import { UserError } from '../../shared/errors.js';
import { shortHex, uuid } from '../../shared/ids.js';
import type { Store, WriteTx } from '../../storage/store.js';
import type { MountEntry, MountService } from '../mounts/mount-service.js';
import { mergeEntitiesInTx } from './entity-merge.js';
import {
  ALIASES_TABLE,
  ALIAS_KEYS_TABLE,
  ENTITIES_TABLE,
  ENTITY_NAMES_TABLE,
  MERGED_ENTITIES_TABLE,
  aliasKey,
  aliasesOfTx,
  dropAlias,
  putAlias,
} from './entity-tables.js';
import {
  GROUPS_TABLE,
  deleteGroupAliasInTx,
  deleteGroupInTx,
  groupByAliasFactors,
  groupByAliasId,
  groupById,
  groupByName,
  groupsOfEntityIn,
  memberGroupIdsOf,
  removeEntityFromGroups,
  removeGroupAliasesOfMountInTx,
  upsertGroupInTx,
  writeGroupAliasInTx,
} from './group-store.js';
import { cleanPolicies, mountByAccessor, sameMap, withoutRoot } from './identity-rules.js';
import type {
  AliasCreateInput,
  AliasEntry,
  AliasUpdateInput,
  EntityEntry,
  EntityInput,
  GroupAliasEntry,
  GroupAliasInput,
  GroupEntry,
  GroupInput,
  IdentityService,
  LoginAliasInput,
  MergeInput,
} from './identity-service.js';
import { laterThan, nowNs } from './timestamps.js';

export { formatRfc3339Nano, nowNs } from './timestamps.js';

/** A name of the form entity_<8 hex> that no entity has yet. */
function generatedEntityName(tx: WriteTx): string {
  for (;;) {
    const name = `entity_${shortHex()}`;
    if (tx.get<string>(ENTITY_NAMES_TABLE, name) === undefined) return name;
  }
}

function newEntity(name: string): EntityEntry {
  const now = String(nowNs());
  return { version: 1, id: uuid(), name, policies: [], metadata: {}, disabled: false, creationTimeNs: now, lastUpdateTimeNs: now };
}

export class IdentityStore implements IdentityService {
  constructor(
    private readonly store: Store,
    private readonly mounts: MountService,
  ) {}

  // ---- IdentityService: what the request pipeline asks on every authenticated request ----

  entityExists(entityId: string): boolean {
    return this.getEntity(entityId) !== undefined;
  }

  /**
   * Read on every request, never cached: a change to an entity, a group's members or a group's policies
   * holds from the next request on, in every server sharing the store.
   */
  entityPolicies(entityId: string): string[] {
    const entity = this.tokenEntity(entityId);
    if (!entity || entity.disabled) return [];
    const { direct, inherited } = groupsOfEntityIn(this.store, entity.id);
    return withoutRoot([...new Set([...entity.policies, ...[...direct, ...inherited].flatMap((g) => g.policies)])]);
  }

  entityDisabled(entityId: string): boolean {
    return this.tokenEntity(entityId)?.disabled === true;
  }

  /** The entity a token's entity ID names now: itself, or the entity it was merged into (Vault keeps both working). */
  private tokenEntity(entityId: string): EntityEntry | undefined {
    const entity = this.getEntity(entityId);
    if (entity) return entity;
    const mergedInto = this.store.get<string>(MERGED_ENTITIES_TABLE, entityId);
    return mergedInto === undefined ? undefined : this.getEntity(mergedInto);
  }

  async removeAliasesOfMount(mountAccessor: string): Promise<number> {
    const { result } = await this.store.write((tx) => {
      let removed = removeGroupAliasesOfMountInTx(tx, mountAccessor);
      for (const { key, value: aliasId } of tx.list<string>(ALIAS_KEYS_TABLE, `${mountAccessor}/`)) {
        const alias = tx.get<AliasEntry>(ALIASES_TABLE, aliasId);
        if (alias) {
          dropAlias(tx, alias);
          removed++;
        } else {
          tx.delete(ALIAS_KEYS_TABLE, key);
        }
      }
      return removed;
    });
    return result;
  }

  // ---- reads ----

  getEntity(id: string): EntityEntry | undefined {
    return this.store.get<EntityEntry>(ENTITIES_TABLE, id);
  }

  getEntityByName(name: string): EntityEntry | undefined {
    const id = this.store.get<string>(ENTITY_NAMES_TABLE, name);
    return id === undefined ? undefined : this.getEntity(id);
  }

  listEntities(): EntityEntry[] {
    return this.store.list<EntityEntry>(ENTITIES_TABLE).map((e) => e.value);
  }

  getAlias(id: string): AliasEntry | undefined {
    return this.store.get<AliasEntry>(ALIASES_TABLE, id);
  }

  getAliasByFactors(mountAccessor: string, name: string): AliasEntry | undefined {
    const id = this.store.get<string>(ALIAS_KEYS_TABLE, aliasKey(mountAccessor, name));
    return id === undefined ? undefined : this.getAlias(id);
  }

  listAliases(): AliasEntry[] {
    return this.store.list<AliasEntry>(ALIASES_TABLE).map((e) => e.value);
  }

  aliasesOf(entityId: string): AliasEntry[] {
    return aliasesOfTx(this.store, entityId);
  }

  /** The auth mount an alias belongs to, for mount_path and mount_type. */
  mountOf(alias: AliasEntry): MountEntry | undefined {
    return this.mounts.byAccessor(alias.mountAccessor);
  }

  // ---- entities ----

  /**
   * Creates or updates an entity, as Vault's identity/entity endpoints do: with `id` that entity is
   * updated (it must exist); without it, an entity already named `name` is updated; otherwise a new one
   * is created. Only the fields given change. A name held by another entity is refused.
   */
  async upsertEntity(input: EntityInput): Promise<{ entity: EntityEntry; created: boolean; changed: boolean }> {
    const { result } = await this.store.write((tx) => {
      let entity: EntityEntry | undefined;
      if (input.id !== undefined && input.id !== '') {
        entity = tx.get<EntityEntry>(ENTITIES_TABLE, input.id);
        if (!entity) throw new UserError('entity not found from id');
      }
      const name = input.name === '' ? undefined : input.name;
      if (name !== undefined) {
        const holderId = tx.get<string>(ENTITY_NAMES_TABLE, name);
        if (holderId !== undefined) {
          if (!entity) entity = tx.get<EntityEntry>(ENTITIES_TABLE, holderId);
          else if (entity.id !== holderId) throw new UserError('entity name is already in use');
        }
      }

      const created = !entity;
      const before = entity;
      const next: EntityEntry = entity ? { ...entity } : newEntity(name ?? generatedEntityName(tx));
      if (name !== undefined) next.name = name;
      if (input.policies !== undefined) next.policies = cleanPolicies(input.policies);
      if (input.metadata !== undefined) next.metadata = { ...input.metadata };
      if (input.disabled !== undefined) next.disabled = input.disabled;

      const changed =
        !before ||
        before.name !== next.name ||
        before.disabled !== next.disabled ||
        !sameMap(before.metadata, next.metadata) ||
        before.policies.join('\n') !== next.policies.join('\n');
      if (!changed) return { entity: next, created, changed };

      if (before) {
        next.lastUpdateTimeNs = laterThan(before.lastUpdateTimeNs);
        if (before.name !== next.name) tx.delete(ENTITY_NAMES_TABLE, before.name);
      }
      tx.put(ENTITIES_TABLE, next.id, next);
      tx.put(ENTITY_NAMES_TABLE, next.name, next.id);
      return { entity: next, created, changed };
    });
    return result;
  }

  /** Deletes an entity and its aliases, and takes it out of its groups, as Vault does. Answers whether it existed. */
  async deleteEntity(id: string): Promise<boolean> {
    const { result } = await this.store.write((tx) => {
      const entity = tx.get<EntityEntry>(ENTITIES_TABLE, id);
      if (!entity) return false;
      for (const alias of aliasesOfTx(tx, id)) dropAlias(tx, alias);
      removeEntityFromGroups(tx, id);
      for (const mergedId of entity.mergedEntityIds ?? []) tx.delete(MERGED_ENTITIES_TABLE, mergedId);
      tx.delete(ENTITIES_TABLE, id);
      if (tx.get<string>(ENTITY_NAMES_TABLE, entity.name) === id) tx.delete(ENTITY_NAMES_TABLE, entity.name);
      return true;
    });
    return result;
  }

  async deleteEntityByName(name: string): Promise<boolean> {
    const id = this.store.get<string>(ENTITY_NAMES_TABLE, name);
    return id === undefined ? false : this.deleteEntity(id);
  }

  // ---- aliases ----

  /**
   * Creates an alias. Refused (400) when the mount accessor or the entity is unknown, when an alias with
   * the same mount accessor and name exists (the message names it), or when the entity already has an
   * alias on that mount.
   */
  async createAlias(input: AliasCreateInput): Promise<AliasEntry> {
    const { result } = await this.store.write((tx) => {
      if (!mountByAccessor(tx, input.mountAccessor)) throw new UserError(`invalid mount accessor "${input.mountAccessor}"`);
      const existingId = tx.get<string>(ALIAS_KEYS_TABLE, aliasKey(input.mountAccessor, input.name));
      const existing = existingId === undefined ? undefined : tx.get<AliasEntry>(ALIASES_TABLE, existingId);
      if (existing) throw duplicateAlias(existing);
      if (!tx.get<EntityEntry>(ENTITIES_TABLE, input.canonicalId)) {
        throw new UserError(`invalid canonical ID: given 'canonical_id' "${input.canonicalId}" is not associated with an entity`);
      }
      if (aliasesOfTx(tx, input.canonicalId).some((a) => a.mountAccessor === input.mountAccessor)) {
        throw new UserError('Alias already exists for requested entity and mount accessor');
      }
      const now = String(nowNs());
      const alias: AliasEntry = {
        version: 1,
        id: uuid(),
        canonicalId: input.canonicalId,
        mountAccessor: input.mountAccessor,
        name: input.name,
        metadata: {},
        customMetadata: { ...(input.customMetadata ?? {}) },
        creationTimeNs: now,
        lastUpdateTimeNs: now,
      };
      putAlias(tx, alias);
      return alias;
    });
    return result;
  }

  /**
   * Updates an alias, re-checking every rule createAlias checks against the values it would end with.
   * `changed` is false (and nothing is written) when the update would change nothing.
   */
  async updateAlias(id: string, input: AliasUpdateInput): Promise<{ alias: AliasEntry; changed: boolean }> {
    const { result } = await this.store.write((tx) => {
      const alias = tx.get<AliasEntry>(ALIASES_TABLE, id);
      if (!alias) throw new UserError('invalid alias ID provided');
      const name = input.name || alias.name;
      const mountAccessor = input.mountAccessor || alias.mountAccessor;
      const canonicalId = input.canonicalId || alias.canonicalId;
      const customMetadata = input.customMetadata ?? alias.customMetadata;

      const factorsChange = name !== alias.name || mountAccessor !== alias.mountAccessor;
      const entityChanges = canonicalId !== alias.canonicalId;
      if (!factorsChange && !entityChanges && sameMap(customMetadata, alias.customMetadata)) return { alias, changed: false };

      if (mountAccessor !== alias.mountAccessor && !mountByAccessor(tx, mountAccessor)) {
        throw new UserError(`invalid mount accessor "${mountAccessor}"`);
      }
      if (factorsChange) {
        const holderId = tx.get<string>(ALIAS_KEYS_TABLE, aliasKey(mountAccessor, name));
        const holder = holderId === undefined ? undefined : tx.get<AliasEntry>(ALIASES_TABLE, holderId);
        if (holder && holder.id !== alias.id) throw duplicateAlias(holder);
      }
      if (entityChanges) {
        if (!tx.get<EntityEntry>(ENTITIES_TABLE, canonicalId)) {
          throw new UserError(`given 'canonical_id' is not associated with an entity: "${canonicalId}"`);
        }
        if (aliasesOfTx(tx, canonicalId).some((a) => a.mountAccessor === mountAccessor)) {
          throw new UserError('Alias cannot be updated as the given entity already has an alias for this mount');
        }
      } else if (mountAccessor !== alias.mountAccessor) {
        if (aliasesOfTx(tx, canonicalId).some((a) => a.id !== alias.id && a.mountAccessor === mountAccessor)) {
          throw new UserError("Alias cannot be updated as the entity already has an alias for the given 'mount_accessor'");
        }
      }

      const next: AliasEntry = {
        ...alias,
        name,
        mountAccessor,
        canonicalId,
        customMetadata: { ...customMetadata },
        lastUpdateTimeNs: laterThan(alias.lastUpdateTimeNs),
      };
      dropAlias(tx, alias);
      putAlias(tx, next);
      return { alias: next, changed: true };
    });
    return result;
  }

  /** Deletes an alias; answers whether it existed. */
  async deleteAlias(id: string): Promise<boolean> {
    const { result } = await this.store.write((tx) => {
      const alias = tx.get<AliasEntry>(ALIASES_TABLE, id);
      if (!alias) return false;
      dropAlias(tx, alias);
      return true;
    });
    return result;
  }

  /**
   * What an auth method calls after a successful login: the alias for (mount accessor, name) is reused
   * with its entity, its login metadata refreshed when it changed; otherwise a new entity named
   * entity_<8 hex> and the alias are created, in one transaction.
   */
  async upsertLoginAlias(input: LoginAliasInput): Promise<{ entityId: string; aliasId: string }> {
    const { result } = await this.store.write((tx) => loginAliasInTx(tx, input));
    return result;
  }

  /** Whether an entity is disabled, as seen inside a transaction (a login's own). */
  entityDisabledInTx(tx: WriteTx, entityId: string): boolean {
    return tx.get<EntityEntry>(ENTITIES_TABLE, entityId)?.disabled === true;
  }

  async mergeEntities(input: MergeInput): Promise<void> {
    await this.store.write((tx) => mergeEntitiesInTx(tx, input));
  }

  // ---- groups ----

  getGroup(id: string): GroupEntry | undefined {
    return groupById(this.store, id);
  }

  getGroupByName(name: string): GroupEntry | undefined {
    return groupByName(this.store, name);
  }

  listGroups(): GroupEntry[] {
    return this.store.list<GroupEntry>(GROUPS_TABLE).map((e) => e.value);
  }

  memberGroupIds(groupId: string): string[] {
    return memberGroupIdsOf(this.store, groupId);
  }

  groupsOfEntity(entityId: string): { direct: string[]; inherited: string[] } {
    const { direct, inherited } = groupsOfEntityIn(this.store, entityId);
    return { direct: direct.map((g) => g.id).sort(), inherited: inherited.map((g) => g.id).sort() };
  }

  async upsertGroup(id: string | undefined, input: GroupInput): Promise<{ group: GroupEntry; created: boolean }> {
    const { result } = await this.store.write((tx) => upsertGroupInTx(tx, id, input));
    return result;
  }

  async deleteGroup(id: string): Promise<boolean> {
    const { result } = await this.store.write((tx) => deleteGroupInTx(tx, id));
    return result;
  }

  async deleteGroupByName(name: string): Promise<boolean> {
    const { result } = await this.store.write((tx) => {
      const group = groupByName(tx, name);
      return group ? deleteGroupInTx(tx, group.id) : false;
    });
    return result;
  }

  groupByAliasId(aliasId: string): GroupEntry | undefined {
    return groupByAliasId(this.store, aliasId);
  }

  groupByAliasFactors(mountAccessor: string, name: string): GroupEntry | undefined {
    return groupByAliasFactors(this.store, mountAccessor, name);
  }

  listGroupAliases(): GroupAliasEntry[] {
    return this.listGroups()
      .map((g) => g.alias)
      .filter((a): a is GroupAliasEntry => a !== undefined);
  }

  async writeGroupAlias(id: string | undefined, input: GroupAliasInput): Promise<GroupAliasEntry | undefined> {
    const { result } = await this.store.write((tx) => writeGroupAliasInTx(tx, id, input));
    return result;
  }

  async deleteGroupAlias(id: string): Promise<boolean> {
    const { result } = await this.store.write((tx) => deleteGroupAliasInTx(tx, id));
    return result;
  }
}

/**
 * At login, inside the login's transaction: the alias (mount accessor + name) is found or created with its
 * entity, and its metadata updated when it changed. Concurrent first logins make one entity, since each
 * transaction sees the ones committed before it.
 */
export function loginAliasInTx(tx: WriteTx, input: LoginAliasInput): { entityId: string; aliasId: string } {
  const metadata = { ...(input.metadata ?? {}) };
  const existingId = tx.get<string>(ALIAS_KEYS_TABLE, aliasKey(input.mountAccessor, input.name));
  const existing = existingId === undefined ? undefined : tx.get<AliasEntry>(ALIASES_TABLE, existingId);
  if (existing && tx.get<EntityEntry>(ENTITIES_TABLE, existing.canonicalId)) {
    if (!sameMap(existing.metadata, metadata)) {
      tx.put(ALIASES_TABLE, existing.id, { ...existing, metadata, lastUpdateTimeNs: laterThan(existing.lastUpdateTimeNs) });
    }
    return { entityId: existing.canonicalId, aliasId: existing.id };
  }
  // An alias whose entity vanished cannot happen through this store; if it ever does, start afresh.
  if (existing) dropAlias(tx, existing);
  const entity = newEntity(generatedEntityName(tx));
  tx.put(ENTITIES_TABLE, entity.id, entity);
  tx.put(ENTITY_NAMES_TABLE, entity.name, entity.id);
  const now = String(nowNs());
  const alias: AliasEntry = {
    version: 1,
    id: uuid(),
    canonicalId: entity.id,
    mountAccessor: input.mountAccessor,
    name: input.name,
    metadata,
    customMetadata: {},
    creationTimeNs: now,
    lastUpdateTimeNs: now,
  };
  putAlias(tx, alias);
  return { entityId: entity.id, aliasId: alias.id };
}

function duplicateAlias(existing: AliasEntry): UserError {
  return new UserError(
    `alias with combination of mount accessor and name already exists: alias "${existing.id}" ` +
      `(canonical_id "${existing.canonicalId}"); update it at identity/entity-alias/id/${existing.id}`,
  );
}
