/**
 * A request made with a token, as both pipelines establish it: the live token and the ACL its policies
 * and its entity's make.
 */
import { PermissionDenied } from '../../shared/errors.js';
import type { Store } from '../../storage/store.js';
import type { SecretsContext } from '../context.js';
import { ENTITIES_TABLE, MERGED_ENTITIES_TABLE } from '../identity/entity-tables.js';
import { GROUPS_BY_ENTITY_TABLE, GROUPS_TABLE } from '../identity/group-store.js';
import { MOUNTS_TABLE } from '../mounts/mount-table.js';
import type { Acl } from '../policy/acl.js';
import { POLICIES_TABLE } from '../policy/policy-store.js';
import { addressInCidrs } from './cidr.js';
import type { TokenEntry } from './token-entry.js';
import { isExpired, TOKENS_TABLE } from './token-store.js';

export interface TokenCaller {
  kind: 'token';
  token: TokenEntry;
  acl: Acl;
}

/**
 * Checks beyond the token itself: its entity must not be disabled, and the auth mount that issued it
 * must still exist — so a login that raced a mount's disable cannot leave a working token behind.
 */
export function tokenUsable(token: TokenEntry, services: Pick<SecretsContext, 'identity' | 'mounts'>): boolean {
  if (token.entityId && services.identity.entityDisabled(token.entityId)) return false;
  return token.mountAccessor === '' || services.mounts.byAccessor(token.mountAccessor) !== undefined;
}

/** The caller a resolved, usable token makes. */
export async function callerOf(token: TokenEntry, services: Pick<SecretsContext, 'identity' | 'policies'>): Promise<TokenCaller> {
  const identityPolicies = token.entityId ? services.identity.entityPolicies(token.entityId) : [];
  return { kind: 'token', token, acl: await services.policies.aclFor([...token.policies, ...identityPolicies]) };
}

/**
 * Every table a caller is read from: the token, the policies of its ACL, the mount that issued it, its
 * entity (or the one it was merged into) and the entity's groups. A write to any of them may change who
 * the caller is or what it may do; nothing else can, but the clock (expiry) and the client's address
 * (bound CIDRs), which are checked on every request.
 */
const CALLER_TABLES = [TOKENS_TABLE, POLICIES_TABLE, MOUNTS_TABLE, ENTITIES_TABLE, MERGED_ENTITIES_TABLE, GROUPS_TABLE, GROUPS_BY_ENTITY_TABLE];

/** More distinct tokens than this at once and the oldest made caller is dropped first. */
const CACHED_CALLERS = 4096;

interface MadeCaller {
  /** the caller tables' indexes when its reads began */
  stamp: string;
  caller: TokenCaller;
}

/**
 * Callers made since the caller tables last moved, by token id (the secret's hash). Whatever store the
 * server runs on, its indexes say when a write landed, this server's or another's: the global index is
 * one read per request, and only when it moved are the tables' own read, so that the scheduler's
 * writes (heartbeats, allocations) do not drop the callers.
 */
class CallerCache {
  private readonly made = new Map<string, MadeCaller>();
  private stampIndex = -1;
  private stamp = '';

  constructor(private readonly store: Store) {}

  /** The caller tables' indexes now; the global index is read first, so a stamp is never newer than its index. */
  current(): string {
    const index = this.store.index();
    if (index !== this.stampIndex) {
      const stamp = CALLER_TABLES.map((t) => this.store.tableIndex(t)).join('/');
      this.stampIndex = index;
      if (stamp !== this.stamp) this.made.clear();
      this.stamp = stamp;
    }
    return this.stamp;
  }

  get(id: string, stamp: string): TokenCaller | undefined {
    const made = this.made.get(id);
    return made?.stamp === stamp ? made.caller : undefined;
  }

  /** `stamp` is the one read before the caller's reads: a write meanwhile moves the stamp and retires it. */
  set(id: string, stamp: string, caller: TokenCaller): void {
    if (stamp !== this.stamp) return;
    if (this.made.size >= CACHED_CALLERS) this.made.delete(this.made.keys().next().value!);
    this.made.set(id, { stamp, caller });
  }
}

const caches = new WeakMap<Store, CallerCache>();

function cacheOf(store: Store): CallerCache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new CallerCache(store)));
  return cache;
}

/**
 * Why a token makes no caller: `unknown` when it is unknown, expired or used from outside its bound
 * CIDRs (what `resolve` refuses), `unusable` when it resolves but `tokenUsable` refuses it. The secrets
 * side answers both alike; the scheduler side words them as Nomad does.
 */
export class TokenRefused extends PermissionDenied {
  constructor(readonly reason: 'unknown' | 'unusable') {
    super();
  }
}

/**
 * The caller a request's token makes: the token resolved, checked usable and its ACL built, as
 * `resolve`, `tokenUsable` and `callerOf` do; TokenRefused says why not. What it makes is kept until one
 * of the caller tables moves; a limited-use token's every use writes its entry, so it is made anew each
 * time.
 */
export async function callerFor(secret: string, remoteAddress: string, services: Pick<SecretsContext, 'store' | 'tokens' | 'identity' | 'mounts' | 'policies'>): Promise<TokenCaller> {
  const cache = cacheOf(services.store);
  const stamp = cache.current();
  const id = services.tokens.idOf(secret);
  const cached = cache.get(id, stamp);
  // An expired token goes the long way, which revokes it.
  if (cached && !isExpired(cached.token)) {
    const { boundCidrs } = cached.token;
    if (boundCidrs.length > 0 && !addressInCidrs(remoteAddress, boundCidrs)) throw new TokenRefused('unknown');
    return cached;
  }
  let token: TokenEntry;
  try {
    token = await services.tokens.resolve(secret, remoteAddress);
  } catch (err) {
    throw err instanceof PermissionDenied ? new TokenRefused('unknown') : err;
  }
  if (!tokenUsable(token, services)) throw new TokenRefused('unusable');
  const caller = await callerOf(token, services);
  if (token.numUses === 0) cache.set(id, stamp, caller);
  return caller;
}
