/**
 * The identity (IAM-compatible) API: principals for ARN/unique-ID resolution and the access keys that
 * rotate-root replaces. IAM is global; the endpoint signs for the partition's home region.
 */
import type { CredentialSource } from './credentials.js';
import { identityEndpoint } from './endpoints.js';
import { sendQuery, type TransportOptions } from './signed-request.js';
import { list, pick, text, type XmlValue } from './xml.js';

export const IDENTITY_API_VERSION = '2010-05-08';

export interface CloudUser {
  arn: string;
  userId: string;
  userName: string;
  path: string;
  createDate?: string;
}

export interface CloudRole {
  arn: string;
  roleId: string;
  roleName: string;
  path: string;
  createDate?: string;
  /** URL-decoded trust policy JSON text, as the provider returns it percent-encoded. */
  assumeRolePolicyDocument?: string;
}

export interface CloudInstanceProfile {
  arn: string;
  instanceProfileId: string;
  instanceProfileName: string;
  path: string;
  createDate?: string;
  roles: CloudRole[];
}

export interface CloudAccessKeyMetadata {
  accessKeyId: string;
  userName?: string;
  status?: string;
  createDate?: string;
}

export interface CloudAccessKey extends CloudAccessKeyMetadata {
  secretAccessKey: string;
}

export interface IdentityClientOptions {
  credentials: CredentialSource;
  /** config/client `iam_endpoint`. */
  endpoint?: string;
  /** Any region of the target partition; picks the partition's IAM endpoint and signing region. */
  region?: string;
  transport?: TransportOptions;
}

export interface IdentityClient {
  readonly endpoint: string;
  readonly region: string;
  /** Without a name: the user the credentials belong to. */
  getUser(userName?: string): Promise<CloudUser>;
  getRole(roleName: string): Promise<CloudRole>;
  getInstanceProfile(name: string): Promise<CloudInstanceProfile>;
  listAccessKeys(userName?: string): Promise<CloudAccessKeyMetadata[]>;
  createAccessKey(userName?: string): Promise<CloudAccessKey>;
  deleteAccessKey(accessKeyId: string, userName?: string): Promise<void>;
}

export function identityClient(opts: IdentityClientOptions): IdentityClient {
  const ep = identityEndpoint(opts.endpoint, opts.region);
  const call = (action: string, params: Record<string, string | undefined>) =>
    sendQuery({ endpoint: ep.url, service: 'iam', region: ep.region, action, version: IDENTITY_API_VERSION, params, credentials: opts.credentials }, opts.transport).then(
      (a) => pick(a.doc, `${action}Response`, `${action}Result`),
    );
  return {
    endpoint: ep.url,
    region: ep.region,
    async getUser(userName) {
      return parseUser(pick(await call('GetUser', { UserName: userName }), 'User'));
    },
    async getRole(roleName) {
      return parseRole(pick(await call('GetRole', { RoleName: roleName }), 'Role'));
    },
    async getInstanceProfile(name) {
      const p = pick(await call('GetInstanceProfile', { InstanceProfileName: name }), 'InstanceProfile');
      return {
        arn: text(p, 'Arn') ?? '',
        instanceProfileId: text(p, 'InstanceProfileId') ?? '',
        instanceProfileName: text(p, 'InstanceProfileName') ?? '',
        path: text(p, 'Path') ?? '/',
        createDate: text(p, 'CreateDate'),
        roles: list(p, 'Roles', 'member').map(parseRole),
      };
    },
    async listAccessKeys(userName) {
      const out: CloudAccessKeyMetadata[] = [];
      let marker: string | undefined;
      do {
        const r = await call('ListAccessKeys', { UserName: userName, Marker: marker });
        out.push(...list(r, 'AccessKeyMetadata', 'member').map(parseKeyMetadata));
        marker = text(r, 'IsTruncated') === 'true' ? text(r, 'Marker') : undefined;
      } while (marker);
      return out;
    },
    async createAccessKey(userName) {
      const k = pick(await call('CreateAccessKey', { UserName: userName }), 'AccessKey');
      return { ...parseKeyMetadata(k), secretAccessKey: text(k, 'SecretAccessKey') ?? '' };
    },
    async deleteAccessKey(accessKeyId, userName) {
      await call('DeleteAccessKey', { AccessKeyId: accessKeyId, UserName: userName });
    },
  };
}

function parseUser(u: XmlValue | undefined): CloudUser {
  return {
    arn: text(u, 'Arn') ?? '',
    userId: text(u, 'UserId') ?? '',
    userName: text(u, 'UserName') ?? '',
    path: text(u, 'Path') ?? '/',
    createDate: text(u, 'CreateDate'),
  };
}

function parseRole(r: XmlValue | undefined): CloudRole {
  const policy = text(r, 'AssumeRolePolicyDocument');
  let decoded = policy;
  try {
    decoded = policy === undefined ? undefined : decodeURIComponent(policy);
  } catch {
    // Not percent-encoded after all (some compatible providers send it raw); keep it as is.
  }
  return {
    arn: text(r, 'Arn') ?? '',
    roleId: text(r, 'RoleId') ?? '',
    roleName: text(r, 'RoleName') ?? '',
    path: text(r, 'Path') ?? '/',
    createDate: text(r, 'CreateDate'),
    assumeRolePolicyDocument: decoded,
  };
}

function parseKeyMetadata(k: XmlValue | undefined): CloudAccessKeyMetadata {
  return { accessKeyId: text(k, 'AccessKeyId') ?? '', userName: text(k, 'UserName'), status: text(k, 'Status'), createDate: text(k, 'CreateDate') };
}
