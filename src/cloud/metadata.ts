/**
 * Instance metadata service client, IMDSv2 only: every session starts with PUT /latest/api/token and
 * sends the token on each GET. The token is reused until shortly before its TTL runs out.
 */
import { CloudApiError } from './errors.js';
import { httpCall } from './http.js';

export const DEFAULT_METADATA_ENDPOINT = 'http://169.254.169.254';
const TOKEN_TTL_SECONDS = 21_600;

export interface MetadataOptions {
  /** Base URL of the metadata service; default http://169.254.169.254. */
  endpoint?: string;
  timeoutMs?: number;
  now?: () => number;
}

/** The JSON a role's security-credentials path returns. */
export interface MetadataRoleCredentials {
  code: string;
  accessKeyId: string;
  secretAccessKey: string;
  token?: string;
  expiration?: Date;
  lastUpdated?: string;
}

export interface IdentityDocument {
  accountId: string;
  region: string;
  instanceId: string;
  imageId?: string;
  pendingTime?: string;
  availabilityZone?: string;
  [key: string]: unknown;
}

export interface MetadataClient {
  readonly endpoint: string;
  token(): Promise<string>;
  /** GET of a path under the service (e.g. `/latest/meta-data/instance-id`) as raw bytes. */
  get(path: string): Promise<Buffer>;
  identityDocumentRaw(): Promise<Buffer>;
  identityDocument(): Promise<IdentityDocument>;
  /** Base64 RSA-SHA256 signature of the identity document, as served. */
  signature(): Promise<string>;
  /** The PKCS#7 signature, base64 body without PEM armour, as served. */
  pkcs7(): Promise<string>;
  rsa2048(): Promise<string>;
  roleNames(): Promise<string[]>;
  roleCredentials(role?: string): Promise<MetadataRoleCredentials>;
}

export function metadataClient(opts: MetadataOptions = {}): MetadataClient {
  const endpoint = (opts.endpoint || DEFAULT_METADATA_ENDPOINT).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const now = opts.now ?? Date.now;
  let cached: { value: string; until: number } | undefined;

  async function call(method: string, path: string, headers: Record<string, string>): Promise<Buffer> {
    const what = `metadata ${method} ${path}`;
    let answer;
    try {
      answer = await httpCall({ url: new URL(endpoint + path), method, headers, timeoutMs });
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'NetworkingError';
      throw new CloudApiError(0, code, `${what} failed: ${code}`, undefined, 'metadata');
    }
    if (answer.status !== 200) {
      throw new CloudApiError(answer.status, `HTTP${answer.status}`, `${what} failed: status ${answer.status}`, undefined, 'metadata');
    }
    return answer.body;
  }

  async function token(): Promise<string> {
    if (cached && now() < cached.until) return cached.value;
    const value = (await call('PUT', '/latest/api/token', { 'X-aws-ec2-metadata-token-ttl-seconds': String(TOKEN_TTL_SECONDS) })).toString('utf8');
    // Renew a minute early so a token never expires between our check and the service's.
    cached = { value, until: now() + (TOKEN_TTL_SECONDS - 60) * 1000 };
    return value;
  }

  async function get(path: string): Promise<Buffer> {
    const t = await token();
    try {
      return await call('GET', path, { 'X-aws-ec2-metadata-token': t });
    } catch (err) {
      // 401 = the service forgot our token (restart); get a new one once.
      if (!(err instanceof CloudApiError) || err.status !== 401) throw err;
      cached = undefined;
      return call('GET', path, { 'X-aws-ec2-metadata-token': await token() });
    }
  }
  const getText = async (path: string) => (await get(path)).toString('utf8').trim();
  async function roleNames(): Promise<string[]> {
    const body = await getText('/latest/meta-data/iam/security-credentials/');
    return body.split('\n').map((s) => s.trim()).filter(Boolean);
  }

  return {
    endpoint,
    token,
    get,
    identityDocumentRaw: () => get('/latest/dynamic/instance-identity/document'),
    async identityDocument() {
      return JSON.parse((await get('/latest/dynamic/instance-identity/document')).toString('utf8')) as IdentityDocument;
    },
    signature: () => getText('/latest/dynamic/instance-identity/signature'),
    pkcs7: () => getText('/latest/dynamic/instance-identity/pkcs7'),
    rsa2048: () => getText('/latest/dynamic/instance-identity/rsa2048'),
    roleNames,
    async roleCredentials(role?: string) {
      const name = role ?? (await roleNames())[0];
      if (!name) throw new CloudApiError(404, 'NoInstanceRole', 'the instance has no IAM role attached', undefined, 'metadata');
      const raw = JSON.parse(await getText(`/latest/meta-data/iam/security-credentials/${encodeURIComponent(name)}`)) as Record<string, string>;
      if (raw.Code && raw.Code !== 'Success') {
        throw new CloudApiError(200, raw.Code, `metadata credentials for role ${name}: ${raw.Code}`, undefined, 'metadata');
      }
      return {
        code: raw.Code ?? 'Success',
        accessKeyId: raw.AccessKeyId,
        secretAccessKey: raw.SecretAccessKey,
        token: raw.Token || undefined,
        expiration: raw.Expiration ? new Date(raw.Expiration) : undefined,
        lastUpdated: raw.LastUpdated,
      };
    },
  };
}
