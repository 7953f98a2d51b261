/** The token service (STS-compatible): who the credentials belong to, and temporary credentials for a role. */
import type { CloudCredentials, CredentialSource } from './credentials.js';
import { tokenServiceEndpoint } from './endpoints.js';
import { sendQuery, type TransportOptions } from './signed-request.js';
import { pick, text } from './xml.js';

export const TOKEN_SERVICE_API_VERSION = '2011-06-15';

export interface CallerIdentity {
  arn: string;
  /** `AROA…:session` for assumed roles; the unique ID is the part before the colon. */
  userId: string;
  account: string;
}

export interface AssumedRole {
  credentials: Required<CloudCredentials>;
  assumedRoleArn?: string;
  assumedRoleId?: string;
}

export interface TokenServiceClientOptions {
  credentials: CredentialSource;
  /** config/client `sts_endpoint`. */
  endpoint?: string;
  /** config/client `sts_region`, or the caller's region. */
  region?: string;
  transport?: TransportOptions;
}

export interface TokenServiceClient {
  readonly endpoint: string;
  readonly region: string;
  getCallerIdentity(): Promise<CallerIdentity>;
  assumeRole(roleArn: string, sessionName: string, durationSeconds?: number): Promise<AssumedRole>;
}

export function tokenServiceClient(opts: TokenServiceClientOptions): TokenServiceClient {
  const ep = tokenServiceEndpoint(opts.endpoint, opts.region);
  const call = (action: string, params: Record<string, string | number | undefined>) =>
    sendQuery({ endpoint: ep.url, service: 'sts', region: ep.region, action, version: TOKEN_SERVICE_API_VERSION, params, credentials: opts.credentials }, opts.transport).then(
      (a) => pick(a.doc, `${action}Response`, `${action}Result`),
    );
  return {
    endpoint: ep.url,
    region: ep.region,
    async getCallerIdentity() {
      const r = await call('GetCallerIdentity', {});
      return { arn: text(r, 'Arn') ?? '', userId: text(r, 'UserId') ?? '', account: text(r, 'Account') ?? '' };
    },
    async assumeRole(roleArn, sessionName, durationSeconds) {
      const r = await call('AssumeRole', { RoleArn: roleArn, RoleSessionName: sessionName, DurationSeconds: durationSeconds });
      const c = pick(r, 'Credentials');
      const expiration = text(c, 'Expiration');
      return {
        credentials: {
          accessKeyId: text(c, 'AccessKeyId') ?? '',
          secretAccessKey: text(c, 'SecretAccessKey') ?? '',
          sessionToken: text(c, 'SessionToken') ?? '',
          expiration: expiration ? new Date(expiration) : new Date(Date.now() + (durationSeconds ?? 3600) * 1000),
        },
        assumedRoleArn: text(r, 'AssumedRoleUser', 'Arn'),
        assumedRoleId: text(r, 'AssumedRoleUser', 'AssumedRoleId'),
      };
    },
  };
}
