/**
 * The client nonce and the access list on an ec2 login, as Vault's aws auth method keeps them. An instance proves on later logins that it is the one that logged in first by sending
 * the nonce it was given (or chose); the access-list entry remembers it. Pure functions: login-ec2.ts
 * runs them inside the transaction that writes the entry, so two logins of one instance cannot both pass
 * against the same old entry.
 */
import { timingSafeEqual } from 'node:crypto';
import { UserError } from '../../../../shared/errors.js';
import { uuid } from '../../../../shared/ids.js';
import type { AccessListEntry } from '../access-list.js';

/** What an empty nonce stands for: the instance asked never to log in again. */
const REAUTHENTICATION_DISABLED = 'reauthentication-disabled-nonce';
export const MAX_NONCE_LENGTH = 128;

export interface NonceRequest {
  /** whether the body had a `nonce` field at all (an empty one means something) */
  sent: boolean;
  value: string;
}

export interface ReauthenticationCheck {
  /** the nonce of this login: the client's, the disabled marker, or a new random one */
  nonce: string;
  disallow: boolean;
}

function sameNonce(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function pendingTime(value: string, which: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new UserError(`failed to parse the ${which} pendingTime "${value}" as an RFC 3339 time`);
  return ms;
}

/**
 * Decides whether this login may happen given the instance's entry from its last login, in the
 * established order; throws a UserError saying which rule refused it.
 */
export function checkReauthentication(
  stored: AccessListEntry | undefined,
  request: NonceRequest,
  role: { disallow_reauthentication: boolean; allow_instance_migration: boolean },
  documentPendingTime: string,
): ReauthenticationCheck {
  let disallow = role.disallow_reauthentication;
  let nonce = '';
  if (request.sent) {
    if (request.value === '') {
      nonce = REAUTHENTICATION_DISABLED;
      disallow = true;
    } else {
      nonce = request.value;
    }
  }
  if (stored) {
    if (!stored.disallow_reauthentication && stored.client_nonce === '') throw new UserError('client nonce missing in stored identity');
    if (stored.disallow_reauthentication || nonce === REAUTHENTICATION_DISABLED) {
      throw new UserError(
        'reauthentication is disabled for this instance: delete its entry at identity-accesslist/<instance_id> to let it log in again',
      );
    }
    const before = pendingTime(stored.pending_time, 'stored');
    const now = pendingTime(documentPendingTime, "identity document's");
    if (!sameNonce(stored.client_nonce, nonce)) {
      if (!role.allow_instance_migration) {
        throw new UserError(
          request.sent
            ? 'client nonce mismatch: send the nonce the first login of this instance returned'
            : 'client nonce mismatch: this instance logged in before, so the nonce that login returned must be sent',
        );
      }
      if (!(now > before)) throw new UserError('client nonce mismatch and instance meta-data incorrect: the pendingTime is not newer than at the last login');
    }
    if (now < before) throw new UserError('instance meta-data is older than the one used for previous login');
    disallow ||= stored.disallow_reauthentication;
  }
  if (!request.sent) nonce = uuid();
  return { nonce, disallow };
}

/**
 * The max TTLs of an ec2 login from the mount's, the role's and a role tag's (0 = none of its own): the
 * token gets the shortest; the access-list entry (and a deny-listed tag) lasts the longest, so that the
 * instance's replay window is as long as any token it could hold.
 */
export function ec2MaxTtls(mountMax: number, roleMax: number, tagMax: number): { shortest: number; longest: number } {
  const limits = [roleMax, tagMax].filter((t) => t > 0);
  return { shortest: Math.min(mountMax, ...limits), longest: Math.max(mountMax, ...limits) };
}

export interface AccessListUpdate {
  entry: AccessListEntry;
  /** the nonce the login answer carries: only a server-made one, and only while reauthentication is allowed */
  returnedNonce?: string;
}

/**
 * The instance's entry after a successful login. The first login fixes the role, the nonce and the
 * creation time; every login moves the times and the pendingTime. Once reauthentication is disallowed
 * (by the role, a role tag or the client) the nonce is blanked, so nothing can log in with it.
 *
 * A login that sent no nonce gets the stored one back: on a first login that is the one just made; on a
 * later login, only possible for a migrated instance, it is the nonce that keeps working (the established
 * implementation returns a fresh one it never stores, which the next login then fails with).
 */
export function accessListAfterLogin(
  stored: AccessListEntry | undefined,
  check: ReauthenticationCheck,
  request: NonceRequest,
  facts: { role: string; pendingTime: string; longestMaxTtl: number; now: Date },
): AccessListUpdate {
  if (!check.disallow && check.nonce.length > MAX_NONCE_LENGTH) {
    throw new UserError(`client nonce exceeding the limit of ${MAX_NONCE_LENGTH} characters`);
  }
  const now = facts.now.toISOString();
  const entry: AccessListEntry = {
    role: stored?.role ?? facts.role,
    client_nonce: stored?.client_nonce ?? check.nonce,
    creation_time: stored?.creation_time ?? now,
    disallow_reauthentication: check.disallow,
    pending_time: facts.pendingTime,
    expiration_time: new Date(facts.now.getTime() + facts.longestMaxTtl * 1000).toISOString(),
    last_updated_time: now,
  };
  if (check.disallow) entry.client_nonce = '';
  const returnedNonce = !check.disallow && !request.sent ? entry.client_nonce : undefined;
  return { entry, returnedNonce };
}
