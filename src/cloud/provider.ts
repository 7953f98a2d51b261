/**
 * The server's entry to the provider: builds clients from config/client, picking credentials per target
 * account. An account with a config/sts entry is reached by assuming that role (credentials cached until
 * near expiry); any other account only with the default credentials, and only when they belong to it —
 * otherwise the call would silently look in the wrong account. Loaded by the server only; no CLI imports.
 */
import { cachedCredentials, credentialChain, type CloudEnv, type CredentialSource } from './credentials.js';
import { computeClient, type ComputeClient } from './compute.js';
import { CloudAccountError } from './errors.js';
import { identityClient, type IdentityClient } from './identity.js';
import type { MetadataClient } from './metadata.js';
import type { TransportOptions } from './signed-request.js';
import { tokenServiceClient, type TokenServiceClient } from './token-service.js';

/** The provider-facing subset of config/client, with its wire names. */
export interface CloudClientConfig {
  access_key?: string;
  secret_key?: string;
  endpoint?: string;
  iam_endpoint?: string;
  sts_endpoint?: string;
  sts_region?: string;
  /** -1 = library default. */
  max_retries?: number;
}

export interface CloudProviderOptions {
  /** config/sts/:account_id → sts_role; undefined when the account has none. */
  stsRoleFor?: (accountId: string) => string | undefined | Promise<string | undefined>;
  metadata?: MetadataClient | { endpoint?: string; timeoutMs?: number };
  /** Backoff/timeout knobs; maxRetries here is ignored in favour of config.max_retries. */
  transport?: Omit<TransportOptions, 'maxRetries'>;
  /** Lifetime asked for assumed-role credentials; default 900 s (the provider's minimum). */
  assumeRoleDurationSeconds?: number;
  sessionName?: () => string;
  now?: () => number;
}

export interface CloudProvider {
  /** EC2 client for `region`; with `accountId`, signed with credentials valid in that account. */
  compute(region: string, accountId?: string): ComputeClient;
  /** IAM client; `region` only selects the partition. */
  identity(accountId?: string, region?: string): IdentityClient;
  /** STS client with the default credentials; `region` overrides sts_region. */
  tokenService(region?: string): TokenServiceClient;
  /** The default chain (config keys > env > metadata). */
  readonly defaultCredentials: CredentialSource;
  /** Account of the default credentials, asked once via GetCallerIdentity and cached. */
  defaultAccountId(): Promise<string>;
  /** Forget cached credentials and the default account: call when config/client or config/sts changes. */
  clearCache(): void;
}

export function cloudProvider(config: CloudClientConfig, env: CloudEnv, opts: CloudProviderOptions = {}): CloudProvider {
  const transport: TransportOptions = { ...opts.transport, maxRetries: config.max_retries };
  const duration = opts.assumeRoleDurationSeconds ?? 900;
  const sessionName = opts.sessionName ?? (() => `svc-cloud-${Date.now()}`);
  const makeDefault = () =>
    credentialChain({ explicit: { accessKeyId: config.access_key, secretAccessKey: config.secret_key }, env, metadata: opts.metadata, now: opts.now });

  let defaults = makeDefault();
  let assumed = new Map<string, ReturnType<typeof cachedCredentials>>();
  let account: Promise<string> | undefined;

  const tokenService = (region?: string) =>
    tokenServiceClient({ credentials: defaults, endpoint: config.sts_endpoint, region: region || config.sts_region, transport });

  function defaultAccountId(): Promise<string> {
    account ??= tokenService()
      .getCallerIdentity()
      .then((id) => id.account)
      .catch((err: unknown) => {
        account = undefined;
        throw err;
      });
    return account;
  }

  function assumedCredentials(roleArn: string) {
    let source = assumed.get(roleArn);
    if (!source) {
      source = cachedCredentials('assumed-role', async () => (await tokenService().assumeRole(roleArn, sessionName(), duration)).credentials, opts.now);
      assumed.set(roleArn, source);
    }
    return source;
  }

  /**
   * Resolved on every use, so a config/sts change takes effect without rebuilding clients. `kind` says
   * 'assumed-role' even when the account turns out to be the default credentials' own.
   */
  function credentialsFor(accountId: string | undefined): CredentialSource {
    if (!accountId) return defaults;
    return {
      kind: 'assumed-role',
      async get() {
        const role = await opts.stsRoleFor?.(accountId);
        if (role) return assumedCredentials(role).get();
        const own = await defaultAccountId();
        if (own !== accountId) {
          throw new CloudAccountError(`unable to fetch client for account ID "${accountId}" -- default client is for account "${own}"`);
        }
        return defaults.get();
      },
    };
  }

  return {
    compute: (region, accountId) => computeClient({ region, credentials: credentialsFor(accountId), endpoint: config.endpoint, transport }),
    identity: (accountId, region) => identityClient({ credentials: credentialsFor(accountId), endpoint: config.iam_endpoint, region, transport }),
    tokenService,
    get defaultCredentials() {
      return defaults;
    },
    defaultAccountId,
    clearCache() {
      defaults = makeDefault();
      assumed = new Map();
      account = undefined;
    },
  };
}
