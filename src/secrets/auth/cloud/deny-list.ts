/**
 * The role-tag deny list: tags that no instance may log in with any more (tokens already issued with
 * them stay valid). Entries are keyed by the tag's URL-safe base64, so that the '/' a tag's nonce or
 * HMAC may hold does not make a storage name of two levels. As in Vault, tidy removes an entry once it is past its
 * expiration_time plus the safety buffer, and the tag is accepted again from then on.
 */
import type { SecretsContext } from '../../context.js';
import { deleteEntry, listEntries, readEntry, updateEntry } from './mount-storage.js';
import { mountTtls } from '../role-token.js';
import { verifyRoleTag } from './role-tag.js';
import { ec2MaxTtls } from './login/nonce.js';

export const DENY_LIST_PREFIX = 'roletag-denylist';

export interface DenyListEntry {
  /** RFC 3339; the first time the tag was deny-listed */
  creation_time: string;
  /** RFC 3339 */
  expiration_time: string;
}

const entryName = (tag: string) => `${DENY_LIST_PREFIX}/${Buffer.from(tag, 'utf8').toString('base64url')}`;

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The tag a path value stands for: callers may send it as is or base64-encoded. A tag always
 * holds ':' and base64 never does, so the two cannot be confused. The base64 of a tag is what survives
 * any URL: a tag's raw nonce and HMAC may hold "//", which no request path may, while the base64 of
 * ASCII text without '>', '?' and '~' never holds '/' or '+'. Padding may be left out, and the URL-safe
 * alphabet is accepted too.
 */
export function tagFromPathValue(value: string): string {
  if (value.includes(':') || !BASE64.test(value)) return value;
  return Buffer.from(value, 'base64').toString('utf8');
}

export function readDenyListEntry(services: SecretsContext, accessor: string, tag: string): DenyListEntry | undefined {
  return readEntry<DenyListEntry>(services.store, accessor, entryName(tag));
}

/** Whether login must refuse this tag value (as read from the instance's tag). */
export function isDenyListed(services: SecretsContext, accessor: string, tagValue: string): boolean {
  return readDenyListEntry(services, accessor, tagValue) !== undefined;
}

/**
 * Deny-lists a tag after checking it is one of ours (signature verified under its role's key), until the
 * longest lifetime a token issued with it could have: the tag's max TTL, the role's or the mount's.
 * Deny-listing it again keeps the creation time and moves the expiration.
 */
export async function denyListTag(services: SecretsContext, accessor: string, tag: string, now = new Date()): Promise<DenyListEntry> {
  const verified = verifyRoleTag(services, accessor, tag);
  const { longest } = ec2MaxTtls(mountTtls(services, accessor).maxTtl, verified.roleEntry.token_max_ttl, verified.maxTtl);
  const expiration = new Date(now.getTime() + longest * 1000).toISOString();
  return updateEntry<DenyListEntry>(services.store, accessor, entryName(tag), (current) => ({
    creation_time: current?.creation_time ?? now.toISOString(),
    expiration_time: expiration,
  }));
}

export async function deleteDenyListEntry(services: SecretsContext, accessor: string, tag: string): Promise<void> {
  await deleteEntry(services.store, accessor, entryName(tag));
}

/** The deny-listed tags themselves, sorted. */
export function listDenyListedTags(services: SecretsContext, accessor: string): string[] {
  return listEntries(services.store, accessor, DENY_LIST_PREFIX)
    .map((key) => Buffer.from(key, 'base64url').toString('utf8'))
    .sort();
}
