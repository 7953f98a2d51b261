/**
 * Role tags: a value an operator puts in an instance tag to narrow what a login to the role grants that
 * instance. The format is Vault's, with the items in this fixed order:
 *
 *   v1:<nonce>:r=<role>:d=<bool>:m=<bool>[:p=<policies>][:i=<instance id>][:t=<max ttl seconds>]:<hmac>
 *
 * The nonce is base64 of 8 random bytes, so two tags with the same content differ (and can be deny-listed
 * apart). The HMAC is base64 of HMAC-SHA256 under the role's key over everything before the last ':'.
 *
 * Verification covers the text exactly as written. Vault rebuilds the text from the parsed items before
 * comparing, so a reordered copy of a tag verifies there but is a different string from the deny-listed
 * one; here only the text that was signed verifies. The HMAC is compared as text, not as decoded bytes,
 * for the same reason: base64 has several spellings of the same bytes.
 */
import crypto from 'node:crypto';
import { UserError } from '../../../shared/errors.js';
import { parseGoBool } from '../../../shared/go-bool.js';
import type { SecretsContext } from '../../context.js';
import { sanitizePolicies } from '../../token/token-store.js';
import { readRole, roleHmacKey, type RoleEntry } from './role-entry.js';

export const ROLE_TAG_VERSION = 'v1';
/** What an instance tag value can hold. */
export const MAX_ROLE_TAG_LENGTH = 255;
const NONCE_BYTES = 8;

export interface RoleTag {
  nonce: string;
  /** the role's name, lower-case */
  role: string;
  /** sanitized; empty means the role's own policies */
  policies: string[];
  /** seconds; 0 means no limit of the tag's own */
  maxTtl: number;
  /** '' means any instance */
  instanceId: string;
  disallowReauthentication: boolean;
  allowInstanceMigration: boolean;
}

export interface VerifiedRoleTag extends RoleTag {
  roleEntry: RoleEntry;
}

export function newRoleTagNonce(): string {
  return crypto.randomBytes(NONCE_BYTES).toString('base64');
}

/** The signed part of a tag. */
export function roleTagPlaintext(tag: RoleTag): string {
  const items = [ROLE_TAG_VERSION, tag.nonce, `r=${tag.role}`, `d=${tag.disallowReauthentication}`, `m=${tag.allowInstanceMigration}`];
  if (tag.policies.length > 0) items.push(`p=${tag.policies.join(',')}`);
  if (tag.instanceId !== '') items.push(`i=${tag.instanceId}`);
  if (tag.maxTtl >= 1) items.push(`t=${Math.trunc(tag.maxTtl)}`);
  return items.join(':');
}

export function roleTagHmac(plaintext: string, key: string): string {
  return crypto.createHmac('sha256', key).update(plaintext, 'utf8').digest('base64');
}

/** The complete tag value. */
export function signRoleTag(tag: RoleTag, key: string): string {
  const plaintext = roleTagPlaintext(tag);
  return `${plaintext}:${roleTagHmac(plaintext, key)}`;
}

/** Tag text quoted in a message: a tag is no secret (it sits in instance tags), but it can be long. */
const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

function parseBool(item: string): boolean {
  // Go's strconv.ParseBool, which Vault reads d= and m= with.
  const b = parseGoBool(item.slice(2));
  if (b !== undefined) return b;
  throw new UserError(`invalid item ${quote(item)} in role tag: ${item.slice(0, 2)} takes true or false`);
}

export interface ParsedRoleTag {
  tag: RoleTag;
  /** the text the HMAC covers */
  plaintext: string;
  hmac: string;
}

/** Reads a tag's items without checking its signature (see verifyRoleTag). */
export function parseRoleTag(value: string): ParsedRoleTag {
  const items = value.split(':');
  if (items.length < 4) throw new UserError('invalid role tag: expected "v1:<nonce>:r=<role>:…:<hmac>"');
  const hmac = items.pop()!;
  const [version, nonce, ...rest] = items;
  if (version !== ROLE_TAG_VERSION) throw new UserError(`invalid role tag version ${quote(version)}: the only version is "${ROLE_TAG_VERSION}"`);
  const tag: RoleTag = { nonce, role: '', policies: [], maxTtl: 0, instanceId: '', disallowReauthentication: false, allowInstanceMigration: false };
  for (const item of rest) {
    const prefix = item.slice(0, 2);
    const v = item.slice(2);
    if (prefix === 'r=') tag.role = v;
    else if (prefix === 'p=') tag.policies = v.split(',');
    else if (prefix === 'i=') tag.instanceId = v;
    else if (prefix === 'd=') tag.disallowReauthentication = parseBool(item);
    else if (prefix === 'm=') tag.allowInstanceMigration = parseBool(item);
    else if (prefix === 't=') {
      if (!/^\d{1,15}$/.test(v)) throw new UserError(`invalid item ${quote(item)} in role tag: t= takes whole seconds`);
      tag.maxTtl = Number(v);
    } else throw new UserError(`unrecognized item ${quote(item)} in role tag`);
  }
  if (tag.role === '') throw new UserError('missing role name (r=) in role tag');
  return { tag, plaintext: items.join(':'), hmac };
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && b.length > 0 && crypto.timingSafeEqual(a, b);
}

/**
 * Parses a tag and checks its signature under the key of the role it names. Login and the deny list
 * use it; every failure is a UserError, since the tag is what the caller sent.
 */
export function verifyRoleTag(services: SecretsContext, accessor: string, value: string): VerifiedRoleTag {
  const { tag, plaintext, hmac } = parseRoleTag(value);
  const roleEntry = readRole(services, accessor, tag.role);
  if (!roleEntry) throw new UserError(`entry not found for role ${quote(tag.role)} named in the role tag`);
  const expected = roleEntry.hmac_key_sealed ? roleTagHmac(plaintext, roleHmacKey(services, accessor, tag.role, roleEntry)) : '';
  if (!sameText(hmac, expected)) throw new UserError('role tag signature verification failed');
  return { ...tag, roleEntry };
}

/** What a role's tokens get, which is what a tag is measured against: `default` counts unless the role leaves it out. */
export function roleGrantedPolicies(role: RoleEntry): string[] {
  return sanitizePolicies(role.token_policies, !role.token_no_default_policy);
}

/** The tag's policies that the role does not grant; a role with `root` grants every policy. */
export function policiesBeyondRole(role: RoleEntry, policies: readonly string[]): string[] {
  const granted = new Set(roleGrantedPolicies(role));
  if (granted.has('root')) return [];
  return policies.filter((p) => !granted.has(p));
}
