/**
 * The proof of an iam login: an STS GetCallerIdentity request signed with Signature V4 but never sent by
 * us. The server sends it to STS itself and learns from the answer who signed it, so the secret key
 * never leaves this machine.
 */
import aws4 from 'aws4';
import { tokenServiceEndpoint } from '../../cloud/endpoints.js';
import { CloudApiError } from '../../cloud/errors.js';
import type { MetadataClient } from '../../cloud/metadata.js';
import { UsageError } from '../../shared/errors.js';

/** Covered by the signature, so a request signed for one server cannot be replayed at another. */
export const SERVER_ID_HEADER = 'X-Svc-Cloud-IAM-Server-ID';
const CALLER_IDENTITY_BODY = 'Action=GetCallerIdentity&Version=2011-06-15';

export interface LoginCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignedRequest {
  method: 'POST';
  url: string;
  body: string;
  /** Every header to send, Host included: the signature covers it. */
  headers: Record<string, string>;
}

/**
 * CLOUD_ACCESS_KEY + CLOUD_SECRET_KEY (+ CLOUD_SESSION_TOKEN), else the instance role's credentials
 * from the metadata service.
 */
export async function loginCredentials(env: NodeJS.ProcessEnv, metadata: () => MetadataClient): Promise<LoginCredentials> {
  const accessKeyId = env.CLOUD_ACCESS_KEY;
  const secretAccessKey = env.CLOUD_SECRET_KEY;
  if (accessKeyId && secretAccessKey) return { accessKeyId, secretAccessKey, sessionToken: env.CLOUD_SESSION_TOKEN || undefined };
  if (accessKeyId || secretAccessKey) throw new UsageError('CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY must be set together');
  const md = metadata();
  const none = (why: string) =>
    new UsageError(
      'No cloud credentials: set CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY (and CLOUD_SESSION_TOKEN for temporary ' +
        `credentials), or log in on an instance with an instance role. The metadata service at ${md.endpoint} gave none: ${why}`,
    );
  // The session token first, on its own: a 404 after it can only mean the instance has no role.
  await md.token().catch((err: Error) => {
    throw none(err.message);
  });
  try {
    const c = await md.roleCredentials();
    return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.token };
  } catch (err) {
    throw none(err instanceof CloudApiError && err.status === 404 ? 'the instance has no IAM role attached' : (err as Error).message);
  }
}

/** The global endpoint for us-east-1 (what servers expect by default), the regional one otherwise. */
export function callerIdentityRequest(creds: LoginCredentials, opts: { region: string; serverId?: string }): SignedRequest {
  const url = new URL(`${tokenServiceEndpoint(undefined, opts.region === 'us-east-1' ? undefined : opts.region).url}/`);
  const headers: Record<string, string> = {
    Host: url.host,
    'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(CALLER_IDENTITY_BODY)),
  };
  if (opts.serverId) headers[SERVER_ID_HEADER] = opts.serverId;
  const signed = aws4.sign(
    { service: 'sts', region: opts.region, method: 'POST', host: url.host, path: url.pathname, body: CALLER_IDENTITY_BODY, headers },
    { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken },
  );
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(signed.headers ?? {})) if (v !== undefined) out[k] = String(v);
  return { method: 'POST', url: url.toString(), body: CALLER_IDENTITY_BODY, headers: out };
}

/** The login fields, base64 as the server expects; headers as name → list of values, as Go's http.Header. */
export function iamLoginFields(req: SignedRequest): Record<string, string> {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, [v]]));
  return {
    iam_http_request_method: req.method,
    iam_request_url: b64(req.url),
    iam_request_body: b64(req.body),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}
