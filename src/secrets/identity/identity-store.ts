/**
 * The identity store: entities (the people and machines behind tokens) and entity aliases (an identity
 * in one auth mount: a name plus the mount's accessor). Every rule that relates two records — unique
 * entity names, one alias per (mount, name), one alias per entity and mount — is checked inside the
 * write transaction that changes them, against the secondary index tables written in that same
 * transaction, so the rules hold when requests race and when several servers share the store.
 *
 * Tables:
 *   entities           entity id → EntityEntry
 *   entity-names       entity name → entity id
 *   entity-aliases     alias id → AliasEntry
 *   alias-keys         `<mount accessor>/<alias name>` → alias id (accessors never contain '/')
 *   aliases-by-entity  `<entity id>/<alias id>` → alias id
 */
import { UserError } from '../../shared/errors.js';
import { shortHex, uuid } from '../../shared/ids.js';
import type { Store, WriteTx } from '../../storage/store.js';
import { MOUNTS_TABLE } from '../mounts/mount-table.js';
import type { MountEntry, MountService } from '../mounts/mount-service.js';
import type { AliasCreateInput, AliasEntry, AliasUpdateInput, EntityEntry, EntityInput, IdentityService, LoginAliasInput } from './identity-service.js';

export const ENTITIES_TABLE = 'entities';
export const ENTITY_NAMES_TABLE = 'entity-names';
export const ALIASES_TABLE = 'entity-aliases';
export const ALIAS_KEYS_TABLE = 'alias-keys';
export const ALIASES_BY_ENTITY_TABLE = 'aliases-by-entity';

const aliasKey = (mountAccessor: string, name: string): string => `${mountAccessor}/${name}`;
const byEntityKey = (entityId: string, aliasId: string): string => `${entityId}/${aliasId}`;

let lastNs = 0n;

/**
 * Now in unix nanoseconds, never equal to the previous call's value in this process, so that an update
 * made in the same millisecond as the create still moves last_update_time forward.
 */
export function nowNs(): bigint {
  // The wall clock gives milliseconds; the monotonic clock fills in the digits below them.
  const ns = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  lastNs = ns > lastNs ? ns : lastNs + 1n;
  return lastNs;
}

/** A later timestamp than `previous` (written by any process), for last_update_time. */
function laterThan(previous: string): string {
  const now = nowNs();
  const prev = BigInt(previous);
  return String(now > prev ? now : prev + 1n);
}

/** Go's time.RFC3339Nano in UTC, as Vault prints identity timestamps: trailing zeros of the fraction dropped. */
export function formatRfc3339Nano(ns: string): string {
  const big = BigInt(ns);
  const seconds = big / 1_000_000_000n;
  const fraction = (big % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${base}${fraction === '' ? '' : `.${fraction}`}Z`;
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ak = Object.keys(a);
  return ak.length === Object.keys(b).length && ak.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

function cleanPolicies(policies: string[]): string[] {
  const cleaned = [...new Set(policies.map((p) => p.trim()).filter((p) => p !== ''))];
  // An entity is a way to grant policies to tokens its caller did not create; granting root that way
  // would make anyone allowed to write entities a root (Vault refuses it with the same message).
  if (cleaned.some((p) => p.toLowerCase() === 'root')) throw new UserError('policies cannot contain root');
  return cleaned;
}

function mountByAccessor(tx: WriteTx, accessor: string): MountEntry | undefined {
  return tx.list<MountEntry>(MOUNTS_TABLE).find((m) => m.value.accessor === accessor)?.value;
}

function aliasesOfTx(tx: WriteTx, entityId: string): AliasEntry[] {
  return tx
    .list<string>(ALIASES_BY_ENTITY_TABLE, `${entityId}/`)
    .map((e) => tx.get<AliasEntry>(ALIASES_TABLE, e.value))
    .filter((a): a is AliasEntry => a !== undefined);
}

function putAlias(tx: WriteTx, alias: AliasEntry): void {
  tx.put(ALIASES_TABLE, alias.id, alias);
  tx.put(ALIAS_KEYS_TABLE, aliasKey(alias.mountAccessor, alias.name), alias.id);
  tx.put(ALIASES_BY_ENTITY_TABLE, byEntityKey(alias.canonicalId, alias.id), alias.id);
}

function dropAlias(tx: WriteTx, alias: AliasEntry): void {
  tx.delete(ALIASES_TABLE, alias.id);
  // Only remove index entries that still point at this alias: a racing writer may own the key now.
  if (tx.get<string>(ALIAS_KEYS_TABLE, aliasKey(alias.mountAccessor, alias.name)) === alias.id) {
    tx.delete(ALIAS_KEYS_TABLE, aliasKey(alias.mountAccessor, alias.name));
  }
  tx.delete(ALIASES_BY_ENTITY_TABLE, byEntityKey(alias.canonicalId, alias.id));
}

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

  entityPolicies(entityId: string): string[] {
    const entity = this.getEntity(entityId);
    // Entities written before root was refused must not grant it either.
    return entity && !entity.disabled ? entity.policies.filter((p) => p.toLowerCase() !== 'root') : [];
  }

  entityDisabled(entityId: string): boolean {
    return this.getEntity(entityId)?.disabled === true;
  }

  async removeAliasesOfMount(mountAccessor: string): Promise<number> {
    const { result } = await this.store.write((tx) => {
      let removed = 0;
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
    return this.store
      .list<string>(ALIASES_BY_ENTITY_TABLE, `${entityId}/`)
      .map((e) => this.getAlias(e.value))
      .filter((a): a is AliasEntry => a !== undefined);
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

  /** Deletes an entity and its aliases. Answers whether it existed. */
  async deleteEntity(id: string): Promise<boolean> {
    const { result } = await this.store.write((tx) => {
      const entity = tx.get<EntityEntry>(ENTITIES_TABLE, id);
      if (!entity) return false;
      for (const alias of aliasesOfTx(tx, id)) dropAlias(tx, alias);
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
