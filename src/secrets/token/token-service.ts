/**
 * What the pipelines and the handlers ask of the token store (src/server/services.ts holds one), and the
 * shapes they exchange with it. TokenStore implements it on the Store.
 */
import type { WriteTx } from '../../storage/store.js';
import type { AuthBlock } from './auth-block.js';
import type { TokenEntry } from './token-entry.js';

export interface CreateTokenParams {
  /** use this secret instead of a random one (the -dev root token id, `id` on token create with root) */
  secret?: string;
  policies: string[];
  /** seconds; 0 = the default (32 days), capped by maxTtl and explicitMaxTtl */
  ttl?: number;
  maxTtl?: number;
  explicitMaxTtl?: number;
  period?: number;
  numUses?: number;
  boundCidrs?: string[];
  noDefaultPolicy?: boolean;
  type?: 'service' | 'batch';
  meta?: Record<string, string>;
  displayName?: string;
  entityId?: string;
  /** the creating token; absent for orphans and auth-method logins */
  parent?: TokenEntry;
  orphan?: boolean;
  renewable?: boolean;
  /** the path that created it, e.g. auth/token/create or auth/cloud/login */
  path: string;
  mountAccessor: string;
  authInternal?: Record<string, unknown>;
  /** the token role it is created against */
  role?: string;
}

/** A token checked and computed by `draft`, not stored yet: `putInTx` stores it. */
export interface DraftToken {
  secret: string;
  entry: TokenEntry;
  warnings: string[];
  parent?: TokenEntry;
}

/** What an auth method decides when one of its tokens is renewed: the current role's values. */
export interface RenewSettings {
  /** seconds; 0 = the mount's default */
  ttl: number;
  maxTtl: number;
  period: number;
}

export interface TokenService {
  /** A secret's token id: its salted hash, the key its entry is stored under. */
  idOf(secret: string): string;
  /** The stored entry by id (the secret's hash), expired or not. */
  getById(id: string): TokenEntry | undefined;
  /** A live token by its secret, without the CIDR check (lookups of another token); undefined when unknown or expired. */
  find(secret: string): TokenEntry | undefined;
  /** A live token by its accessor; undefined when unknown or expired. */
  lookupByAccessor(accessor: string): TokenEntry | undefined;
  /** Accessors of every live token (batch tokens have none). */
  listAccessors(): string[];
  /**
   * Finds a live token by its secret. Throws PermissionDenied when it is unknown or expired (an expired
   * token found here is revoked) or when `remoteAddress` is outside its bound CIDRs.
   */
  resolve(secret: string, remoteAddress: string): Promise<TokenEntry>;
  /** Counts one use of a limited-use token atomically; the last use revokes it. */
  use(entry: TokenEntry): Promise<void>;
  /**
   * A new token, checked and computed but not stored: `putInTx` stores it, so that a login stores the
   * token in the same transaction as its own records.
   */
  draft(params: CreateTokenParams): DraftToken;
  /** Stores a drafted token; throws (so that the transaction stores nothing) when its ID or parent is not right. */
  putInTx(tx: WriteTx, draft: DraftToken): void;
  /**
   * Counts a drafted token created, once the write that stored it has resolved: counted inside the write
   * function (or its beforeCommit), a token whose commit then failed would count too.
   */
  created(draft: DraftToken): void;
  create(params: CreateTokenParams): Promise<{ secret: string; entry: TokenEntry; warnings: string[] }>;
  /** The `auth` block of a login or token-create response. */
  authBlock(secret: string, entry: TokenEntry, identityPolicies?: string[]): AuthBlock;
  /** Renews a token's lease; an auth method's `settings` replace the TTL, max TTL and period. */
  renew(entry: TokenEntry, increment: number, settings?: RenewSettings): Promise<{ entry: TokenEntry; warnings: string[] }>;
  /** Revokes a token and its children, or only the token with `orphanChildren`. Returns how many went. */
  revoke(id: string, opts?: { orphanChildren?: boolean }): Promise<number>;
  /** Revokes every token issued through the auth mount with this accessor (mount disabled). */
  revokeByMount(mountAccessor: string): Promise<number>;
  /** Removes expired tokens; run periodically. */
  sweepExpired(): Promise<number>;
}
