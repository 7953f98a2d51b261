/** A token as stored. The secret itself is never stored: `id` is its salted hash. */
export interface TokenEntry {
  /** salted hash of the secret token; the storage key */
  id: string;
  /** '' for batch tokens, which have no accessor (as in Vault) */
  accessor: string;
  policies: string[];
  /** the path that created it: auth/token/create, auth/cloud/login ... */
  path: string;
  meta: Record<string, string>;
  displayName: string;
  /** remaining uses; 0 = unlimited */
  numUses: number;
  /** unix seconds */
  creationTime: number;
  /** the TTL given at creation, seconds; lookups report it as creation_ttl */
  creationTtl: number;
  /** seconds of the current lease; 0 = never expires (root tokens) */
  ttl: number;
  /** unix ms when it expires; 0 = never */
  expireTime: number;
  /** unix seconds of the last renewal; 0 = never renewed */
  lastRenewalTime: number;
  explicitMaxTtl: number;
  /** max lifetime from creation, 0 = none; enforced at renewal */
  maxTtl: number;
  period: number;
  boundCidrs: string[];
  type: 'service' | 'batch';
  entityId: string;
  /** `id` of the parent token; '' for orphans. Revoking the parent revokes this token. */
  parentId: string;
  orphan: boolean;
  renewable: boolean;
  /** for auth-method tokens: the mount accessor of the method that issued it */
  mountAccessor: string;
  /** the token role it was created against (auth/token/create/<role>); renewals follow the role's current period */
  role?: string;
  /** lets the issuing auth method re-check on renewal (cloud role name, etc.) */
  authInternal?: Record<string, unknown>;
}
