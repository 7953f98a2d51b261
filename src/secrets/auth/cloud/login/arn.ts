/**
 * Principal ARNs as the token service reports them, and their canonical form. The token service never
 * reports a role's path (an assumed role appears as `assumed-role/<name>/<session>`), so the canonical
 * ARN drops paths: `arn:<partition>:iam::<account>:<user|role|instance-profile>/<name>`.
 */
import { UserError } from '../../../../shared/errors.js';

export interface PrincipalArn {
  partition: string;
  service: 'iam' | 'sts';
  accountId: string;
  /** user, role, instance-profile or assumed-role */
  type: string;
  /** the path between the type and the name, '' for none or for assumed roles */
  path: string;
  /** user, role or profile name (for assumed roles: the role's name) */
  friendlyName: string;
  /** assumed roles only: the session name (an instance ID for instance-profile sessions) */
  sessionName: string;
}

const TYPES = new Set(['user', 'role', 'instance-profile', 'assumed-role']);

export function parseArn(arn: string): PrincipalArn {
  const fail = (why: string) => new UserError(`error parsing arn "${arn}": ${why}`);
  const parts = arn.split(':');
  if (parts.length !== 6) throw fail(`unrecognized arn: contains ${parts.length} colon-separated parts, expected 6`);
  const [prefix, partition, service, , accountId, resource] = parts;
  if (prefix !== 'arn') throw fail('unrecognized arn: does not begin with "arn:"');
  if (service !== 'iam' && service !== 'sts') throw fail(`unrecognized service: ${service}, not one of iam or sts`);
  const pieces = resource.split('/');
  if (pieces.length < 2) throw fail('unrecognized resource: it has no type and name');
  const type = pieces[0];
  if (!TYPES.has(type)) throw fail(`unrecognized principal type: "${type}"`);
  if (type === 'assumed-role') {
    if (pieces.length < 3) throw fail('assumed-role ARN has no session name');
    return { partition, service, accountId, type, path: '', friendlyName: pieces[1], sessionName: pieces.slice(2).join('/') };
  }
  return { partition, service, accountId, type, path: pieces.slice(1, -1).join('/'), friendlyName: pieces[pieces.length - 1], sessionName: '' };
}

export function canonicalArn(p: PrincipalArn): string {
  const type = p.type === 'assumed-role' ? 'role' : p.type;
  return `arn:${p.partition}:iam::${p.accountId}:${type}/${p.friendlyName}`;
}

/** IAM calls go to one region per partition. */
export function partitionRegion(partition: string): string {
  if (partition === 'aws-us-gov') return 'us-gov-west-1';
  if (partition === 'aws-cn') return 'cn-north-1';
  return 'us-east-1';
}
