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
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID, sign } from 'node:crypto';
import { buildSignedData, makeSigner, OID, wrap64, type Signer } from './pki.js';
import { AuthError, canonicalRequest, checkStructure, expectedSignature, parseAuth, parseQuery, sigEqual, type ParsedAuth, type SigInput } from './sigv4.js';
import { el, xmlDoc, type XmlNode } from './xml.js';

export { AuthError } from './sigv4.js';

// ---------------------------------------------------------------------------------------------
// Public types

export type InstanceStateName = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped';

export interface CloudSimOptions {
  /** Default region for instances and the metadata service (default us-east-1). */
  region?: string;
  /** Account of the root credentials and of everything created without accountId (default random 12 digits). */
  account?: string;
  /** Encode pkcs7/rsa2048 documents as BER with indefinite lengths like the real service (default true). */
  berPkcs7?: boolean;
  /** SignerInfo.signatureAlgorithm of rsa2048 documents: 'sha256WithRSAEncryption' (newer, default, with the
   * CMS algorithm-protection attribute) or 'rsaEncryption' (older documents). */
  rsa2048SignatureAlgorithm?: 'sha256WithRSAEncryption' | 'rsaEncryption';
  /** Port to listen on, on 127.0.0.1 (default 0: a free one). */
  port?: number;
}

export interface SimCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SimUser {
  name: string;
  path: string;
  arn: string;
  userId: string;
  accountId: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SimRole {
  name: string;
  path: string;
  arn: string;
  roleId: string;
  accountId: string;
}

export interface SimInstanceProfile {
  name: string;
  path: string;
  arn: string;
  id: string;
  accountId: string;
  roleName: string;
}

export interface SimInstance {
  instanceId: string;
  imageId: string;
  state: InstanceStateName;
  tags: Record<string, string>;
  vpcId: string;
  subnetId: string;
  /** Instance profile name (in the instance's account), if any. */
  instanceProfile?: string;
  region: string;
  availabilityZone: string;
  accountId: string;
  instanceType: string;
  architecture: string;
  privateIp: string;
  privateDnsName: string;
  /** RFC 3339 without fractional seconds, e.g. 2024-01-02T03:04:05Z. Used as pendingTime and launchTime. */
  pendingTime: string;
  reservationId: string;
}

export interface AddInstanceOptions {
  instanceId?: string;
  imageId?: string;
  state?: InstanceStateName;
  tags?: Record<string, string>;
  vpcId?: string;
  subnetId?: string;
  /** Name or ARN of an instance profile created with addInstanceProfile. */
  instanceProfile?: string;
  region?: string;
  pendingTime?: string;
  accountId?: string;
  instanceType?: string;
  privateIp?: string;
}

export interface SimRequest {
  time: Date;
  service: string;
  action: string;
  /** Access key from the credential scope ('' when the request was not signed). */
  accessKeyId: string;
  region: string;
  method: string;
  host: string;
  path: string;
  status: number;
  /** Provider error code when the answer was an error. */
  errorCode?: string;
  params: Record<string, string>;
  /** The request ID the answer carried ('' when none, e.g. a respondNext answer). */
  requestId: string;
  /** SignedHeaders of the Authorization header or X-Amz-SignedHeaders ([] when unsigned). */
  signedHeaders: string[];
}

export interface MetadataRequest {
  time: Date;
  method: string;
  path: string;
  status: number;
  /** Request headers, names lower-cased (first value of repeated ones). */
  headers: Record<string, string>;
}

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

// ---------------------------------------------------------------------------------------------
// Internal state

interface KeyRecord {
  accessKeyId: string;
  secret: string;
  accountId: string;
  status: 'Active' | 'Inactive';
  createDate: Date;
  /** Permanent key of an IAM user. */
  userName?: string;
  /** Temporary credentials. */
  sessionToken?: string;
  expiration?: Date;
  roleName?: string;
  sessionName?: string;
}

interface UserRec {
  name: string;
  path: string;
  userId: string;
  arn: string;
  accountId: string;
  createDate: Date;
}
interface RoleRec {
  name: string;
  path: string;
  roleId: string;
  arn: string;
  accountId: string;
  createDate: Date;
  maxSessionDuration: number;
}
interface ProfileRec {
  name: string;
  path: string;
  id: string;
  arn: string;
  accountId: string;
  roleNames: string[];
  createDate: Date;
}

class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const NS = {
  ec2: 'http://ec2.amazonaws.com/doc/2016-11-15/',
  iam: 'https://iam.amazonaws.com/doc/2010-05-08/',
  sts: 'https://sts.amazonaws.com/doc/2011-06-15/',
} as const;

const STATE_CODES: Record<InstanceStateName, number> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
};

const REGION_RE = /^(us|eu|ap|sa|ca|me|af|il|mx|cn)(-gov|-iso|-isob)?-(north|south|east|west|central|northeast|southeast|northwest|southwest)-\d$/;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function randId(prefix: string, n: number): string {
  const b = randomBytes(n);
  let s = prefix;
  for (let i = 0; i < n; i++) s += ALNUM[b[i] % ALNUM.length];
  return s;
}
const hex = (n: number) => randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
const secretKey = () => randomBytes(30).toString('base64').replace(/[+]/g, 'A').slice(0, 40);
const isoNoMs = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
function normPath(p: string | undefined): string {
  if (!p) return '/';
  if (!p.startsWith('/') || !p.endsWith('/')) throw new Error(`cloudsim: path must start and end with "/": ${p}`);
  return p;
}

// ---------------------------------------------------------------------------------------------

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
  const region = opts.region ?? 'us-east-1';
  const account = opts.account ?? String(100000000000 + Math.floor(Math.random() * 899999999999));
  const ber = opts.berPkcs7 ?? true;
  const rsaSigAlg = opts.rsa2048SignatureAlgorithm ?? 'sha256WithRSAEncryption';
  let clockOffset = 0;
  const now = () => new Date(Date.now() + clockOffset);

  // Signers: like the real provider, no CA — one self-signed certificate per algorithm.
  const signers: Record<'pkcs7' | 'rsa2048' | 'signature', Signer> = {
    pkcs7: makeSigner('dsa', { bits: 1024, cn: 'cloudsim instance identity (DSA)', notBefore: new Date('2012-01-05T12:56:12Z'), notAfter: new Date('2038-01-05T12:56:12Z') }),
    rsa2048: makeSigner('rsa', { bits: 2048, cn: 'cloudsim instance identity (RSA-2048)', notBefore: new Date('2015-08-14T09:08:49Z'), notAfter: new Date('2195-01-17T09:08:49Z') }),
    signature: makeSigner('rsa', { bits: 2048, cn: 'cloudsim instance identity signature', notBefore: new Date('2015-08-14T09:08:49Z'), notAfter: new Date('2195-01-17T09:08:49Z') }),
  };

  const keys = new Map<string, KeyRecord>();
  const users = new Map<string, UserRec>(); // `${account}/${name}`
  const roles = new Map<string, RoleRec>();
  const profiles = new Map<string, ProfileRec>();
  const instances = new Map<string, SimInstance>();
  const imdsTokens = new Map<string, number>(); // token -> expiry ms
  const imdsCreds = new Map<string, KeyRecord>(); // instanceId -> current creds
  const failures: Array<{ action: string; status: number; code: string; message: string; left: number }> = [];
  const canned: Array<{ action: string; status: number; body: string; contentType: string; left: number }> = [];
  const delays: Array<{ action: string; ms: number; left: number }> = [];
  let pageSize: number | undefined;
  const requests: SimRequest[] = [];
  const metadataRequests: MetadataRequest[] = [];
  let currentInstance: string | undefined;

  // --- state helpers -------------------------------------------------------------------------

  function newAccessKey(u: UserRec): KeyRecord {
    const k: KeyRecord = { accessKeyId: randId('AKIA', 16), secret: secretKey(), accountId: u.accountId, status: 'Active', createDate: now(), userName: u.name };
    keys.set(k.accessKeyId, k);
    return k;
  }

  function addUser(o: { name: string; path?: string; accountId?: string }): SimUser {
    const accountId = o.accountId ?? account;
    const path = normPath(o.path);
    if (users.has(`${accountId}/${o.name}`)) throw new Error(`cloudsim: user ${o.name} exists`);
    const u: UserRec = { name: o.name, path, userId: randId('AIDA', 17), arn: `arn:aws:iam::${accountId}:user${path}${o.name}`, accountId, createDate: now() };
    users.set(`${accountId}/${o.name}`, u);
    const k = newAccessKey(u);
    return { name: u.name, path, arn: u.arn, userId: u.userId, accountId, accessKeyId: k.accessKeyId, secretAccessKey: k.secret };
  }

  function addRole(o: { name: string; path?: string; accountId?: string; maxSessionDuration?: number }): SimRole {
    const accountId = o.accountId ?? account;
    const path = normPath(o.path);
    if (roles.has(`${accountId}/${o.name}`)) throw new Error(`cloudsim: role ${o.name} exists`);
    const r: RoleRec = {
      name: o.name,
      path,
      roleId: randId('AROA', 17),
      arn: `arn:aws:iam::${accountId}:role${path}${o.name}`,
      accountId,
      createDate: now(),
      maxSessionDuration: o.maxSessionDuration ?? 3600,
    };
    roles.set(`${accountId}/${o.name}`, r);
    return { name: r.name, path, arn: r.arn, roleId: r.roleId, accountId };
  }

  function addInstanceProfile(o: { name: string; roleName?: string; path?: string; accountId?: string }): SimInstanceProfile {
    const accountId = o.accountId ?? account;
    const path = normPath(o.path);
    if (o.roleName && !roles.has(`${accountId}/${o.roleName}`)) throw new Error(`cloudsim: no role ${o.roleName} in ${accountId}`);
    const p: ProfileRec = {
      name: o.name,
      path,
      id: randId('AIPA', 17),
      arn: `arn:aws:iam::${accountId}:instance-profile${path}${o.name}`,
      accountId,
      roleNames: o.roleName ? [o.roleName] : [],
      createDate: now(),
    };
    profiles.set(`${accountId}/${o.name}`, p);
    return { name: p.name, path, arn: p.arn, id: p.id, accountId, roleName: o.roleName ?? '' };
  }

  function addInstance(o: AddInstanceOptions = {}): SimInstance {
    const accountId = o.accountId ?? account;
    const r = o.region ?? region;
    let profileName: string | undefined;
    if (o.instanceProfile) {
      const name = o.instanceProfile.startsWith('arn:') ? o.instanceProfile.split('/').pop()! : o.instanceProfile;
      if (!profiles.has(`${accountId}/${name}`)) throw new Error(`cloudsim: no instance profile ${o.instanceProfile} in ${accountId}`);
      profileName = name;
    }
    const privateIp = o.privateIp ?? `10.0.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const inst: SimInstance = {
      instanceId: o.instanceId ?? `i-${hex(17)}`,
      imageId: o.imageId ?? `ami-${hex(17)}`,
      state: o.state ?? 'running',
      tags: { ...(o.tags ?? {}) },
      vpcId: o.vpcId ?? `vpc-${hex(17)}`,
      subnetId: o.subnetId ?? `subnet-${hex(17)}`,
      instanceProfile: profileName,
      region: r,
      availabilityZone: `${r}a`,
      accountId,
      instanceType: o.instanceType ?? 't3.micro',
      architecture: 'x86_64',
      privateIp,
      privateDnsName: r === 'us-east-1' ? `ip-${privateIp.replace(/\./g, '-')}.ec2.internal` : `ip-${privateIp.replace(/\./g, '-')}.${r}.compute.internal`,
      pendingTime: o.pendingTime ?? isoNoMs(now()),
      reservationId: `r-${hex(17)}`,
    };
    instances.set(inst.instanceId, inst);
    if (currentInstance === undefined) currentInstance = inst.instanceId;
    return inst;
  }

  function mustInstance(id: string): SimInstance {
    const i = instances.get(id);
    if (!i) throw new Error(`cloudsim: no instance ${id}`);
    return i;
  }

  function issueSession(role: RoleRec, sessionName: string, durationSeconds: number): KeyRecord {
    const k: KeyRecord = {
      accessKeyId: randId('ASIA', 16),
      secret: secretKey(),
      accountId: role.accountId,
      status: 'Active',
      createDate: now(),
      sessionToken: 'IQoJb3JpZ2luX2VjE' + randomBytes(240).toString('base64'),
      expiration: new Date(now().getTime() + durationSeconds * 1000),
      roleName: role.name,
      sessionName,
    };
    keys.set(k.accessKeyId, k);
    return k;
  }

  function roleByArn(arn: string): RoleRec | undefined {
    const m = /^arn:aws:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(arn);
    if (!m) return undefined;
    const r = roles.get(`${m[1]}/${m[2]}`);
    return r && r.arn === arn ? r : undefined;
  }

  // --- identity of a caller --------------------------------------------------------------------

  function callerIdentity(k: KeyRecord): { arn: string; userId: string; account: string; user?: UserRec; role?: RoleRec } {
    if (k.userName) {
      const u = users.get(`${k.accountId}/${k.userName}`)!;
      return { arn: u.arn, userId: u.userId, account: k.accountId, user: u };
    }
    const r = roles.get(`${k.accountId}/${k.roleName}`)!;
    return { arn: `arn:aws:sts::${k.accountId}:assumed-role/${r.name}/${k.sessionName}`, userId: `${r.roleId}:${k.sessionName}`, account: k.accountId, role: r };
  }

  // --- XML answers --------------------------------------------------------------------------------

  const iso = (d: Date) => isoNoMs(d);

  function queryResponse(service: 'iam' | 'sts', action: string, result: XmlNode[] | null, requestId: string): string {
    const children: XmlNode[] = [];
    if (result) children.push(el(`${action}Result`, result));
    children.push(el('ResponseMetadata', [el('RequestId', requestId)]));
    return xmlDoc(el(`${action}Response`, children, { xmlns: NS[service] }), false);
  }

  const userXml = (u: UserRec) => [el('Path', u.path), el('UserName', u.name), el('UserId', u.userId), el('Arn', u.arn), el('CreateDate', iso(u.createDate))];
  const roleXml = (r: RoleRec) => [
    el('Path', r.path),
    el('RoleName', r.name),
    el('RoleId', r.roleId),
    el('Arn', r.arn),
    el('CreateDate', iso(r.createDate)),
    el(
      'AssumeRolePolicyDocument',
      encodeURIComponent(JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] })),
    ),
    el('MaxSessionDuration', r.maxSessionDuration),
  ];

  // --- actions ----------------------------------------------------------------------------------

  type Ctx = { k: KeyRecord; params: Record<string, string>; auth: ParsedAuth; requestId: string };

  function targetUser(ctx: Ctx, action: string): UserRec {
    const name = ctx.params.UserName;
    if (!name) {
      if (!ctx.k.userName) throw new ApiError('ValidationError', 'Must specify userName when calling with non-User credentials', 400);
      return users.get(`${ctx.k.accountId}/${ctx.k.userName}`)!;
    }
    const u = users.get(`${ctx.k.accountId}/${name}`);
    if (!u) throw new ApiError('NoSuchEntity', `The user with name ${name} cannot be found.`, 404);
    void action;
    return u;
  }

  function required(ctx: Ctx, name: string): string {
    const v = ctx.params[name];
    if (v === undefined || v === '') {
      const member = name[0].toLowerCase() + name.slice(1);
      throw new ApiError('ValidationError', `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`, 400);
    }
    return v;
  }

  /** One page of `all` from the opaque continuation token `token` (see setPageSize). */
  function paginate<T>(all: T[], token: string | undefined, param: string): { page: T[]; next?: string } {
    let start = 0;
    if (token) {
      const m = /^cloudsim-page-(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
      if (!m) throw new ApiError(param === 'Marker' ? 'ValidationError' : 'InvalidParameterValue', `Invalid ${param}: ${token}`, 400);
      start = Number(m[1]);
    }
    if (pageSize === undefined) return { page: all.slice(start) };
    const end = start + pageSize;
    return { page: all.slice(start, end), next: end < all.length ? Buffer.from(`cloudsim-page-${end}`).toString('base64') : undefined };
  }

  const iamActions: Record<string, (ctx: Ctx) => XmlNode[] | null> = {
    GetUser: (ctx) => [el('User', userXml(targetUser(ctx, 'GetUser')))],
    GetRole: (ctx) => {
      const name = required(ctx, 'RoleName');
      const r = roles.get(`${ctx.k.accountId}/${name}`);
      if (!r) throw new ApiError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
      return [el('Role', roleXml(r))];
    },
    GetInstanceProfile: (ctx) => {
      const name = required(ctx, 'InstanceProfileName');
      const p = profiles.get(`${ctx.k.accountId}/${name}`);
      if (!p) throw new ApiError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404);
      return [
        el('InstanceProfile', [
          el('Path', p.path),
          el('InstanceProfileName', p.name),
          el('InstanceProfileId', p.id),
          el('Arn', p.arn),
          el('CreateDate', iso(p.createDate)),
          el(
            'Roles',
            p.roleNames.map((rn) => roles.get(`${p.accountId}/${rn}`)).filter((r): r is RoleRec => !!r).map((r) => el('member', roleXml(r))),
          ),
        ]),
      ];
    },
    ListAccessKeys: (ctx) => {
      const u = targetUser(ctx, 'ListAccessKeys');
      const all = [...keys.values()].filter((k) => k.userName === u.name && k.accountId === u.accountId);
      const { page, next } = paginate(all, ctx.params.Marker, 'Marker');
      return [
        el(
          'AccessKeyMetadata',
          page.map((k) => el('member', [el('UserName', u.name), el('AccessKeyId', k.accessKeyId), el('Status', k.status), el('CreateDate', iso(k.createDate))])),
        ),
        el('IsTruncated', next ? 'true' : 'false'),
        ...(next ? [el('Marker', next)] : []),
      ];
    },
    CreateAccessKey: (ctx) => {
      const u = targetUser(ctx, 'CreateAccessKey');
      const count = [...keys.values()].filter((k) => k.userName === u.name && k.accountId === u.accountId).length;
      if (count >= 2) throw new ApiError('LimitExceeded', 'Cannot exceed quota for AccessKeysPerUser: 2', 409);
      const k = newAccessKey(u);
      return [
        el('AccessKey', [
          el('UserName', u.name),
          el('AccessKeyId', k.accessKeyId),
          el('Status', 'Active'),
          el('SecretAccessKey', k.secret),
          el('CreateDate', iso(k.createDate)),
        ]),
      ];
    },
    DeleteAccessKey: (ctx) => {
      const id = required(ctx, 'AccessKeyId');
      const u = targetUser(ctx, 'DeleteAccessKey');
      const k = keys.get(id);
      if (!k || k.userName !== u.name || k.accountId !== u.accountId) throw new ApiError('NoSuchEntity', `The Access Key with id ${id} cannot be found.`, 404);
      keys.delete(id);
      return null;
    },
  };

  const stsActions: Record<string, (ctx: Ctx) => XmlNode[] | null> = {
    GetCallerIdentity: (ctx) => {
      const id = callerIdentity(ctx.k);
      return [el('Arn', id.arn), el('UserId', id.userId), el('Account', id.account)];
    },
    AssumeRole: (ctx) => {
      const roleArn = required(ctx, 'RoleArn');
      const session = required(ctx, 'RoleSessionName');
      if (!/^[\w+=,.@-]{2,64}$/.test(session))
        throw new ApiError(
          'ValidationError',
          `1 validation error detected: Value '${session}' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*`,
          400,
        );
      const caller = callerIdentity(ctx.k);
      const role = roleByArn(roleArn);
      if (!role) throw new ApiError('AccessDenied', `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`, 403);
      const dur = ctx.params.DurationSeconds ? Number(ctx.params.DurationSeconds) : 3600;
      if (!Number.isInteger(dur) || dur < 900)
        throw new ApiError('ValidationError', `1 validation error detected: Value '${ctx.params.DurationSeconds}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900`, 400);
      const max = ctx.k.sessionToken ? 3600 : role.maxSessionDuration; // role chaining is limited to one hour
      if (dur > max) throw new ApiError('ValidationError', 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.', 400);
      const k = issueSession(role, session, dur);
      return [
        el('AssumedRoleUser', [el('AssumedRoleId', `${role.roleId}:${session}`), el('Arn', `arn:aws:sts::${role.accountId}:assumed-role/${role.name}/${session}`)]),
        el('Credentials', [el('AccessKeyId', k.accessKeyId), el('SecretAccessKey', k.secret), el('SessionToken', k.sessionToken!), el('Expiration', iso(k.expiration!))]),
      ];
    },
  };

  function ec2DescribeInstances(ctx: Ctx): string {
    const ids: string[] = [];
    for (let i = 1; ctx.params[`InstanceId.${i}`] !== undefined; i++) ids.push(ctx.params[`InstanceId.${i}`]);
    for (const id of ids)
      if (!/^i-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id)) throw new ApiError('InvalidInstanceID.Malformed', `Invalid id: "${id}"`, 400);
    const visible = (i: SimInstance) => i.accountId === ctx.k.accountId && i.region === ctx.auth.region;
    let found: SimInstance[];
    if (ids.length) {
      const missing = ids.filter((id) => !instances.has(id) || !visible(instances.get(id)!));
      if (missing.length)
        throw new ApiError(
          'InvalidInstanceID.NotFound',
          missing.length === 1 ? `The instance ID '${missing[0]}' does not exist` : `The instance IDs '${missing.join(', ')}' do not exist`,
          400,
        );
      found = [...new Set(ids)].map((id) => instances.get(id)!);
    } else {
      found = [...instances.values()].filter(visible);
    }
    const { page, next } = paginate(found, ctx.params.NextToken, 'NextToken');
    const items = page.map((i) => {
      const prof = i.instanceProfile ? profiles.get(`${i.accountId}/${i.instanceProfile}`) : undefined;
      const inst: XmlNode[] = [
        el('instanceId', i.instanceId),
        el('imageId', i.imageId),
        el('instanceState', [el('code', STATE_CODES[i.state]), el('name', i.state)]),
        el('privateDnsName', i.privateDnsName),
        el('dnsName'),
        el('reason'),
        el('amiLaunchIndex', 0),
        el('productCodes'),
        el('instanceType', i.instanceType),
        el('launchTime', i.pendingTime.replace(/Z$/, '.000Z')),
        el('placement', [el('availabilityZone', i.availabilityZone), el('groupName'), el('tenancy', 'default')]),
        el('monitoring', [el('state', 'disabled')]),
        el('subnetId', i.subnetId),
        el('vpcId', i.vpcId),
        el('privateIpAddress', i.privateIp),
        el('architecture', i.architecture),
        el('rootDeviceType', 'ebs'),
      ];
      if (prof) inst.push(el('iamInstanceProfile', [el('arn', prof.arn), el('id', prof.id)]));
      const tags = Object.entries(i.tags);
      if (tags.length) inst.push(el('tagSet', tags.map(([key, value]) => el('item', [el('key', key), el('value', value)]))));
      return el('item', [
        el('reservationId', i.reservationId),
        el('ownerId', i.accountId),
        el('groupSet'),
        el('instancesSet', [el('item', inst)]),
      ]);
    });
    return xmlDoc(
      el('DescribeInstancesResponse', [el('requestId', ctx.requestId), el('reservationSet', items), ...(next ? [el('nextToken', next)] : [])], { xmlns: NS.ec2 }),
      true,
    );
  }

  // --- error bodies ----------------------------------------------------------------------------

  function errorBody(service: string, code: string, message: string, requestId: string): string {
    if (service === 'ec2')
      return xmlDoc(el('Response', [el('Errors', [el('Error', [el('Code', code), el('Message', message)])]), el('RequestID', requestId)]), true);
    const ns = service === 'iam' ? NS.iam : NS.sts;
    const type = /^(InternalFailure|ServiceUnavailable|InternalError)$/.test(code) ? 'Receiver' : 'Sender';
    return xmlDoc(
      el('ErrorResponse', [el('Error', [el('Type', type), el('Code', code), el('Message', message)]), el('RequestId', requestId)], { xmlns: ns }),
      false,
    );
  }

  /** The same authentication failure is spelled differently by EC2. */
  function ec2AuthError(e: AuthError): AuthError {
    switch (e.code) {
      case 'InvalidClientTokenId':
        return new AuthError('AuthFailure', 'AWS was not able to validate the provided access credentials', 401);
      case 'ExpiredToken':
        return new AuthError('RequestExpired', 'Request has expired.', 400);
      default:
        if (e.message.startsWith('Signature expired') || e.message.startsWith('Signature not yet current'))
          return new AuthError('RequestExpired', `Request has expired. ${e.message}`, 400);
        return e;
    }
  }

  // --- authentication --------------------------------------------------------------------------

  function authenticate(inp: SigInput, auth: ParsedAuth): KeyRecord {
    if (auth.service === 'iam' && auth.region !== 'us-east-1')
      throw new AuthError('SignatureDoesNotMatch', 'Credential should be scoped to a valid region. ');
    if (!REGION_RE.test(auth.region)) throw new AuthError('SignatureDoesNotMatch', 'Credential should be scoped to a valid region. ');
    checkStructure(inp, auth, now().getTime());
    const k = keys.get(auth.accessKeyId);
    if (!k || k.status !== 'Active') throw new AuthError('InvalidClientTokenId', 'The security token included in the request is invalid.');
    if (k.sessionToken) {
      if (!auth.securityToken || !sigEqual(auth.securityToken, k.sessionToken))
        throw new AuthError('InvalidClientTokenId', 'The security token included in the request is invalid.');
    } else if (auth.securityToken) {
      throw new AuthError('InvalidClientTokenId', 'The security token included in the request is invalid.');
    }
    // Normalised path first (the provider normalises, so `//` signed as `/` still verifies), then the raw path.
    let first: { canonical: string; stringToSign: string } | undefined;
    for (const normalize of [true, false]) {
      const canonical = canonicalRequest(inp, auth, normalize);
      const { signature, stringToSign } = expectedSignature(k.secret, auth, canonical);
      if (sigEqual(signature, auth.signature.toLowerCase())) {
        if (k.expiration && k.expiration.getTime() <= now().getTime())
          throw new AuthError('ExpiredToken', 'The security token included in the request is expired', 400);
        return k;
      }
      first ??= { canonical, stringToSign };
    }
    throw new AuthError(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.' +
        `\n\nThe Canonical String for this request should have been\n'${first!.canonical}'\n\nThe String-to-Sign should have been\n'${first!.stringToSign}'\n`,
    );
  }

  // --- HTTP ------------------------------------------------------------------------------------

  function headerMap(req: IncomingMessage): Map<string, string[]> {
    const m = new Map<string, string[]>();
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const n = req.rawHeaders[i].toLowerCase();
      const list = m.get(n) ?? [];
      list.push(req.rawHeaders[i + 1]);
      m.set(n, list);
    }
    return m;
  }

  function send(res: ServerResponse, status: number, body: string, contentType: string, extra: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extra });
    res.end(body);
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
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
      time: now(),
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
    requests.push(entry);
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
      k = authenticate(inp, auth);
    } catch (e) {
      if (!(e instanceof AuthError)) throw e;
      const err = service === 'ec2' ? ec2AuthError(e) : e;
      return fail(service, err.status, err.code, err.message);
    }

    const di = delays.findIndex((d) => d.left > 0 && (d.action === action || d.action === '*'));
    if (di >= 0) {
      const d = delays[di];
      if (--d.left <= 0) delays.splice(di, 1);
      await new Promise((r) => setTimeout(r, d.ms));
      if (res.destroyed) return; // the caller gave up waiting
    }

    const fi = failures.findIndex((f) => f.left > 0 && (f.action === action || f.action === '*'));
    if (fi >= 0) {
      const f = failures[fi];
      if (--f.left <= 0) failures.splice(fi, 1);
      return fail(service, f.status, f.code, f.message);
    }

    const ci = canned.findIndex((c) => c.left > 0 && (c.action === action || c.action === '*'));
    if (ci >= 0) {
      const c = canned[ci];
      if (--c.left <= 0) canned.splice(ci, 1);
      entry.status = c.status;
      entry.requestId = '';
      return send(res, c.status, c.body, c.contentType);
    }

    if (!action) return fail(service, 400, 'MissingAction', 'Missing Action');
    const ctx: Ctx = { k, params, auth, requestId };
    try {
      if (service === 'ec2') {
        if (action !== 'DescribeInstances') throw new ApiError('InvalidAction', `The action ${action} is not valid for this web service.`, 400);
        return send(res, 200, ec2DescribeInstances(ctx), 'text/xml;charset=UTF-8');
      }
      const table = service === 'iam' ? iamActions : stsActions;
      const h = table[action];
      if (!h) throw new ApiError('InvalidAction', `Could not find operation ${action} for version ${params.Version ?? 'NO_VERSION_SPECIFIED'}`, 400);
      const result = h(ctx);
      return send(res, 200, queryResponse(service, action, result, requestId), 'text/xml', { 'x-amzn-RequestId': requestId });
    } catch (e) {
      if (e instanceof ApiError) return fail(service, e.status, e.code, e.message);
      throw e;
    }
  }

  // --- metadata service ------------------------------------------------------------------------

  function docFor(i: SimInstance): Buffer {
    const doc = {
      accountId: i.accountId,
      architecture: i.architecture,
      availabilityZone: i.availabilityZone,
      billingProducts: null,
      devpayProductCodes: null,
      marketplaceProductCodes: null,
      imageId: i.imageId,
      instanceId: i.instanceId,
      instanceType: i.instanceType,
      kernelId: null,
      pendingTime: i.pendingTime,
      privateIp: i.privateIp,
      ramdiskId: null,
      region: i.region,
      version: '2017-09-30',
    };
    // The real service pretty-prints with " : " between key and value.
    return Buffer.from(JSON.stringify(doc, null, 2).replace(/^(\s*"[^"]+"):/gm, '$1 :'), 'utf8');
  }

  function instanceCreds(i: SimInstance): { role: string; k: KeyRecord } | undefined {
    if (!i.instanceProfile) return undefined;
    const p = profiles.get(`${i.accountId}/${i.instanceProfile}`);
    const roleName = p?.roleNames[0];
    const role = roleName ? roles.get(`${i.accountId}/${roleName}`) : undefined;
    if (!p || !role) return undefined;
    let k = imdsCreds.get(i.instanceId);
    // Rotated ahead of expiry, like the real service (new keys well before the old ones expire).
    if (!k || !keys.has(k.accessKeyId) || k.roleName !== role.name || k.expiration!.getTime() - now().getTime() < 15 * 60_000) {
      k = issueSession(role, i.instanceId, 6 * 3600);
      imdsCreds.set(i.instanceId, k);
    }
    return { role: role.name, k };
  }

  function handleMetadata(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const headers: Record<string, string> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i].toLowerCase()] ??= req.rawHeaders[i + 1];
    const entry: MetadataRequest = { time: now(), method: req.method ?? 'GET', path, status: 200, headers };
    metadataRequests.push(entry);
    const reply = (status: number, body: string, ctype = 'text/plain', extra: Record<string, string> = {}) => {
      entry.status = status;
      send(res, status, body, ctype, extra);
    };
    if (path === '/latest/api/token') {
      if (req.method !== 'PUT') return reply(405, 'Method Not Allowed');
      if (req.headers['x-forwarded-for']) return reply(403, 'Forbidden');
      const ttlRaw = req.headers['x-aws-ec2-metadata-token-ttl-seconds'];
      const ttl = Number(ttlRaw);
      if (typeof ttlRaw !== 'string' || !/^\d+$/.test(ttlRaw) || ttl < 1 || ttl > 21600) return reply(400, 'Bad Request');
      const token = randomBytes(42).toString('base64').replace(/[+/=]/g, 'A');
      imdsTokens.set(token, now().getTime() + ttl * 1000);
      return reply(200, token, 'text/plain', { 'X-aws-ec2-metadata-token-ttl-seconds': String(ttl) });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'Method Not Allowed');
    const token = req.headers['x-aws-ec2-metadata-token'];
    const exp = typeof token === 'string' ? imdsTokens.get(token) : undefined;
    if (exp === undefined || exp <= now().getTime()) return reply(401, 'Unauthorized');
    const inst = currentInstance ? instances.get(currentInstance) : undefined;
    if (!inst) return reply(404, 'Not Found');
    const doc = docFor(inst);
    switch (path) {
      case '/latest/dynamic/instance-identity/':
        return reply(200, 'document\npkcs7\nrsa2048\nsignature');
      case '/latest/dynamic/instance-identity/document':
        return reply(200, doc.toString('utf8'));
      case '/latest/dynamic/instance-identity/signature':
        return reply(200, wrap64(sign('sha256', doc, signers.signature.privateKey).toString('base64')));
      case '/latest/dynamic/instance-identity/pkcs7':
        return reply(
          200,
          wrap64(buildSignedData(doc, signers.pkcs7, { digest: 'sha1', signatureAlgorithm: OID.dsaWithSHA1, algorithmProtection: false, ber, signingTime: now() }).toString('base64')),
        );
      case '/latest/dynamic/instance-identity/rsa2048':
        return reply(
          200,
          wrap64(
            buildSignedData(doc, signers.rsa2048, {
              digest: 'sha256',
              signatureAlgorithm: rsaSigAlg === 'rsaEncryption' ? OID.rsaEncryption : OID.sha256WithRSAEncryption,
              algorithmProtection: rsaSigAlg !== 'rsaEncryption',
              ber,
              signingTime: now(),
            }).toString('base64'),
          ),
        );
      case '/latest/meta-data/instance-id':
        return reply(200, inst.instanceId);
      case '/latest/meta-data/ami-id':
        return reply(200, inst.imageId);
      case '/latest/meta-data/instance-type':
        return reply(200, inst.instanceType);
      case '/latest/meta-data/local-ipv4':
        return reply(200, inst.privateIp);
      case '/latest/meta-data/placement/region':
        return reply(200, inst.region);
      case '/latest/meta-data/placement/availability-zone':
        return reply(200, inst.availabilityZone);
    }
    if (path === '/latest/meta-data/iam/info') {
      const p = inst.instanceProfile ? profiles.get(`${inst.accountId}/${inst.instanceProfile}`) : undefined;
      if (!p) return reply(404, 'Not Found');
      return reply(200, JSON.stringify({ Code: 'Success', LastUpdated: isoNoMs(now()), InstanceProfileArn: p.arn, InstanceProfileId: p.id }, null, 2));
    }
    if (path === '/latest/meta-data/iam/security-credentials/' || path === '/latest/meta-data/iam/security-credentials') {
      const c = instanceCreds(inst);
      return c ? reply(200, c.role) : reply(404, 'Not Found');
    }
    const m = /^\/latest\/meta-data\/iam\/security-credentials\/([^/]+)$/.exec(path);
    if (m) {
      const c = instanceCreds(inst);
      if (!c || c.role !== decodeURIComponent(m[1])) return reply(404, 'Not Found');
      return reply(
        200,
        JSON.stringify(
          {
            Code: 'Success',
            LastUpdated: isoNoMs(c.k.createDate),
            Type: 'AWS-HMAC',
            AccessKeyId: c.k.accessKeyId,
            SecretAccessKey: c.k.secret,
            Token: c.k.sessionToken,
            Expiration: isoNoMs(c.k.expiration!),
          },
          null,
          2,
        ),
      );
    }
    return reply(404, 'Not Found');
  }

  // --- server ----------------------------------------------------------------------------------

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      Promise.resolve()
        .then(() => ((req.url ?? '').startsWith('/latest/') ? handleMetadata(req, res) : handleApi(req, res, body)))
        .catch((e: unknown) => {
          if (!res.headersSent) send(res, 500, errorBody('sts', 'InternalFailure', String(e), randomUUID()), 'text/xml');
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const rootRec = addUser({ name: 'svc-root' });

  const sim: CloudSim = {
    url,
    endpoint: url,
    metadataUrl: url,
    port,
    region,
    account,
    certificates: { pkcs7: signers.pkcs7.pem, rsa2048: signers.rsa2048.pem, signature: signers.signature.pem },
    rootCredentials: rootRec,
    requests,
    metadataRequests,
    addUser,
    addRole,
    addInstanceProfile,
    addInstance,
    getInstance: mustInstance,
    setInstanceState(id, state) {
      mustInstance(id).state = state;
    },
    setPendingTime(id, t) {
      mustInstance(id).pendingTime = t;
    },
    useInstance(id) {
      if (id !== undefined) mustInstance(id);
      currentInstance = id;
    },
    assumeRole(roleArn, sessionName, durationSeconds = 3600) {
      const role = roleByArn(roleArn);
      if (!role) throw new Error(`cloudsim: no role ${roleArn}`);
      const k = issueSession(role, sessionName, durationSeconds);
      return {
        accessKeyId: k.accessKeyId,
        secretAccessKey: k.secret,
        sessionToken: k.sessionToken,
        expiration: k.expiration!,
        arn: `arn:aws:sts::${role.accountId}:assumed-role/${role.name}/${sessionName}`,
      };
    },
    revokeAccessKey(id) {
      keys.delete(id);
    },
    failNext(action, spec = {}) {
      const byCode: Record<string, number> = { Throttling: 400, RequestLimitExceeded: 503, InternalFailure: 500, InternalError: 500, ServiceUnavailable: 503 };
      const byStatus: Record<number, string> = { 400: 'Throttling', 429: 'Throttling', 500: 'InternalFailure', 503: 'ServiceUnavailable' };
      const status = spec.status ?? (spec.code ? (byCode[spec.code] ?? 400) : 503);
      const code = spec.code ?? byStatus[status] ?? 'InternalFailure';
      failures.push({ action, status, code, message: spec.message ?? (code === 'Throttling' ? 'Rate exceeded' : `Injected failure ${code}`), left: spec.times ?? 1 });
    },
    respondNext(action, a) {
      canned.push({ action, status: a.status ?? 200, body: a.body, contentType: a.contentType ?? 'text/xml', left: a.times ?? 1 });
    },
    delayNext(action, ms, times = 1) {
      delays.push({ action, ms, left: times });
    },
    setPageSize(n) {
      if (n !== undefined && (!Number.isInteger(n) || n < 1)) throw new Error(`cloudsim: page size must be a positive integer: ${n}`);
      pageSize = n;
    },
    advanceClock(ms) {
      clockOffset += ms;
    },
    now,
    identityDocument() {
      const inst = currentInstance ? instances.get(currentInstance) : undefined;
      if (!inst) throw new Error('cloudsim: no current instance');
      return docFor(inst);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return sim;
}
