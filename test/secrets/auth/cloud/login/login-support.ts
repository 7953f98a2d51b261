/**
 * A real server with a `cloud` mount pointed at cloudsim, the simulator's signer certificates registered,
 * and helpers to fetch an instance's signed documents from the simulated metadata service and to log in.
 */
import aws4 from 'aws4';
import { startCloudSim, type CloudSim, type CloudSimOptions, type SimCredentials } from '../../../../../src/cloudsim/index.js';
import { startTestServer, type TestServer } from '../../../../support/server.js';
import { mountCloud } from '../../../../support/cloud-mount.js';

export { mountCloud };
import { metadataClient } from '../../../../../src/cloud/metadata.js';
import { ApiError } from '../../../../../src/shared/errors.js';
import type { ServerOptions } from '../../../../../src/server/app.js';
import type { AuthBlock } from '../../../../../src/secrets/token/auth-block.js';

export interface LoginWorld {
  srv: TestServer;
  sim: CloudSim;
  /** POST auth/<mount>/login without a token; resolves with the envelope */
  login(body: Record<string, unknown>, mount?: string): Promise<LoginAnswer>;
  /** the failure of a login: status and first error message */
  loginError(body: Record<string, unknown>, mount?: string): Promise<{ status: number; message: string }>;
  writeRole(name: string, body: Record<string, unknown>, mount?: string): Promise<void>;
  documents(instanceId: string): Promise<InstanceDocuments>;
  close(): Promise<void>;
}

export interface LoginAnswer {
  auth: AuthBlock;
  warnings: string[] | null;
}

export interface InstanceDocuments {
  /** base64 of the document bytes */
  identity: string;
  signature: string;
  pkcs7: string;
  rsa2048: string;
}

export async function startLoginWorld(opts: { sim?: CloudSimOptions; server?: Partial<ServerOptions>; clientConfig?: Record<string, unknown> } = {}): Promise<LoginWorld> {
  const sim = await startCloudSim({ account: '123456789012', ...opts.sim });
  const srv = await startTestServer({ client: false, ...opts.server });
  await mountCloud(srv, 'cloud', sim, opts.clientConfig);
  const anonymous = srv.client('');
  const imds = metadataClient({ endpoint: sim.metadataUrl });
  const login = async (body: Record<string, unknown>, mount = 'cloud') => (await anonymous.secrets('POST', `auth/${mount}/login`, { body })) as unknown as LoginAnswer;
  return {
    srv,
    sim,
    login,
    async loginError(body, mount = 'cloud') {
      try {
        await login(body, mount);
      } catch (err) {
        if (err instanceof ApiError) return { status: err.statusCode, message: err.errors[0] ?? '' };
        throw err;
      }
      throw new Error('the login succeeded');
    },
    async writeRole(name, body, mount = 'cloud') {
      await srv.client().secrets('POST', `auth/${mount}/role/${name}`, { body });
    },
    async documents(instanceId) {
      sim.useInstance(instanceId);
      const [raw, signature, pkcs7, rsa2048] = [await imds.identityDocumentRaw(), await imds.signature(), await imds.pkcs7(), await imds.rsa2048()];
      return { identity: raw.toString('base64'), signature: signature.replace(/\n/g, ''), pkcs7: pkcs7.replace(/\n/g, ''), rsa2048: rsa2048.replace(/\n/g, '') };
    },
    async close() {
      await srv.close();
      await sim.close();
    },
  };
}

export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

export type SignedCallerIdentity = {
  iam_http_request_method: string;
  iam_request_url: string;
  iam_request_body: string;
  iam_request_headers: string;
};

/** A GetCallerIdentity POST signed as the established clients sign it, in the four iam_* login fields. */
export function signedCallerIdentity(
  creds: SimCredentials,
  opts: { region?: string; host?: string; headers?: Record<string, string>; body?: string; unsignedHeaders?: Record<string, string> } = {},
): SignedCallerIdentity {
  const region = opts.region ?? 'us-east-1';
  const host = opts.host ?? (region === 'us-east-1' ? 'sts.amazonaws.com' : `sts.${region}.amazonaws.com`);
  const body = opts.body ?? 'Action=GetCallerIdentity&Version=2011-06-15';
  const request = {
    host,
    path: '/',
    method: 'POST',
    service: 'sts',
    region,
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', ...opts.headers } as Record<string, string>,
  };
  aws4.sign(request, { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken });
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries({ ...request.headers, ...opts.unsignedHeaders })) headers[k] = [String(v)];
  return {
    iam_http_request_method: 'POST',
    iam_request_url: b64(`https://${host}/`),
    iam_request_body: b64(body),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}

/** The four iam_* fields of a presigned GET (signature in the query), as clients that cannot send a body build them. */
export type PresignedCallerIdentity = Omit<SignedCallerIdentity, 'iam_request_body'>;

/**
 * A GetCallerIdentity GET presigned with aws4 (`signQuery`): the X-Amz-* signing values are in the URL's
 * query, after `query` (default Action=GetCallerIdentity&Version=2011-06-15). `headers` are signed too.
 */
export function presignedCallerIdentity(
  creds: SimCredentials,
  opts: { region?: string; host?: string; query?: string; headers?: Record<string, string> } = {},
): PresignedCallerIdentity {
  const region = opts.region ?? 'us-east-1';
  const host = opts.host ?? (region === 'us-east-1' ? 'sts.amazonaws.com' : `sts.${region}.amazonaws.com`);
  const request = {
    host,
    path: `/?${opts.query ?? 'Action=GetCallerIdentity&Version=2011-06-15'}`,
    method: 'GET',
    service: 'sts',
    region,
    signQuery: true,
    headers: { ...opts.headers } as Record<string, string>,
  };
  aws4.sign(request, { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken });
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(request.headers)) headers[k] = [String(v)];
  return {
    iam_http_request_method: 'GET',
    iam_request_url: b64(`https://${host}${request.path}`),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}

/** The headers of signed iam_* fields, decoded. */
export function requestHeaders(fields: { iam_request_headers: string }): Record<string, string[]> {
  return JSON.parse(Buffer.from(fields.iam_request_headers, 'base64').toString('utf8')) as Record<string, string[]>;
}

/** A copy of signed iam_* fields whose headers `edit` changed (after signing: the signature does not cover the change). */
export function withHeaders<T extends { iam_request_headers: string }>(fields: T, edit: (headers: Record<string, string[]>) => void): T {
  const headers = requestHeaders(fields);
  edit(headers);
  return { ...fields, iam_request_headers: b64(JSON.stringify(headers)) };
}
