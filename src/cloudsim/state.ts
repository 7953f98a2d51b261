/**
 * What the simulated provider holds (principals, access keys, instances, metadata tokens, the test hooks'
 * queues, the call logs and its clock) and the changes made to it. Every function is handed the state it
 * acts on, so simulators started side by side share nothing.
 */
import { randomBytes } from 'node:crypto';
import { makeSigner, type Signer } from './pki.js';

export type InstanceStateName = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped';

/** SignerInfo.signatureAlgorithm of rsa2048 documents. */
export type Rsa2048SignatureAlgorithm = 'sha256WithRSAEncryption' | 'rsaEncryption';

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

export interface KeyRecord {
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

export interface UserRec {
  name: string;
  path: string;
  userId: string;
  arn: string;
  accountId: string;
  createDate: Date;
}
export interface RoleRec {
  name: string;
  path: string;
  roleId: string;
  arn: string;
  accountId: string;
  createDate: Date;
  maxSessionDuration: number;
}
export interface ProfileRec {
  name: string;
  path: string;
  id: string;
  arn: string;
  accountId: string;
  roleNames: string[];
  createDate: Date;
}

/** A queued test hook: it applies to the next `left` calls of `action` ('*' = any). */
export interface QueuedHook {
  action: string;
  left: number;
}
export interface QueuedFailure extends QueuedHook {
  status: number;
  code: string;
  message: string;
}
export interface QueuedAnswer extends QueuedHook {
  status: number;
  body: string;
  contentType: string;
}
export interface QueuedDelay extends QueuedHook {
  ms: number;
}

export interface SimState {
  readonly region: string;
  readonly account: string;
  /** Encoding of the pkcs7/rsa2048 documents the metadata service signs. */
  readonly documents: { ber: boolean; rsa2048SignatureAlgorithm: Rsa2048SignatureAlgorithm };
  readonly signers: Record<'pkcs7' | 'rsa2048' | 'signature', Signer>;
  /** Milliseconds the simulator's clock runs ahead of the real one. */
  clockOffset: number;
  readonly keys: Map<string, KeyRecord>;
  /** Users, roles and profiles are keyed `${accountId}/${name}`. */
  readonly users: Map<string, UserRec>;
  readonly roles: Map<string, RoleRec>;
  readonly profiles: Map<string, ProfileRec>;
  readonly instances: Map<string, SimInstance>;
  /** Metadata session token -> expiry (ms). */
  readonly imdsTokens: Map<string, number>;
  /** Instance ID -> the role credentials its metadata service currently hands out. */
  readonly imdsCreds: Map<string, KeyRecord>;
  readonly failures: QueuedFailure[];
  readonly canned: QueuedAnswer[];
  readonly delays: QueuedDelay[];
  /** Largest page of a list answer; undefined: everything in one page. */
  pageSize: number | undefined;
  readonly requests: SimRequest[];
  readonly metadataRequests: MetadataRequest[];
  /** The instance the metadata service describes. */
  currentInstance: string | undefined;
}

export function createState(o: { region: string; account: string; ber: boolean; rsa2048SignatureAlgorithm: Rsa2048SignatureAlgorithm }): SimState {
  return {
    region: o.region,
    account: o.account,
    documents: { ber: o.ber, rsa2048SignatureAlgorithm: o.rsa2048SignatureAlgorithm },
    // Like the real provider, no CA: one self-signed certificate per algorithm.
    signers: {
      pkcs7: makeSigner('dsa', { bits: 1024, cn: 'cloudsim instance identity (DSA)', notBefore: new Date('2012-01-05T12:56:12Z'), notAfter: new Date('2038-01-05T12:56:12Z') }),
      rsa2048: makeSigner('rsa', { bits: 2048, cn: 'cloudsim instance identity (RSA-2048)', notBefore: new Date('2015-08-14T09:08:49Z'), notAfter: new Date('2195-01-17T09:08:49Z') }),
      signature: makeSigner('rsa', { bits: 2048, cn: 'cloudsim instance identity signature', notBefore: new Date('2015-08-14T09:08:49Z'), notAfter: new Date('2195-01-17T09:08:49Z') }),
    },
    clockOffset: 0,
    keys: new Map(),
    users: new Map(),
    roles: new Map(),
    profiles: new Map(),
    instances: new Map(),
    imdsTokens: new Map(),
    imdsCreds: new Map(),
    failures: [],
    canned: [],
    delays: [],
    pageSize: undefined,
    requests: [],
    metadataRequests: [],
    currentInstance: undefined,
  };
}

export const now = (s: SimState) => new Date(Date.now() + s.clockOffset);

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function randId(prefix: string, n: number): string {
  const b = randomBytes(n);
  let s = prefix;
  for (let i = 0; i < n; i++) s += ALNUM[b[i] % ALNUM.length];
  return s;
}
const hex = (n: number) => randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
const secretKey = () => randomBytes(30).toString('base64').replace(/[+]/g, 'A').slice(0, 40);
export const isoNoMs = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
function normPath(p: string | undefined): string {
  if (!p) return '/';
  if (!p.startsWith('/') || !p.endsWith('/')) throw new Error(`cloudsim: path must start and end with "/": ${p}`);
  return p;
}

export function newAccessKey(s: SimState, u: UserRec): KeyRecord {
  const k: KeyRecord = { accessKeyId: randId('AKIA', 16), secret: secretKey(), accountId: u.accountId, status: 'Active', createDate: now(s), userName: u.name };
  s.keys.set(k.accessKeyId, k);
  return k;
}

export function addUser(s: SimState, o: { name: string; path?: string; accountId?: string }): SimUser {
  const accountId = o.accountId ?? s.account;
  const path = normPath(o.path);
  if (s.users.has(`${accountId}/${o.name}`)) throw new Error(`cloudsim: user ${o.name} exists`);
  const u: UserRec = { name: o.name, path, userId: randId('AIDA', 17), arn: `arn:aws:iam::${accountId}:user${path}${o.name}`, accountId, createDate: now(s) };
  s.users.set(`${accountId}/${o.name}`, u);
  const k = newAccessKey(s, u);
  return { name: u.name, path, arn: u.arn, userId: u.userId, accountId, accessKeyId: k.accessKeyId, secretAccessKey: k.secret };
}

export function addRole(s: SimState, o: { name: string; path?: string; accountId?: string; maxSessionDuration?: number }): SimRole {
  const accountId = o.accountId ?? s.account;
  const path = normPath(o.path);
  if (s.roles.has(`${accountId}/${o.name}`)) throw new Error(`cloudsim: role ${o.name} exists`);
  const r: RoleRec = {
    name: o.name,
    path,
    roleId: randId('AROA', 17),
    arn: `arn:aws:iam::${accountId}:role${path}${o.name}`,
    accountId,
    createDate: now(s),
    maxSessionDuration: o.maxSessionDuration ?? 3600,
  };
  s.roles.set(`${accountId}/${o.name}`, r);
  return { name: r.name, path, arn: r.arn, roleId: r.roleId, accountId };
}

export function addInstanceProfile(s: SimState, o: { name: string; roleName?: string; path?: string; accountId?: string }): SimInstanceProfile {
  const accountId = o.accountId ?? s.account;
  const path = normPath(o.path);
  if (o.roleName && !s.roles.has(`${accountId}/${o.roleName}`)) throw new Error(`cloudsim: no role ${o.roleName} in ${accountId}`);
  const p: ProfileRec = {
    name: o.name,
    path,
    id: randId('AIPA', 17),
    arn: `arn:aws:iam::${accountId}:instance-profile${path}${o.name}`,
    accountId,
    roleNames: o.roleName ? [o.roleName] : [],
    createDate: now(s),
  };
  s.profiles.set(`${accountId}/${o.name}`, p);
  return { name: p.name, path, arn: p.arn, id: p.id, accountId, roleName: o.roleName ?? '' };
}

export function addInstance(s: SimState, o: AddInstanceOptions = {}): SimInstance {
  const accountId = o.accountId ?? s.account;
  const r = o.region ?? s.region;
  let profileName: string | undefined;
  if (o.instanceProfile) {
    const name = o.instanceProfile.startsWith('arn:') ? o.instanceProfile.split('/').pop()! : o.instanceProfile;
    if (!s.profiles.has(`${accountId}/${name}`)) throw new Error(`cloudsim: no instance profile ${o.instanceProfile} in ${accountId}`);
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
    pendingTime: o.pendingTime ?? isoNoMs(now(s)),
    reservationId: `r-${hex(17)}`,
  };
  s.instances.set(inst.instanceId, inst);
  if (s.currentInstance === undefined) s.currentInstance = inst.instanceId;
  return inst;
}

export function mustInstance(s: SimState, id: string): SimInstance {
  const i = s.instances.get(id);
  if (!i) throw new Error(`cloudsim: no instance ${id}`);
  return i;
}

export function issueSession(s: SimState, role: RoleRec, sessionName: string, durationSeconds: number): KeyRecord {
  const k: KeyRecord = {
    accessKeyId: randId('ASIA', 16),
    secret: secretKey(),
    accountId: role.accountId,
    status: 'Active',
    createDate: now(s),
    sessionToken: 'IQoJb3JpZ2luX2VjE' + randomBytes(240).toString('base64'),
    expiration: new Date(now(s).getTime() + durationSeconds * 1000),
    roleName: role.name,
    sessionName,
  };
  s.keys.set(k.accessKeyId, k);
  return k;
}

export function roleByArn(s: SimState, arn: string): RoleRec | undefined {
  const m = /^arn:aws:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(arn);
  if (!m) return undefined;
  const r = s.roles.get(`${m[1]}/${m[2]}`);
  return r && r.arn === arn ? r : undefined;
}
