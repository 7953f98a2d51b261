/**
 * What the pipelines and the handlers ask of the identity store (src/server/services.ts holds one), and
 * its records. IdentityStore implements it on the Store.
 */
import type { WriteTx } from '../../storage/store.js';
import type { MountEntry } from '../mounts/mount-service.js';

export interface EntityEntry {
  version: 1;
  id: string;
  name: string;
  policies: string[];
  metadata: Record<string, string>;
  disabled: boolean;
  /** the entities merged into this one (Vault's merged_entity_ids); absent on entities never merged into */
  mergedEntityIds?: string[];
  /** unix nanoseconds as a decimal string: JS numbers cannot hold them exactly */
  creationTimeNs: string;
  lastUpdateTimeNs: string;
}

export interface AliasEntry {
  version: 1;
  id: string;
  canonicalId: string;
  mountAccessor: string;
  name: string;
  /** set by logins from what the auth method reports */
  metadata: Record<string, string>;
  /** set by users through the API */
  customMetadata: Record<string, string>;
  /** the entities the alias belonged to before merges moved it (Vault's merged_from_canonical_ids) */
  mergedFromCanonicalIds?: string[];
  creationTimeNs: string;
  lastUpdateTimeNs: string;
}

/** An identity group (Vault's identity.Group): internal, with members set by hand, or external, with an alias. */
export interface GroupEntry {
  version: 1;
  id: string;
  name: string;
  type: GroupType;
  policies: string[];
  metadata: Record<string, string>;
  memberEntityIds: string[];
  /** Kept on the member side, as Vault does; member_group_ids are the groups that name this one here. */
  parentGroupIds: string[];
  /** An external group's link to a group in an auth method's source; at most one. */
  alias?: GroupAliasEntry;
  /** Counts the group's writes, as Vault's modify_index does. */
  modifyIndex: number;
  creationTimeNs: string;
  lastUpdateTimeNs: string;
}

export type GroupType = 'internal' | 'external';

export interface GroupAliasEntry {
  id: string;
  /** the group's ID */
  canonicalId: string;
  mountAccessor: string;
  name: string;
  creationTimeNs: string;
  lastUpdateTimeNs: string;
}

/** Each field is optional; only those given change. */
export interface GroupInput {
  name?: string;
  type?: string;
  policies?: string[];
  metadata?: Record<string, string>;
  memberEntityIds?: string[];
  memberGroupIds?: string[];
}

export interface GroupAliasInput {
  name: string;
  mountAccessor: string;
  /** the group to attach the alias to; without it a create makes a new external group, an update keeps the group */
  canonicalId?: string;
}

export interface MergeInput {
  toEntityId: string;
  fromEntityIds: string[];
  conflictingAliasIdsToKeep: string[];
}

export interface EntityInput {
  /** update this entity; it must exist */
  id?: string;
  /** a new entity's name, or a rename; without `id`, an existing entity of this name is updated */
  name?: string;
  policies?: string[];
  metadata?: Record<string, string>;
  disabled?: boolean;
}

export interface AliasCreateInput {
  name: string;
  canonicalId: string;
  mountAccessor: string;
  customMetadata?: Record<string, string>;
}

/** Each field is optional; an absent or empty value keeps the alias's current one (Vault). */
export interface AliasUpdateInput {
  name?: string;
  canonicalId?: string;
  mountAccessor?: string;
  customMetadata?: Record<string, string>;
}

export interface LoginAliasInput {
  mountAccessor: string;
  name: string;
  metadata?: Record<string, string>;
}

export interface IdentityService {
  entityExists(entityId: string): boolean;
  /**
   * The identity policies of a token's entity: the entity's own and those of every group it belongs to,
   * directly or through member groups (empty for a missing or disabled entity). An entity merged into
   * another answers for the one it was merged into.
   */
  entityPolicies(entityId: string): string[];
  /** True when the entity exists and is disabled: its tokens must be refused. */
  entityDisabled(entityId: string): boolean;
  /** Whether an entity is disabled, as seen inside a transaction (a login's own). */
  entityDisabledInTx(tx: WriteTx, entityId: string): boolean;
  getEntity(id: string): EntityEntry | undefined;
  getEntityByName(name: string): EntityEntry | undefined;
  listEntities(): EntityEntry[];
  getAlias(id: string): AliasEntry | undefined;
  getAliasByFactors(mountAccessor: string, name: string): AliasEntry | undefined;
  listAliases(): AliasEntry[];
  aliasesOf(entityId: string): AliasEntry[];
  /** The auth mount an alias belongs to, for mount_path and mount_type. */
  mountOf(alias: AliasEntry): MountEntry | undefined;
  /**
   * Creates or updates an entity: with `id` that entity is updated (it must exist); without it, an
   * entity already named `name` is updated; otherwise a new one is created. Only the fields given change.
   */
  upsertEntity(input: EntityInput): Promise<{ entity: EntityEntry; created: boolean; changed: boolean }>;
  /** Deletes an entity and its aliases. Answers whether it existed. */
  deleteEntity(id: string): Promise<boolean>;
  deleteEntityByName(name: string): Promise<boolean>;
  /** Creates an alias; refused (400) when it would break a rule of the alias's mount or entity. */
  createAlias(input: AliasCreateInput): Promise<AliasEntry>;
  /** Updates an alias, re-checking every rule createAlias checks; `changed` is false when nothing would change. */
  updateAlias(id: string, input: AliasUpdateInput): Promise<{ alias: AliasEntry; changed: boolean }>;
  /** Deletes an alias; answers whether it existed. */
  deleteAlias(id: string): Promise<boolean>;
  /**
   * At login: the alias (mount accessor + name) is found or created with its entity, and its metadata
   * updated when it changed. Concurrent first logins make one entity.
   */
  upsertLoginAlias(input: LoginAliasInput): Promise<{ entityId: string; aliasId: string }>;
  /** Called when an auth mount is disabled: its entity and group aliases go away. */
  removeAliasesOfMount(mountAccessor: string): Promise<number>;
  /** Moves the aliases and group memberships of the from entities to the target, then deletes them. */
  mergeEntities(input: MergeInput): Promise<void>;

  getGroup(id: string): GroupEntry | undefined;
  getGroupByName(name: string): GroupEntry | undefined;
  listGroups(): GroupEntry[];
  /** IDs of the groups that have this group among their parents. */
  memberGroupIds(groupId: string): string[];
  /** The groups the entity is a member of itself, and those it belongs to through them (Vault's inherited groups). */
  groupsOfEntity(entityId: string): { direct: string[]; inherited: string[] };
  /**
   * Creates a group (no `id`) or updates the one with `id`, which must exist; with a `name` but no
   * `id`, the group of that name is updated if there is one.
   */
  upsertGroup(id: string | undefined, input: GroupInput): Promise<{ group: GroupEntry; created: boolean }>;
  deleteGroup(id: string): Promise<boolean>;
  deleteGroupByName(name: string): Promise<boolean>;
  /** The group that holds the alias with this ID. */
  groupByAliasId(aliasId: string): GroupEntry | undefined;
  groupByAliasFactors(mountAccessor: string, name: string): GroupEntry | undefined;
  listGroupAliases(): GroupAliasEntry[];
  /** Creates a group alias (`id` undefined) or updates one; answers undefined when an update changes nothing. */
  writeGroupAlias(id: string | undefined, input: GroupAliasInput): Promise<GroupAliasEntry | undefined>;
  deleteGroupAlias(id: string): Promise<boolean>;
}
