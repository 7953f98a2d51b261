/**
 * Identity groups inside a write transaction, as Vault's identity store keeps them: a group lists its
 * member entities and its parent groups (membership of a group in a group is kept on the member), and
 * an external group may carry one alias. Every write keeps the index tables below in the same
 * transaction, and every rule between records (unique names, unique alias factors, no cycles) is checked
 * against them there, so the rules hold when requests race and when several servers share the store.
 *
 * Tables:
 *   groups             group id → GroupEntry
 *   group-names        group name → group id
 *   groups-by-entity   `<entity id>/<group id>` → group id, for each member entity
 *   group-children     `<parent group id>/<member group id>` → member group id
 *   group-alias-ids    group alias id → group id
 *   group-alias-keys   `<mount accessor>/<alias name>` → group id
 */
import { UserError } from '../../shared/errors.js';
import { shortHex, uuid } from '../../shared/ids.js';
import type { WriteTx } from '../../storage/store.js';
import { ENTITIES_TABLE, aliasKey } from './entity-tables.js';
import { cleanPolicies, mountByAccessor } from './identity-rules.js';
import type { GroupAliasEntry, GroupAliasInput, GroupEntry, GroupInput, GroupType } from './identity-service.js';
import { laterThan, nowNs } from './timestamps.js';

export const GROUPS_TABLE = 'groups';
export const GROUP_NAMES_TABLE = 'group-names';
export const GROUPS_BY_ENTITY_TABLE = 'groups-by-entity';
export const GROUP_CHILDREN_TABLE = 'group-children';
export const GROUP_ALIAS_IDS_TABLE = 'group-alias-ids';
export const GROUP_ALIAS_KEYS_TABLE = 'group-alias-keys';

/** What reads need: the store itself, or a write transaction (which sees its own writes). */
export type Reader = Pick<WriteTx, 'get' | 'list'>;

/** Trimmed, without empties and duplicates, sorted: as Vault's strutil.RemoveDuplicates leaves ID and policy lists. */
const sortedUnique = (items: string[]): string[] => [...new Set(items.map((i) => i.trim()).filter((i) => i !== ''))].sort();

export function groupById(r: Reader, id: string): GroupEntry | undefined {
  return r.get<GroupEntry>(GROUPS_TABLE, id);
}

export function groupByName(r: Reader, name: string): GroupEntry | undefined {
  const id = r.get<string>(GROUP_NAMES_TABLE, name);
  return id === undefined ? undefined : groupById(r, id);
}

export function groupByAliasId(r: Reader, aliasId: string): GroupEntry | undefined {
  const id = r.get<string>(GROUP_ALIAS_IDS_TABLE, aliasId);
  return id === undefined ? undefined : groupById(r, id);
}

export function groupByAliasFactors(r: Reader, mountAccessor: string, name: string): GroupEntry | undefined {
  const id = r.get<string>(GROUP_ALIAS_KEYS_TABLE, aliasKey(mountAccessor, name));
  return id === undefined ? undefined : groupById(r, id);
}

/** The groups that have `groupId` among their parents (Vault's member_group_ids, computed). */
export function memberGroupIdsOf(r: Reader, groupId: string): string[] {
  return r.list<string>(GROUP_CHILDREN_TABLE, `${groupId}/`).map((e) => e.value);
}

export function directGroupIdsOf(r: Reader, entityId: string): string[] {
  return r.list<string>(GROUPS_BY_ENTITY_TABLE, `${entityId}/`).map((e) => e.value);
}

/**
 * The entity's groups and every group above them, walking parent groups transitively as Vault does:
 * `direct` are the groups that list the entity, `inherited` those reached through them.
 */
export function groupsOfEntityIn(r: Reader, entityId: string): { direct: GroupEntry[]; inherited: GroupEntry[] } {
  const direct = directGroupIdsOf(r, entityId)
    .map((id) => groupById(r, id))
    .filter((g): g is GroupEntry => g !== undefined);
  const seen = new Set(direct.map((g) => g.id));
  const inherited: GroupEntry[] = [];
  const queue = direct.flatMap((g) => g.parentGroupIds);
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const group = groupById(r, id);
    if (!group) continue;
    inherited.push(group);
    queue.push(...group.parentGroupIds);
  }
  return { direct, inherited };
}

function index(tx: WriteTx, g: GroupEntry): void {
  tx.put(GROUP_NAMES_TABLE, g.name, g.id);
  for (const entityId of g.memberEntityIds) tx.put(GROUPS_BY_ENTITY_TABLE, `${entityId}/${g.id}`, g.id);
  for (const parentId of g.parentGroupIds) tx.put(GROUP_CHILDREN_TABLE, `${parentId}/${g.id}`, g.id);
  if (g.alias) {
    tx.put(GROUP_ALIAS_IDS_TABLE, g.alias.id, g.id);
    tx.put(GROUP_ALIAS_KEYS_TABLE, aliasKey(g.alias.mountAccessor, g.alias.name), g.id);
  }
}

function unindex(tx: WriteTx, g: GroupEntry): void {
  // Keys shared by name or alias factors are removed only while they still point at this group.
  if (tx.get<string>(GROUP_NAMES_TABLE, g.name) === g.id) tx.delete(GROUP_NAMES_TABLE, g.name);
  for (const entityId of g.memberEntityIds) tx.delete(GROUPS_BY_ENTITY_TABLE, `${entityId}/${g.id}`);
  for (const parentId of g.parentGroupIds) tx.delete(GROUP_CHILDREN_TABLE, `${parentId}/${g.id}`);
  if (g.alias) {
    tx.delete(GROUP_ALIAS_IDS_TABLE, g.alias.id);
    const key = aliasKey(g.alias.mountAccessor, g.alias.name);
    if (tx.get<string>(GROUP_ALIAS_KEYS_TABLE, key) === g.id) tx.delete(GROUP_ALIAS_KEYS_TABLE, key);
  }
}

/** Writes a group and its index entries; every write counts in modify_index and moves last_update_time, as in Vault. */
export function putGroup(tx: WriteTx, next: GroupEntry, prev: GroupEntry | undefined): GroupEntry {
  const written: GroupEntry = { ...next, modifyIndex: (prev?.modifyIndex ?? 0) + 1 };
  if (prev) {
    written.lastUpdateTimeNs = laterThan(prev.lastUpdateTimeNs);
    unindex(tx, prev);
  }
  tx.put(GROUPS_TABLE, written.id, written);
  index(tx, written);
  return written;
}

function generatedGroupName(tx: WriteTx): string {
  for (;;) {
    const name = `group_${shortHex()}`;
    if (tx.get<string>(GROUP_NAMES_TABLE, name) === undefined) return name;
  }
}

function newGroup(type: GroupType): GroupEntry {
  const now = String(nowNs());
  return {
    version: 1,
    id: uuid(),
    name: '',
    type,
    policies: [],
    metadata: {},
    memberEntityIds: [],
    parentGroupIds: [],
    modifyIndex: 0,
    creationTimeNs: now,
    lastUpdateTimeNs: now,
  };
}

/** Whether `target` is `start` or a member group below it: adding `start` as a member of `target` would close a loop. */
function reachesDown(tx: WriteTx, start: string, target: string, seen = new Set<string>()): boolean {
  if (start === target) return true;
  if (seen.has(start)) return false;
  seen.add(start);
  return memberGroupIdsOf(tx, start).some((child) => reachesDown(tx, child, target, seen));
}

/**
 * Makes the groups listed in `wanted` exactly the member groups of `group`, with Vault's checks and
 * messages: each must exist, none may be the group itself or have the group below it.
 */
function setMemberGroups(tx: WriteTx, group: GroupEntry, isNew: boolean, wanted: string[]): void {
  for (const childId of memberGroupIdsOf(tx, group.id)) {
    if (wanted.includes(childId)) continue;
    const child = groupById(tx, childId);
    if (child) putGroup(tx, { ...child, parentGroupIds: child.parentGroupIds.filter((p) => p !== group.id) }, child);
  }
  for (const childId of wanted) {
    const child = groupById(tx, childId);
    if (!child) throw new UserError(`invalid member group ID "${childId}"`);
    if (child.parentGroupIds.includes(group.id)) continue;
    if (childId === group.id) throw new UserError(`member group ID "${group.id}" is same as the ID of the group`);
    // A group that does not exist yet has nothing below it, so it cannot close a loop.
    if (!isNew && reachesDown(tx, childId, group.id)) throw new UserError(`cyclic relationship detected for member group ID "${childId}"`);
    putGroup(tx, { ...child, parentGroupIds: [...child.parentGroupIds, group.id] }, child);
  }
}

/**
 * Creates or updates a group as Vault's handleGroupUpdateCommon does: with `id` that group (it must
 * exist); else, with a name, the group of that name if any; else a new group. Only the fields given
 * change; the checks and their messages are Vault's.
 */
export function upsertGroupInTx(tx: WriteTx, id: string | undefined, input: GroupInput): { group: GroupEntry; created: boolean } {
  let prev: GroupEntry | undefined;
  if (id !== undefined) {
    prev = groupById(tx, id);
    if (!prev) throw new UserError('invalid group ID');
  } else if (input.name) {
    prev = groupByName(tx, input.name);
  }
  const next: GroupEntry = prev ? structuredClone(prev) : newGroup('internal');
  if (input.policies !== undefined) next.policies = cleanPolicies(input.policies).sort();
  if (input.type && input.type !== next.type) {
    if (prev) throw new UserError('group type cannot be changed');
    if (input.type !== 'internal' && input.type !== 'external') throw new UserError(`invalid group type "${input.type}"`);
    next.type = input.type;
  }
  if (input.name) {
    const holder = tx.get<string>(GROUP_NAMES_TABLE, input.name);
    if (holder !== undefined && holder !== next.id) throw new UserError('group name is already in use');
    next.name = input.name;
  }
  if (input.metadata !== undefined) next.metadata = { ...input.metadata };
  if (input.memberEntityIds !== undefined) {
    if (next.type === 'external') throw new UserError("member entities can't be set manually for external groups");
    next.memberEntityIds = sortedUnique(input.memberEntityIds);
  }
  if (input.memberGroupIds !== undefined && next.type === 'external') throw new UserError("member groups can't be set for external groups");
  if (next.name === '') next.name = generatedGroupName(tx);
  for (const entityId of next.memberEntityIds) {
    if (!tx.get(ENTITIES_TABLE, entityId)) throw new UserError(`invalid entity ID "${entityId}"`);
  }
  if (input.memberGroupIds !== undefined) setMemberGroups(tx, next, !prev, sortedUnique(input.memberGroupIds));
  return { group: putGroup(tx, next, prev), created: !prev };
}

/** Deletes a group, its alias, and its place in the parent lists of its member groups. */
export function deleteGroupInTx(tx: WriteTx, id: string): boolean {
  const group = groupById(tx, id);
  if (!group) return false;
  for (const childId of memberGroupIdsOf(tx, id)) {
    const child = groupById(tx, childId);
    if (child) putGroup(tx, { ...child, parentGroupIds: child.parentGroupIds.filter((p) => p !== id) }, child);
  }
  unindex(tx, group);
  tx.delete(GROUPS_TABLE, id);
  return true;
}

/** Removes an entity from every group that lists it (the entity is being deleted or merged away). */
/** Takes the entity out of every group it is a direct member of (the entity is being deleted). */
export function removeEntityFromGroups(tx: WriteTx, entityId: string): void {
  replaceEntityInGroups(tx, entityId, undefined);
}

/**
 * Puts `to` in place of `from` in every group `from` is a direct member of, one write per group (an
 * entity merge); without `to`, only takes `from` out.
 */
export function replaceEntityInGroups(tx: WriteTx, from: string, to: string | undefined): void {
  for (const groupId of directGroupIdsOf(tx, from)) {
    const group = groupById(tx, groupId);
    if (!group) continue;
    const members = group.memberEntityIds.filter((e) => e !== from);
    const joined = to !== undefined && !members.includes(to) ? [...members, to].sort() : members;
    putGroup(tx, { ...group, memberEntityIds: joined }, group);
  }
}

/**
 * Creates a group alias (no `id`) or updates one, as Vault's handleGroupAliasUpdateCommon does. A new
 * alias without canonical_id gets a new external group; an alias given another group moves to it.
 * Answers undefined when an update would change nothing.
 */
export function writeGroupAliasInTx(tx: WriteTx, id: string | undefined, input: GroupAliasInput): GroupAliasEntry | undefined {
  const prevGroup = id === undefined ? undefined : groupByAliasId(tx, id);
  if (id !== undefined && !prevGroup?.alias) throw new UserError('invalid group alias ID');
  const existing = prevGroup?.alias;
  if (input.name === '') throw new UserError('missing alias name');
  if (input.mountAccessor === '') throw new UserError('missing mount_accessor');
  const canonicalId = input.canonicalId ?? '';
  if (existing && existing.name === input.name && existing.mountAccessor === input.mountAccessor && (canonicalId === '' || existing.canonicalId === canonicalId)) {
    return undefined;
  }

  let target: GroupEntry | undefined;
  if (canonicalId !== '') {
    target = groupById(tx, canonicalId);
    if (!target) throw new UserError("invalid group ID given in 'canonical_id'");
    if (target.type !== 'external') throw new UserError("alias can't be set on an internal group");
  }
  const mount = mountByAccessor(tx, input.mountAccessor);
  if (!mount) throw new UserError(`invalid mount accessor "${input.mountAccessor}"`);
  if (mount.local) throw new UserError(`mount accessor "${input.mountAccessor}" is a local mount`);
  const holder = groupByAliasFactors(tx, input.mountAccessor, input.name);
  if (holder?.alias && holder.alias.id !== existing?.id) throw new UserError('combination of mount and group alias name is already in use');

  const now = String(nowNs());
  const group = target ?? prevGroup ?? { ...newGroup('external'), name: generatedGroupName(tx) };
  const alias: GroupAliasEntry = {
    id: existing?.id ?? uuid(),
    canonicalId: group.id,
    mountAccessor: input.mountAccessor,
    name: input.name,
    creationTimeNs: existing?.creationTimeNs ?? now,
    lastUpdateTimeNs: existing ? laterThan(existing.lastUpdateTimeNs) : now,
  };
  // Moving the alias to another group takes it off the one that had it, in the same transaction.
  if (prevGroup && prevGroup.id !== group.id) putGroup(tx, { ...prevGroup, alias: undefined }, prevGroup);
  const stored = groupById(tx, group.id);
  putGroup(tx, { ...(stored ?? group), alias }, stored);
  return alias;
}

export function deleteGroupAliasInTx(tx: WriteTx, aliasId: string): boolean {
  const group = groupByAliasId(tx, aliasId);
  if (!group?.alias) return false;
  putGroup(tx, { ...group, alias: undefined }, group);
  return true;
}

/** The group aliases of an auth mount being disabled go with it. */
export function removeGroupAliasesOfMountInTx(tx: WriteTx, mountAccessor: string): number {
  let removed = 0;
  for (const { key, value: groupId } of tx.list<string>(GROUP_ALIAS_KEYS_TABLE, `${mountAccessor}/`)) {
    const group = groupById(tx, groupId);
    if (group?.alias) {
      putGroup(tx, { ...group, alias: undefined }, group);
      removed++;
    } else {
      tx.delete(GROUP_ALIAS_KEYS_TABLE, key);
    }
  }
  return removed;
}
