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
  creationTimeNs: string;
  lastUpdateTimeNs: string;
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
  /** Policies granted through the entity (empty for a missing or disabled entity). */
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
  /** Called when an auth mount is disabled: its aliases go away. */
  removeAliasesOfMount(mountAccessor: string): Promise<number>;
}
