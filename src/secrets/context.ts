/**
 * What the secrets side's pipeline and handlers reach, declared here so that the side depends on what it
 * uses and on nothing that builds it: the server assembles one object that is this and the scheduler's
 * context at once. The stores are seen through their interfaces (token-service.ts, policy-service.ts,
 * ... beside each store), and this module imports no store class: the modules that use the context
 * import it without a cycle.
 */
import type { Store } from '../storage/store.js';
import type { Seal } from '../storage/seal.js';
import type { Logger } from '../shared/log.js';
import type { TelemetryConfig } from '../shared/metrics/telemetry-config.js';
import type { Leadership } from '../cluster/leadership.js';
import type { RenewSettings, TokenService } from './token/token-service.js';
import type { TokenEntry } from './token/token-entry.js';
import type { PolicyService } from './policy/policy-service.js';
import type { MountService } from './mounts/mount-service.js';
import type { SecretMountService } from './mounts/secret-mount-table.js';
import type { IdentityService } from './identity/identity-service.js';

/** The server's settings the secrets side reads. */
export interface SecretsConfig {
  /**
   * The cloud auth method: where it reads CLOUD_* credentials from, where it finds the metadata service,
   * and whether ec2 logins may rely on SHA-1 (the DSA `pkcs7` document, and `identity` + `signature`,
   * checked against a SHA-1 signed certificate; off unless -cloud-allow-sha1).
   */
  cloud: { env: Readonly<Record<string, string | undefined>>; metadataEndpoint?: string; allowSha1: boolean };
  /** where the state is kept, by Vault's storage_type names (sys/seal-status) */
  storageType: 'lmdb' | 'postgresql' | 'inmem';
  /** the keyring is opened by an external seal key (-seal-key-file, SVC_SEAL_KEY) */
  externalSealKey: boolean;
  /** the `telemetry` block: who may read sys/metrics, and in which formats */
  telemetry: TelemetryConfig;
}

export interface SecretsContext {
  version: string;
  config: SecretsConfig;
  log: Logger;
  store: Store;
  seal: Seal;
  tokens: TokenService;
  policies: PolicyService;
  mounts: MountService;
  /** the secrets engines table (sys/mounts) */
  secretMounts: SecretMountService;
  identity: IdentityService;
  /** the auth methods' backends this server built, by type (token aside), as token renewal sees them */
  authBackends: Readonly<Record<string, AuthRenewal>>;
  /** which server of the cluster leads (a server alone on its state always does) */
  leadership: Leadership;
  /** true once shutdown began: blocking queries answer at once instead of waiting on */
  stopping: boolean;
  /** aborted when shutdown begins: long-lived streams (log follows, exec sessions) end on it */
  shutdown: AbortSignal;
  /** the audit devices: the configured one (-audit-file, audit { file }) and those enabled at sys/audit */
  audit?: AuditDevices;
}

/**
 * What resolving a token and making its caller's ACL reads: the one seam through which the scheduler's
 * pipeline checks its callers against the secrets side.
 */
export type TokenAuthority = Pick<SecretsContext, 'tokens' | 'policies' | 'identity' | 'mounts'>;

/**
 * An auth method's part in renewing the tokens it issued: its re-check (the role still exists, the
 * instance or principal still qualifies) and the lease settings now in force; it throws to refuse.
 */
export interface AuthRenewal {
  renew?: (services: SecretsContext, token: TokenEntry) => Promise<RenewSettings>;
}

/** An audit device as sys/audit lists it (Vault's audit table entry); `path` ends with '/'. */
export interface AuditDeviceInfo {
  path: string;
  type: 'file';
  description: string;
  /** file_path among them */
  options: Record<string, string>;
  local: boolean;
}

/** What sys/audit and sys/audit-hash need of the audit devices. */
export interface AuditDevices {
  list(): AuditDeviceInfo[];
  /** `hmac-sha256:<hex>`, as every device writes the value in its log; undefined while there is no device */
  hash(input: string): string | undefined;
  /** Opens the device's file (a file that cannot be opened is a 400) and stores the device. */
  enable(entry: AuditDeviceInfo): Promise<void>;
  /** Disabling a path with no device is not an error; the configured device cannot be disabled here. */
  disable(path: string): Promise<void>;
}
