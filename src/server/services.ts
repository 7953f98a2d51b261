/**
 * What the request pipeline and the handlers reach: the server's services, built once by app.ts. The
 * interfaces are here so that the pipeline depends on what it uses, not on how each store works.
 */
import type { Store } from '../storage/store.js';
import type { Seal } from '../storage/seal.js';
import type { Logger } from '../shared/log.js';
import type { TokenEntry } from '../secrets/token/token-entry.js';
import type { Acl } from '../secrets/policy/acl.js';
import type { MountTable } from '../secrets/mounts/mount-table.js';
import type { PolicyStore } from '../secrets/policy/policy-store.js';
import type { IdentityStore } from '../secrets/identity/identity-store.js';
import type { TokenStore } from '../secrets/token/token-store.js';
import type { AuthBlock } from './http/types.js';
import type { SchedulerRuntime } from '../scheduler/runtime.js';

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
}

export interface TokenService {
  /**
   * Finds a live token by its secret. Throws PermissionDenied when it is unknown or expired (an expired
   * token found here is revoked) or when `remoteAddress` is outside its bound CIDRs.
   */
  resolve(secret: string, remoteAddress: string): Promise<TokenEntry>;
  /** Counts one use of a limited-use token atomically; the last use revokes it. */
  use(entry: TokenEntry): Promise<void>;
  create(params: CreateTokenParams): Promise<{ secret: string; entry: TokenEntry }>;
  /** The `auth` block of a login or token-create response. */
  authBlock(secret: string, entry: TokenEntry, identityPolicies?: string[]): AuthBlock;
  /** Revokes every token issued through the auth mount with this accessor (mount disabled). */
  revokeByMount(mountAccessor: string): Promise<number>;
  /** Removes expired tokens; run periodically. */
  sweepExpired(): Promise<number>;
}

export interface PolicyService {
  /** The ACL for a token's policies plus the identity policies of its entity. */
  aclFor(policyNames: string[]): Promise<Acl>;
}

export interface IdentityService {
  entityExists(entityId: string): boolean;
  /** Policies granted through the entity (empty for a missing or disabled entity). */
  entityPolicies(entityId: string): string[];
  /** True when the entity exists and is disabled: its tokens must be refused. */
  entityDisabled(entityId: string): boolean;
  /**
   * At login: the alias (mount accessor + name) is found or created with its entity, and its metadata
   * updated when it changed. Concurrent first logins make one entity.
   */
  upsertLoginAlias(input: { mountAccessor: string; name: string; metadata?: Record<string, string> }): Promise<{ entityId: string; aliasId: string }>;
  /** Called when an auth mount is disabled: its aliases go away. */
  removeAliasesOfMount(mountAccessor: string): Promise<number>;
}

export interface ServerConfig {
  dev: boolean;
  bind: string;
  port: number;
  dataDir?: string;
  logLevel: string;
  /** request bodies above this are refused with 413 */
  maxRequestBytes: number;
  /** how often expired tokens are swept, ms */
  sweepIntervalMs: number;
  /** how often the cloud auth mounts' access and deny lists are tidied, ms */
  cloudTidyIntervalMs: number;
  /** how often an exec session sends its `{}` heartbeat frame, ms */
  execHeartbeatMs: number;
  /**
   * The cloud auth method: where it reads CLOUD_* credentials from, where it finds the metadata service,
   * and whether ec2 logins may rely on SHA-1 (the DSA `pkcs7` document, and `identity` + `signature`,
   * checked against a SHA-1 signed certificate; off unless -cloud-allow-sha1).
   */
  cloud: { env: Readonly<Record<string, string | undefined>>; metadataEndpoint?: string; allowSha1: boolean };
  /** the node API answers only connections with a verified client certificate (TLS `node_client_cert`) */
  nodeClientCert: boolean;
}

export interface Services {
  version: string;
  config: ServerConfig;
  log: Logger;
  store: Store;
  seal: Seal;
  tokens: TokenStore;
  policies: PolicyStore;
  mounts: MountTable;
  identity: IdentityStore;
  scheduler: SchedulerRuntime;
  /** true once shutdown began: blocking queries answer at once instead of waiting on */
  stopping: boolean;
  /** aborted when shutdown begins: long-lived streams (log follows, exec sessions) end on it */
  shutdown: AbortSignal;
  /** the file audit device, when one is configured (-audit-file, audit { file }) */
  audit?: AuditDevice;
}

/** What sys/audit-hash needs of an audit device: its path and its HMAC. */
export interface AuditDevice {
  readonly path: string;
  /** `hmac-sha256:<hex>`, as the device writes the value in its log */
  hash(input: string): string;
}
