/**
 * cloudsim — a loopback simulator of the cloud provider (AWS-compatible wire formats) for tests.
 *
 * One HTTP server on 127.0.0.1 serves:
 *  - the query-protocol APIs of ec2 / iam / sts (POST form body or GET query), the service taken from the
 *    Signature V4 credential scope; every request's signature is verified like the real provider does;
 *  - an IMDSv2 instance metadata service under /latest/ for the "current" instance.
 *
 * See README.md in this folder for the behaviour list.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeInstances } from './compute.js';
import { ApiError, ec2AuthError, errorBody } from './errors.js';
import { headerMap, send } from './http.js';
import { identityActions } from './identity.js';
import { handleMetadata, identityDocument } from './metadata.js';
import { queryResponse, type Call } from './query.js';
import { authenticate } from './signed-request.js';
import { AuthError, parseAuth, parseQuery, type ParsedAuth, type SigInput } from './sigv4.js';
import {
  addInstance,
  addInstanceProfile,
  addRole,
  addUser,
  createState,
  issueSession,
  mustInstance,
  now,
  roleByArn,
  type AddInstanceOptions,
  type InstanceStateName,
  type KeyRecord,
  type MetadataRequest,
  type QueuedHook,
  type Rsa2048SignatureAlgorithm,
  type SimCredentials,
  type SimInstance,
  type SimInstanceProfile,
  type SimRequest,
  type SimRole,
  type SimState,
  type SimUser,
} from './state.js';
import { tokenServiceActions } from './token-service.js';

export { AuthError } from './sigv4.js';
export type { AddInstanceOptions, InstanceStateName, MetadataRequest, SimCredentials, SimInstance, SimInstanceProfile, SimRequest, SimRole, SimUser } from './state.js';

export interface CloudSimOptions {
  /** Default region for instances and the metadata service (default us-east-1). */
  region?: string;
  /** Account of the root credentials and of everything created without accountId (default random 12 digits). */
  account?: string;
  /** Encode pkcs7/rsa2048 documents as BER with indefinite lengths like the real service (default true). */
  berPkcs7?: boolean;
  /** SignerInfo.signatureAlgorithm of rsa2048 documents: 'sha256WithRSAEncryption' (newer, default, with the
   * CMS algorithm-protection attribute) or 'rsaEncryption' (older documents). */
  rsa2048SignatureAlgorithm?: Rsa2048SignatureAlgorithm;
  /** Port to listen on, on 127.0.0.1 (default 0: a free one). */
  port?: number;
}

export interface CloudSim {
  /** Base URL of the API endpoint (ec2, iam and sts all live here). */
  readonly url: string;
  readonly endpoint: string;
  /** Base URL of the metadata service (same server; paths start with /latest/). */
  readonly metadataUrl: string;
  readonly port: number;
  readonly region: string;
  readonly account: string;
  /** Self-signed signer certificates (PEM) to register as trusted: pkcs7 (DSA), rsa2048 (RSA-2048), signature (RSA-2048). */
  readonly certificates: { pkcs7: string; rsa2048: string; signature: string };
  /** An IAM user's access key in `account` (user "svc-root", path "/"). */
  readonly rootCredentials: SimUser;
  /** Every API call (not metadata calls), in order, successful or not. */
  readonly requests: SimRequest[];
  readonly metadataRequests: MetadataRequest[];

  addUser(o: { name: string; path?: string; accountId?: string }): SimUser;
  addRole(o: { name: string; path?: string; accountId?: string; maxSessionDuration?: number }): SimRole;
  addInstanceProfile(o: { name: string; roleName?: string; path?: string; accountId?: string }): SimInstanceProfile;
  addInstance(o?: AddInstanceOptions): SimInstance;
  getInstance(id: string): SimInstance;
  setInstanceState(id: string, state: InstanceStateName): void;
  setPendingTime(id: string, iso: string): void;
  /** Which instance the metadata service describes (undefined: none → 404s). */
  useInstance(id: string | undefined): void;
  /** Issue temporary credentials for a role as AssumeRole would (without an API call). */
  assumeRole(roleArn: string, sessionName: string, durationSeconds?: number): SimCredentials & { expiration: Date; arn: string };
  /** Delete an access key (permanent or temporary) so that later calls get InvalidClientTokenId. */
  revokeAccessKey(accessKeyId: string): void;
  /** Make the next `times` calls of `action` ('*' = any) fail with the given status/code. */
  failNext(action: string, spec?: FailureSpec): void;
  /**
   * Answer the next `times` calls of `action` ('*' = any) with this raw status/body instead of the simulated
   * answer — for answers the provider can give but the simulator never produces on its own (a proxy's
   * non-XML error page, a truncated body). The signature is still checked first; failNext wins over it.
   */
  respondNext(action: string, answer: CannedAnswer): void;
  /** Hold the answer to the next `times` calls of `action` ('*' = any) for `ms` before handling them normally. */
  delayNext(action: string, ms: number, times?: number): void;
  /**
   * Largest page DescribeInstances (nextToken) and ListAccessKeys (Marker/IsTruncated) return; undefined
   * (default) = everything in one page. The real services may split any list into pages.
   */
  setPageSize(n: number | undefined): void;
  /** Shift the simulator's clock (signature skew window, credential expiry). */
  advanceClock(ms: number): void;
  now(): Date;
  /** The identity document bytes the metadata service currently serves. */
  identityDocument(): Buffer;
  close(): Promise<void>;
}

// --- hooks -------------------------------------------------------------------------------------

export interface FailureSpec {
  status?: number;
  code?: string;
  message?: string;
  /** How many consecutive matching calls fail (default 1). */
  times?: number;
}

/** A raw answer for respondNext: sent as is, after the call was authenticated. */
export interface CannedAnswer {
  status?: number;
  body: string;
  contentType?: string;
  /** How many consecutive matching calls get this answer (default 1). */
  times?: number;
}

function failNext(s: SimState, action: string, spec: FailureSpec = {}): void {
  const byCode: Record<string, number> = { Throttling: 400, RequestLimitExceeded: 503, InternalFailure: 500, InternalError: 500, ServiceUnavailable: 503 };
  const byStatus: Record<number, string> = { 400: 'Throttling', 429: 'Throttling', 500: 'InternalFailure', 503: 'ServiceUnavailable' };
  const status = spec.status ?? (spec.code ? (byCode[spec.code] ?? 400) : 503);
  const code = spec.code ?? byStatus[status] ?? 'InternalFailure';
  s.failures.push({ action, status, code, message: spec.message ?? (code === 'Throttling' ? 'Rate exceeded' : `Injected failure ${code}`), left: spec.times ?? 1 });
}

function respondNext(s: SimState, action: string, a: CannedAnswer): void {
  s.canned.push({ action, status: a.status ?? 200, body: a.body, contentType: a.contentType ?? 'text/xml', left: a.times ?? 1 });
}

function delayNext(s: SimState, action: string, ms: number, times = 1): void {
  s.delays.push({ action, ms, left: times });
}

function setPageSize(s: SimState, n: number | undefined): void {
  if (n !== undefined && (!Number.isInteger(n) || n < 1)) throw new Error(`cloudsim: page size must be a positive integer: ${n}`);
  s.pageSize = n;
}

/** The first hook queued for `action` ('*' matches any), used up once; undefined when none is. */
function take<T extends QueuedHook>(queue: T[], action: string): T | undefined {
  const i = queue.findIndex((h) => h.left > 0 && (h.action === action || h.action === '*'));
  if (i < 0) return undefined;
  const h = queue[i];
  if (--h.left <= 0) queue.splice(i, 1);
  return h;
}

// --- api ---------------------------------------------------------------------------------------

async function handleApi(s: SimState, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const requestId = randomUUID();
  const rawUrl = req.url ?? '/';
  const qi = rawUrl.indexOf('?');
  const inp: SigInput = {
    method: req.method ?? 'GET',
    path: qi < 0 ? rawUrl : rawUrl.slice(0, qi),
    query: qi < 0 ? '' : rawUrl.slice(qi + 1),
    headers: headerMap(req),
    body,
  };
  const params: Record<string, string> = {};
  for (const [k, v] of parseQuery(inp.query)) if (!k.startsWith('X-Amz-')) params[k] = v;
  const ct = (req.headers['content-type'] ?? '').toLowerCase();
  if (body.length && (ct.startsWith('application/x-www-form-urlencoded') || ct === '')) for (const [k, v] of parseQuery(body.toString('utf8'))) params[k] = v;
  const action = params.Action ?? '';
  const entry: SimRequest = {
    time: now(s),
    service: '',
    action,
    accessKeyId: '',
    region: '',
    method: inp.method,
    host: req.headers.host ?? '',
    path: inp.path,
    status: 200,
    params,
    requestId,
    signedHeaders: [],
  };
  s.requests.push(entry);
  const fail = (service: string, status: number, code: string, message: string) => {
    entry.status = status;
    entry.errorCode = code;
    const ctype = service === 'ec2' ? 'text/xml;charset=UTF-8' : 'text/xml';
    send(res, status, errorBody(service, code, message, requestId), ctype, { 'x-amzn-RequestId': requestId });
  };

  let auth: ParsedAuth | undefined;
  try {
    auth = parseAuth(inp);
  } catch (e) {
    if (e instanceof AuthError) return fail('sts', e.status, e.code, e.message);
    throw e;
  }
  if (!auth) return fail('sts', 403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
  const service = auth.service;
  entry.service = service;
  entry.accessKeyId = auth.accessKeyId;
  entry.region = auth.region;
  entry.signedHeaders = auth.signedHeaders;
  if (service !== 'ec2' && service !== 'iam' && service !== 'sts')
    return fail('sts', 400, 'UnknownService', `cloudsim does not simulate service "${service}"`);

  let k: KeyRecord;
  try {
    k = authenticate(s, inp, auth);
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    const err = service === 'ec2' ? ec2AuthError(e) : e;
    return fail(service, err.status, err.code, err.message);
  }

  const d = take(s.delays, action);
  if (d) {
    await new Promise((r) => setTimeout(r, d.ms));
    if (res.destroyed) return; // the caller gave up waiting
  }

  const f = take(s.failures, action);
  if (f) return fail(service, f.status, f.code, f.message);

  const c = take(s.canned, action);
  if (c) {
    entry.status = c.status;
    entry.requestId = '';
    return send(res, c.status, c.body, c.contentType);
  }

  if (!action) return fail(service, 400, 'MissingAction', 'Missing Action');
  const call: Call = { k, params, auth, requestId };
  try {
    if (service === 'ec2') {
      if (action !== 'DescribeInstances') throw new ApiError('InvalidAction', `The action ${action} is not valid for this web service.`, 400);
      return send(res, 200, describeInstances(s, call), 'text/xml;charset=UTF-8');
    }
    const table = service === 'iam' ? identityActions : tokenServiceActions;
    const h = table[action];
    if (!h) throw new ApiError('InvalidAction', `Could not find operation ${action} for version ${params.Version ?? 'NO_VERSION_SPECIFIED'}`, 400);
    const result = h(s, call);
    return send(res, 200, queryResponse(service, action, result, requestId), 'text/xml', { 'x-amzn-RequestId': requestId });
  } catch (e) {
    if (e instanceof ApiError) return fail(service, e.status, e.code, e.message);
    throw e;
  }
}

// --- server ------------------------------------------------------------------------------------

interface SimServer {
  readonly port: number;
  close(): Promise<void>;
}

async function listen(s: SimState, port: number): Promise<SimServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      Promise.resolve()
        .then(() => ((req.url ?? '').startsWith('/latest/') ? handleMetadata(s, req, res) : handleApi(s, req, res, body)))
        .catch((e: unknown) => {
          if (!res.headersSent) send(res, 500, errorBody('sts', 'InternalFailure', String(e), randomUUID()), 'text/xml');
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The body of auth/<mount>/config/client that points a cloud mount at this simulator, as its root user. */
export function clientConfigFor(sim: CloudSim): Record<string, string> {
  return {
    access_key: sim.rootCredentials.accessKeyId,
    secret_key: sim.rootCredentials.secretAccessKey,
    endpoint: sim.url,
    iam_endpoint: sim.url,
    sts_endpoint: sim.url,
    sts_region: 'us-east-1',
  };
}

export async function startCloudSim(opts: CloudSimOptions = {}): Promise<CloudSim> {
  const s = createState({
    region: opts.region ?? 'us-east-1',
    account: opts.account ?? String(100000000000 + Math.floor(Math.random() * 899999999999)),
    ber: opts.berPkcs7 ?? true,
    rsa2048SignatureAlgorithm: opts.rsa2048SignatureAlgorithm ?? 'sha256WithRSAEncryption',
  });
  const server = await listen(s, opts.port ?? 0);
  const url = `http://127.0.0.1:${server.port}`;
  const rootRec = addUser(s, { name: 'svc-root' });

  return {
    url,
    endpoint: url,
    metadataUrl: url,
    port: server.port,
    region: s.region,
    account: s.account,
    certificates: { pkcs7: s.signers.pkcs7.pem, rsa2048: s.signers.rsa2048.pem, signature: s.signers.signature.pem },
    rootCredentials: rootRec,
    requests: s.requests,
    metadataRequests: s.metadataRequests,
    addUser: (o) => addUser(s, o),
    addRole: (o) => addRole(s, o),
    addInstanceProfile: (o) => addInstanceProfile(s, o),
    addInstance: (o) => addInstance(s, o),
    getInstance: (id) => mustInstance(s, id),
    setInstanceState(id, state) {
      mustInstance(s, id).state = state;
    },
    setPendingTime(id, t) {
      mustInstance(s, id).pendingTime = t;
    },
    useInstance(id) {
      if (id !== undefined) mustInstance(s, id);
      s.currentInstance = id;
    },
    assumeRole(roleArn, sessionName, durationSeconds = 3600) {
      const role = roleByArn(s, roleArn);
      if (!role) throw new Error(`cloudsim: no role ${roleArn}`);
      const k = issueSession(s, role, sessionName, durationSeconds);
      return {
        accessKeyId: k.accessKeyId,
        secretAccessKey: k.secret,
        sessionToken: k.sessionToken,
        expiration: k.expiration!,
        arn: `arn:aws:sts::${role.accountId}:assumed-role/${role.name}/${sessionName}`,
      };
    },
    revokeAccessKey(id) {
      s.keys.delete(id);
    },
    failNext: (action, spec) => failNext(s, action, spec),
    respondNext: (action, a) => respondNext(s, action, a),
    delayNext: (action, ms, times) => delayNext(s, action, ms, times),
    setPageSize: (n) => setPageSize(s, n),
    advanceClock(ms) {
      s.clockOffset += ms;
    },
    now: () => now(s),
    identityDocument() {
      const inst = s.currentInstance ? s.instances.get(s.currentInstance) : undefined;
      if (!inst) throw new Error('cloudsim: no current instance');
      return identityDocument(inst);
    },
    close: () => server.close(),
  };
}
