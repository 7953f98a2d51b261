import { describe, expect, it } from 'vitest';
import { canonicalArn, parseArn, partitionRegion } from '../../../../../src/secrets/auth/cloud/login/arn.js';

describe('principal ARNs', () => {
  it('parses users and roles with and without paths, and drops the path in the canonical form', () => {
    const user = parseArn('arn:aws:iam::123456789012:user/division/team/alice');
    expect(user).toMatchObject({ partition: 'aws', service: 'iam', accountId: '123456789012', type: 'user', path: 'division/team', friendlyName: 'alice' });
    expect(canonicalArn(user)).toBe('arn:aws:iam::123456789012:user/alice');
    expect(canonicalArn(parseArn('arn:aws-us-gov:iam::123456789012:role/deploy'))).toBe('arn:aws-us-gov:iam::123456789012:role/deploy');
  });

  it('maps an assumed role to its role, keeping the session name apart', () => {
    const p = parseArn('arn:aws:sts::123456789012:assumed-role/web/i-0123456789abcdef0');
    expect(p).toMatchObject({ type: 'assumed-role', friendlyName: 'web', sessionName: 'i-0123456789abcdef0', path: '' });
    expect(canonicalArn(p)).toBe('arn:aws:iam::123456789012:role/web');
  });

  it('refuses malformed ARNs with the reason', () => {
    expect(() => parseArn('arn:aws:iam::123456789012')).toThrow(/contains 5 colon-separated parts, expected 6/);
    expect(() => parseArn('urn:aws:iam::123456789012:user/a')).toThrow(/does not begin with "arn:"/);
    expect(() => parseArn('arn:aws:s3::123456789012:user/a')).toThrow(/unrecognized service: s3/);
    expect(() => parseArn('arn:aws:iam::123456789012:group/a')).toThrow(/unrecognized principal type: "group"/);
    expect(() => parseArn('arn:aws:sts::123456789012:assumed-role/web')).toThrow(/no session name/);
    expect(() => parseArn('arn:aws:iam::123456789012:user')).toThrow(/no type and name/);
  });

  it('sends IAM calls to the partition region', () => {
    expect(partitionRegion('aws')).toBe('us-east-1');
    expect(partitionRegion('aws-us-gov')).toBe('us-gov-west-1');
    expect(partitionRegion('aws-cn')).toBe('cn-north-1');
  });
});
