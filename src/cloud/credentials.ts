/**
 * Where the server's own provider credentials come from, in order: keys in config/client, then
 * CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY[/CLOUD_SESSION_TOKEN] from the env object the caller hands in (the
 * library never reads process.env itself, so tests and embedded servers stay isolated), then the instance
 * role through the metadata service. Temporary credentials are cached until shortly before they expire.
 */
import { CloudCredentialsError } from './errors.js';
import { metadataClient, type MetadataClient } from './metadata.js';

export interface CloudCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Set for temporary credentials; static keys never expire. */
  expiration?: Date;
}

export interface CredentialSource {
  /** Which link of the chain answered; `assumed-role` for per-account STS credentials. */
  readonly kind: 'static' | 'env' | 'metadata' | 'assumed-role';
  get(): Promise<CloudCredentials>;
}

export type CloudEnv = Readonly<Record<string, string | undefined>>;

export interface CredentialChainOptions {
  explicit?: { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string };
  env?: CloudEnv;
  /** The metadata client to use, or options for the default one. */
  metadata?: MetadataClient | { endpoint?: string; timeoutMs?: number };
  now?: () => number;
}

/** Refresh temporary credentials this long before they expire: a call signed now must still be valid on arrival. */
export const REFRESH_WINDOW_MS = 5 * 60_000;

export function staticCredentials(creds: CloudCredentials, kind: 'static' | 'env' = 'static'): CredentialSource {
  const value = { ...creds };
  return { kind, get: async () => value };
}

/**
 * Wraps a fetcher of temporary credentials: one fetch at a time, the result reused until REFRESH_WINDOW_MS
 * before its expiration, and a failed fetch is not cached.
 */
export function cachedCredentials(
  kind: CredentialSource['kind'],
  fetch: () => Promise<CloudCredentials>,
  now: () => number = Date.now,
): CredentialSource & { clear(): void } {
  let value: CloudCredentials | undefined;
  let inflight: Promise<CloudCredentials> | undefined;
  const fresh = (c: CloudCredentials) => !c.expiration || now() < c.expiration.getTime() - REFRESH_WINDOW_MS;
  return {
    kind,
    async get() {
      if (value && fresh(value)) return value;
      inflight ??= fetch().then(
        (c) => {
          value = c;
          inflight = undefined;
          return c;
        },
        (err: unknown) => {
          inflight = undefined;
          throw err;
        },
      );
      return inflight;
    },
    clear() {
      value = undefined;
    },
  };
}

export function credentialChain(opts: CredentialChainOptions = {}): CredentialSource {
  const ex = opts.explicit;
  if (ex?.accessKeyId && ex.secretAccessKey) {
    return staticCredentials({ accessKeyId: ex.accessKeyId, secretAccessKey: ex.secretAccessKey, sessionToken: ex.sessionToken || undefined });
  }
  const env = opts.env ?? {};
  if (env.CLOUD_ACCESS_KEY && env.CLOUD_SECRET_KEY) {
    return staticCredentials(
      { accessKeyId: env.CLOUD_ACCESS_KEY, secretAccessKey: env.CLOUD_SECRET_KEY, sessionToken: env.CLOUD_SESSION_TOKEN || undefined },
      'env',
    );
  }
  const md = opts.metadata && 'roleCredentials' in opts.metadata ? opts.metadata : metadataClient({ ...opts.metadata, now: opts.now });
  return cachedCredentials(
    'metadata',
    async () => {
      let c;
      try {
        c = await md.roleCredentials();
      } catch (err) {
        throw new CloudCredentialsError(
          `no cloud credentials: access_key/secret_key are not configured, CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY are not set, and the metadata service at ${md.endpoint} gave none (${(err as Error).message})`,
        );
      }
      return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.token, expiration: c.expiration };
    },
    opts.now,
  );
}

/** Region for calls that have no natural one (rotate-root): CLOUD_REGION, else us-east-1. */
export function regionFromEnv(env: CloudEnv = {}): string {
  return env.CLOUD_REGION || 'us-east-1';
}
