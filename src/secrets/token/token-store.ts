/**
 * The token store, with Vault's token semantics: policies sanitised, TTLs computed as Vault's
 * CalculateTTL does, children revoked with their parent (orphans survive), limited-use tokens counted
 * atomically.
 *
 * Storage: `tokens` keyed by the salted hash of the secret (the secret itself is never written),
 * `token-accessors` accessor → token id, and `token-parents` `<parent id>/<child id>` → true, so that a
 * revocation finds the whole tree inside one write transaction. Every read-modify-write happens inside
 * `store.write`, so several server processes sharing a store stay consistent.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { formatDuration } from '../../shared/duration.js';
import { base62 } from '../../shared/ids.js';
import type { Logger } from '../../shared/log.js';
import type { Store, WriteTx } from '../../storage/store.js';
import type { Seal } from '../../storage/seal.js';
import type { AuthBlock } from './auth-block.js';
import type { CreateTokenParams, DraftToken, RenewSettings, TokenService } from './token-service.js';
import type { TokenEntry } from './token-entry.js';
import { addressInCidrs, parseCidrList } from './cidr.js';
import { tokenCreated, tokensExpired, tokensRevoked } from './telemetry.js';

export const TOKENS_TABLE = 'tokens';
export const ACCESSORS_TABLE = 'token-accessors';
export const PARENTS_TABLE = 'token-parents';

/** Vault's system defaults: default lease TTL and max lease TTL are both 32 days. */
export const SYSTEM_DEFAULT_TTL = 768 * 3600;
export const SYSTEM_MAX_TTL = 768 * 3600;

const SERVICE_PREFIX = 'svc.';
const BATCH_PREFIX = 'svb.';
const SECRET_LENGTH = 24;
const ACCESSOR_LENGTH = 24;

const ROOT = 'root';
const DEFAULT = 'default';

/**
 * Vault's policyutil.SanitizePolicies: trimmed, lower-cased, empties dropped; `root` swallows every other
 * policy; `default` appended when asked; duplicates removed; sorted.
 */
export function sanitizePolicies(input: readonly string[], addDefault: boolean): string[] {
  let policies: string[] = [];
  let hasDefault = false;
  for (const raw of input) {
    const p = raw.trim().toLowerCase();
    if (p === '') continue;
    if (p === ROOT) {
      policies = [ROOT];
      hasDefault = true;
      break;
    }
    if (p === DEFAULT) hasDefault = true;
    policies.push(p);
  }
  if (addDefault && !hasDefault) policies.push(DEFAULT);
  return [...new Set(policies)].sort(compareStrings);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface TtlInput {
  /** requested renewal increment, seconds; 0 at creation */
  increment: number;
  /** the TTL the token asked for (creation) or holds (renewal) */
  backendTtl: number;
  period: number;
  /** an auth method's max TTL; 0 = the system's */
  backendMaxTtl: number;
  explicitMaxTtl: number;
  /** when the token was issued, ms */
  startMs: number;
  nowMs: number;
}

/** Vault's framework.CalculateTTL, in seconds. Throws when a renewal is already past the max TTL. */
export function calculateTtl(input: TtlInput): { ttl: number; warnings: string[] } {
  const warnings: string[] = [];
  let maxTtl = SYSTEM_MAX_TTL;
  if (input.backendMaxTtl > 0 && input.backendMaxTtl < maxTtl) maxTtl = input.backendMaxTtl;
  if (input.explicitMaxTtl > 0 && input.explicitMaxTtl < maxTtl) maxTtl = input.explicitMaxTtl;

  let ttl: number;
  let maxValidMs: number | undefined;
  if (input.period > 0) {
    let period = input.period;
    if (period > maxTtl) {
      warnings.push(`period of "${formatDuration(period)}" exceeded the effective max_ttl of "${formatDuration(maxTtl)}"; period value is capped accordingly`);
      period = maxTtl;
    }
    ttl = period;
    // A periodic token lives as long as it is renewed; only an explicit max TTL ends it.
    if (input.explicitMaxTtl > 0) maxValidMs = input.startMs + input.explicitMaxTtl * 1000;
  } else {
    ttl = input.increment > 0 ? input.increment : input.backendTtl > 0 ? input.backendTtl : SYSTEM_DEFAULT_TTL;
    maxValidMs = input.startMs + maxTtl * 1000;
  }
  if (maxValidMs !== undefined) {
    const maxValidTtl = Math.floor((maxValidMs - input.nowMs) / 1000);
    if (maxValidTtl <= 0) throw new UserError('past the max TTL, cannot renew');
    if (maxValidTtl < ttl) {
      warnings.push(`TTL of "${formatDuration(ttl)}" exceeded the effective max_ttl of "${formatDuration(maxValidTtl)}"; TTL value is capped accordingly`);
      ttl = maxValidTtl;
    }
  }
  return { ttl, warnings };
}

export const isExpired = (entry: TokenEntry, nowMs = Date.now()): boolean => entry.expireTime !== 0 && entry.expireTime <= nowMs;

/**
 * Deletes a token and every token below it in one transaction: the entries, their accessor index rows
 * and their parent index rows. Returns how many tokens were deleted.
 */
function revokeTreeInTx(tx: WriteTx, rootId: string): number {
  const root = tx.get<TokenEntry>(TOKENS_TABLE, rootId);
  if (!root) return 0;
  if (root.parentId) tx.delete(PARENTS_TABLE, `${root.parentId}/${rootId}`);
  let count = 0;
  const pending = [rootId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    const prefix = `${id}/`;
    for (const { key } of tx.list<boolean>(PARENTS_TABLE, prefix)) {
      pending.push(key.slice(prefix.length));
      tx.delete(PARENTS_TABLE, key);
    }
    const entry = tx.get<TokenEntry>(TOKENS_TABLE, id);
    if (!entry) continue;
    tx.delete(TOKENS_TABLE, id);
    if (entry.accessor) tx.delete(ACCESSORS_TABLE, entry.accessor);
    count++;
  }
  return count;
}

/** Deletes one token; its children become orphans (Vault's revoke-orphan). */
function revokeOrphanInTx(tx: WriteTx, id: string): number {
  const entry = tx.get<TokenEntry>(TOKENS_TABLE, id);
  if (!entry) return 0;
  if (entry.parentId) tx.delete(PARENTS_TABLE, `${entry.parentId}/${id}`);
  const prefix = `${id}/`;
  for (const { key } of tx.list<boolean>(PARENTS_TABLE, prefix)) {
    tx.delete(PARENTS_TABLE, key);
    const childId = key.slice(prefix.length);
    const child = tx.get<TokenEntry>(TOKENS_TABLE, childId);
    if (child) tx.put(TOKENS_TABLE, childId, { ...child, parentId: '', orphan: true });
  }
  tx.delete(TOKENS_TABLE, id);
  if (entry.accessor) tx.delete(ACCESSORS_TABLE, entry.accessor);
  return 1;
}

export class TokenStore implements TokenService {
  constructor(
    private readonly store: Store,
    private readonly seal: Seal,
    private readonly log: Logger,
  ) {}

  /**
   * Computed for every request, never remembered by secret: a map of recent secrets would keep bearer
   * tokens in the clear in the process's memory (a heap dump, a core file) for as long as it runs.
   */
  idOf(secret: string): string {
    return this.seal.hashToken(secret);
  }

  /** The stored entry by id (the secret's hash), expired or not. */
  getById(id: string): TokenEntry | undefined {
    return this.store.get<TokenEntry>(TOKENS_TABLE, id);
  }

  /** A live token by its secret, without the CIDR check (lookups of another token); undefined when unknown or expired. */
  find(secret: string): TokenEntry | undefined {
    if (secret === '') return undefined;
    const entry = this.getById(this.idOf(secret));
    return entry && !isExpired(entry) ? entry : undefined;
  }

  /** A live token by its accessor; undefined when unknown or expired. */
  lookupByAccessor(accessor: string): TokenEntry | undefined {
    if (accessor === '') return undefined;
    const id = this.store.get<string>(ACCESSORS_TABLE, accessor);
    const entry = id === undefined ? undefined : this.getById(id);
    return entry && !isExpired(entry) ? entry : undefined;
  }

  /** Accessors of every live token (batch tokens have none). */
  listAccessors(): string[] {
    const now = Date.now();
    const out: string[] = [];
    for (const { key, value: id } of this.store.list<string>(ACCESSORS_TABLE)) {
      const entry = this.getById(id);
      if (entry && !isExpired(entry, now)) out.push(key);
    }
    return out;
  }

  async resolve(secret: string, remoteAddress: string): Promise<TokenEntry> {
    const id = this.idOf(secret);
    const entry = this.getById(id);
    if (!entry) throw new PermissionDenied();
    if (isExpired(entry)) {
      await this.store
        .write((tx) => revokeTreeInTx(tx, id))
        .then(({ result }) => tokensExpired.inc(result))
        .catch((err: Error) => this.log.error(`revoking an expired token failed: ${err.message}`));
      throw new PermissionDenied();
    }
    if (entry.boundCidrs.length > 0 && !addressInCidrs(remoteAddress, entry.boundCidrs)) throw new PermissionDenied();
    return entry;
  }

  async use(entry: TokenEntry): Promise<void> {
    if (entry.numUses <= 0) return;
    const { result: revoked } = await this.store.write((tx) => {
      const current = tx.get<TokenEntry>(TOKENS_TABLE, entry.id);
      // Gone means another request took the last use (or revoked it) since this one resolved the token.
      if (!current || current.numUses <= 0) throw new PermissionDenied();
      const remaining = current.numUses - 1;
      if (remaining === 0) return revokeTreeInTx(tx, entry.id);
      tx.put(TOKENS_TABLE, entry.id, { ...current, numUses: remaining });
      return 0;
    });
    if (revoked > 0) tokensRevoked.inc(revoked);
  }

  /**
   * A new token, checked and computed but not stored: `putInTx` stores it. Login handlers use the pair to
   * store the token in the same transaction as their own records, so that a login writes once.
   */
  draft(params: CreateTokenParams): DraftToken {
    const type = params.type ?? 'service';
    const numUses = params.numUses ?? 0;
    const explicitMaxTtl = params.explicitMaxTtl ?? 0;
    const period = params.period ?? 0;
    const requestedTtl = params.ttl ?? 0;
    const maxTtl = params.maxTtl ?? 0;
    let renewable = params.renewable ?? true;
    const parent = params.orphan ? undefined : params.parent;

    if (numUses < 0) throw new UserError('number of uses cannot be negative');
    if (requestedTtl < 0) throw new UserError('ttl must be positive');
    if (explicitMaxTtl < 0) throw new UserError('explicit_max_ttl must be positive');
    if (period < 0) throw new UserError('period must be positive');
    if (maxTtl < 0) throw new UserError('max_ttl must be positive');
    if (type !== 'service' && type !== 'batch') throw new UserError("invalid 'token_type' value");
    if (type === 'batch') {
      const bad = explicitMaxTtl !== 0 ? 'explicit_max_ttl' : numUses !== 0 ? 'num_uses' : period !== 0 ? 'period' : undefined;
      if (bad) throw new UserError(`batch tokens cannot have "${bad}" set`);
      renewable = false;
    }
    if (params.parent?.type === 'batch') throw new UserError('batch tokens cannot create more tokens');

    let policies = sanitizePolicies(params.policies, !params.noDefaultPolicy);
    if (params.noDefaultPolicy) policies = policies.filter((p) => p !== DEFAULT);
    if (policies.includes(ROOT) && type === 'batch') throw new UserError('batch tokens cannot be root tokens');

    let boundCidrs = parseCidrList(params.boundCidrs ?? []);
    const nowMs = Date.now();
    const warnings: string[] = [];
    let ttl = requestedTtl;
    // Root tokens asked for without a TTL never expire; everything else gets one.
    if (period > 0 || ttl > 0 || !policies.includes(ROOT)) {
      const computed = calculateTtl({ increment: 0, backendTtl: ttl, period, backendMaxTtl: maxTtl, explicitMaxTtl, startMs: nowMs, nowMs });
      ttl = computed.ttl;
      warnings.push(...computed.warnings);
    }
    if (ttl === 0 && explicitMaxTtl > 0) ttl = explicitMaxTtl;
    if (ttl === 0) {
      if (params.parent && params.parent.expireTime !== 0) {
        throw new UserError('expiring root tokens cannot create non-expiring root tokens');
      }
      // As Vault: a never-expiring token is not renewable and not CIDR-bound.
      renewable = false;
      boundCidrs = [];
    }

    const secret = params.secret ?? `${type === 'batch' ? BATCH_PREFIX : SERVICE_PREFIX}${base62(SECRET_LENGTH)}`;
    if (secret.trim() === '') throw new UserError('the token ID must not be empty');
    const id = this.idOf(secret);
    const entry: TokenEntry = {
      id,
      accessor: type === 'batch' ? '' : base62(ACCESSOR_LENGTH),
      policies,
      path: params.path,
      meta: { ...(params.meta ?? {}) },
      displayName: params.displayName ?? '',
      numUses,
      creationTime: Math.floor(nowMs / 1000),
      creationTtl: ttl,
      ttl,
      expireTime: ttl === 0 ? 0 : nowMs + ttl * 1000,
      lastRenewalTime: 0,
      explicitMaxTtl,
      maxTtl,
      period,
      boundCidrs,
      type,
      entityId: params.entityId ?? '',
      parentId: parent?.id ?? '',
      orphan: !parent,
      renewable,
      mountAccessor: params.mountAccessor,
      ...(params.authInternal ? { authInternal: params.authInternal } : {}),
      ...(params.role ? { role: params.role } : {}),
    };
    return { secret, entry, warnings, parent };
  }

  /** Stores a drafted token; throws (so that the transaction stores nothing) when its ID or parent is not right. */
  putInTx(tx: WriteTx, draft: DraftToken): void {
    const { entry, parent } = draft;
    const id = entry.id;
    if (tx.get(TOKENS_TABLE, id)) throw new UserError('cannot create a token with a duplicate ID');
    if (entry.accessor && tx.get(ACCESSORS_TABLE, entry.accessor)) throw new Error('accessor collision; retry');
    if (parent) {
      // The parent may have been revoked since the request resolved it; a child must not outlive it.
      if (!tx.get(TOKENS_TABLE, parent.id)) throw new UserError('parent token lookup failed: no parent found');
      tx.put(PARENTS_TABLE, `${parent.id}/${id}`, true);
    }
    tx.put(TOKENS_TABLE, id, entry);
    if (entry.accessor) tx.put(ACCESSORS_TABLE, entry.accessor, id);
  }

  created(draft: DraftToken): void {
    tokenCreated(draft.entry.path, draft.entry.type);
  }

  async create(params: CreateTokenParams): Promise<{ secret: string; entry: TokenEntry; warnings: string[] }> {
    const draft = this.draft(params);
    await this.store.write((tx) => this.putInTx(tx, draft));
    this.created(draft);
    return { secret: draft.secret, entry: draft.entry, warnings: draft.warnings };
  }

  authBlock(secret: string, entry: TokenEntry, identityPolicies: string[] = []): AuthBlock {
    const block: AuthBlock = {
      client_token: secret,
      accessor: entry.accessor,
      policies: [...new Set([...entry.policies, ...identityPolicies])].sort(compareStrings),
      token_policies: [...entry.policies],
      metadata: Object.keys(entry.meta).length === 0 ? null : { ...entry.meta },
      lease_duration: entry.ttl,
      renewable: entry.renewable,
      entity_id: entry.entityId,
      token_type: entry.type,
      orphan: entry.orphan,
      mfa_requirement: null,
      num_uses: entry.numUses,
    };
    if (identityPolicies.length > 0) block.identity_policies = [...new Set(identityPolicies)].sort(compareStrings);
    return block;
  }

  /**
   * Renews a token's lease as Vault does: the new TTL is the increment, or the current TTL when none is
   * given; periodic tokens go back to their period; the max TTL from creation and the explicit max TTL cap it.
   * An auth method's `settings` (its role's current values) replace the TTL, max TTL and period.
   */
  async renew(entry: TokenEntry, increment: number, settings?: RenewSettings): Promise<{ entry: TokenEntry; warnings: string[] }> {
    if (entry.type === 'batch') throw new UserError('batch tokens cannot be renewed');
    if (increment < 0) throw new UserError('increment must be positive');
    const { result } = await this.store.write((tx) => {
      const current = tx.get<TokenEntry>(TOKENS_TABLE, entry.id);
      const nowMs = Date.now();
      if (!current || isExpired(current, nowMs)) throw new UserError('token not found');
      if (!current.renewable || current.expireTime === 0) throw new UserError('lease is not renewable');
      // An auth method's current role values replace the ones the token was issued with.
      const limits = settings ?? { ttl: current.ttl, maxTtl: current.maxTtl, period: current.period };
      const { ttl, warnings } = calculateTtl({
        increment,
        backendTtl: limits.ttl,
        period: limits.period,
        backendMaxTtl: limits.maxTtl,
        explicitMaxTtl: current.explicitMaxTtl,
        startMs: current.creationTime * 1000,
        nowMs,
      });
      const renewed: TokenEntry = {
        ...current,
        ttl,
        maxTtl: limits.maxTtl,
        period: limits.period,
        expireTime: nowMs + ttl * 1000,
        lastRenewalTime: Math.floor(nowMs / 1000),
      };
      tx.put(TOKENS_TABLE, current.id, renewed);
      return { entry: renewed, warnings };
    });
    return result;
  }

  /** Revokes a token and its children, or only the token with `orphanChildren`. Returns how many went. */
  async revoke(id: string, opts: { orphanChildren?: boolean } = {}): Promise<number> {
    const { result } = await this.store.write((tx) => (opts.orphanChildren ? revokeOrphanInTx(tx, id) : revokeTreeInTx(tx, id)));
    if (result > 0) tokensRevoked.inc(result);
    return result;
  }

  async revokeByMount(mountAccessor: string): Promise<number> {
    const ids = this.store
      .list<TokenEntry>(TOKENS_TABLE)
      .filter(({ value }) => value.mountAccessor === mountAccessor)
      .map(({ key }) => key);
    if (ids.length === 0) return 0;
    const { result } = await this.store.write((tx) => {
      let count = 0;
      for (const id of ids) {
        const entry = tx.get<TokenEntry>(TOKENS_TABLE, id);
        if (entry && entry.mountAccessor === mountAccessor) count += revokeTreeInTx(tx, id);
      }
      return count;
    });
    if (result > 0) {
      tokensRevoked.inc(result);
      this.log.info(`revoked ${result} token(s) of auth mount ${mountAccessor}`);
    }
    return result;
  }

  async sweepExpired(): Promise<number> {
    const now = Date.now();
    const ids = this.store
      .list<TokenEntry>(TOKENS_TABLE)
      .filter(({ value }) => isExpired(value, now))
      .map(({ key }) => key);
    if (ids.length === 0) return 0;
    // Children of an expired token go with it, as in Vault; the count includes them.
    const { result } = await this.store.write((tx) => {
      let count = 0;
      for (const id of ids) {
        const entry = tx.get<TokenEntry>(TOKENS_TABLE, id);
        if (entry && isExpired(entry, now)) count += revokeTreeInTx(tx, id);
      }
      return count;
    });
    if (result > 0) {
      tokensExpired.inc(result);
      this.log.debug(`swept ${result} expired token(s)`);
    }
    return result;
  }
}
