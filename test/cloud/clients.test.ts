/** The compute, identity and token-service clients against cloudsim: what they send, how they parse each answer. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeClient } from '../../src/cloud/compute.js';
import { staticCredentials } from '../../src/cloud/credentials.js';
import { computeEndpoint, identityEndpoint, tokenServiceEndpoint } from '../../src/cloud/endpoints.js';
import { identityClient } from '../../src/cloud/identity.js';
import { tokenServiceClient } from '../../src/cloud/token-service.js';
import { startCloudSim, type CloudSim } from '../../src/cloudsim/index.js';

// Leading zero on purpose: values must never be parsed as numbers.
const ACCOUNT = '012345678901';

let sim: CloudSim;
beforeEach(async () => {
  sim = await startCloudSim({ account: ACCOUNT });
});
afterEach(() => sim.close());
const creds = (c: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) =>
  staticCredentials({ accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken });
const root = () => creds(sim.rootCredentials);

describe('compute client', () => {
  it('DescribeInstances: sends the IDs and parses reservations into typed instances', async () => {
    sim.addRole({ name: 'web-role' });
    const profile = sim.addInstanceProfile({ name: 'web-profile', path: '/web/', roleName: 'web-role' });
    const web = sim.addInstance({ region: 'us-east-2', tags: { Name: 'web-1', env: '' }, instanceProfile: 'web-profile', pendingTime: '2024-05-01T12:34:56Z' });
    const stopped = sim.addInstance({ region: 'us-east-2', state: 'stopped' });
    const ec2 = computeClient({ region: 'us-east-2', endpoint: sim.url, credentials: root() });
    const got = await ec2.describeInstances([web.instanceId, stopped.instanceId]);
    expect(sim.requests[0]).toMatchObject({ service: 'ec2', region: 'us-east-2', action: 'DescribeInstances', status: 200 });
    expect(sim.requests[0].params).toMatchObject({ Version: '2016-11-15', 'InstanceId.1': web.instanceId, 'InstanceId.2': stopped.instanceId });
    expect(got).toHaveLength(2);
    expect(got[0]).toEqual({
      instanceId: web.instanceId,
      imageId: web.imageId,
      state: 'running',
      subnetId: web.subnetId,
      vpcId: web.vpcId,
      iamInstanceProfileArn: profile.arn,
      tags: { Name: 'web-1', env: '' },
      launchTime: '2024-05-01T12:34:56.000Z',
      pendingTime: '2024-05-01T12:34:56.000Z',
      privateIpAddress: web.privateIp,
      region: 'us-east-2',
      accountId: ACCOUNT,
    });
    expect(got[1]).toMatchObject({ instanceId: stopped.instanceId, state: 'stopped', tags: {}, iamInstanceProfileArn: undefined });
  });

  it('follows nextToken pages', async () => {
    const ids = [1, 2, 3].map(() => sim.addInstance({ region: 'us-east-2' }).instanceId);
    sim.setPageSize(2);
    const got = await computeClient({ region: 'us-east-2', endpoint: sim.url, credentials: root() }).describeInstances([]);
    expect(sim.requests).toHaveLength(2);
    expect(sim.requests[0].params.NextToken).toBeUndefined();
    expect(sim.requests[1].params.NextToken).toEqual(expect.any(String));
    expect(got.map((i) => i.instanceId)).toEqual(ids);
  });

  it('an empty reservation set is an empty list', async () => {
    sim.addInstance({ region: 'us-east-2' });
    expect(await computeClient({ region: 'us-east-1', endpoint: sim.url, credentials: root() }).describeInstances([])).toEqual([]);
  });
});

describe('identity client', () => {
  const iam = (c = root()) => identityClient({ endpoint: sim.url, credentials: c });

  it('GetUser without a name asks about the caller; signs for iam in us-east-1', async () => {
    const bob = sim.addUser({ name: 'Bob', path: '/division_abc/subdivision_xyz/' });
    const alice = sim.addUser({ name: 'Alice' });
    const user = await iam(creds(bob)).getUser();
    expect(sim.requests[0]).toMatchObject({ service: 'iam', region: 'us-east-1', action: 'GetUser', params: { Action: 'GetUser', Version: '2010-05-08' } });
    expect(sim.requests[0].params.UserName).toBeUndefined();
    expect(user).toEqual({
      arn: `arn:aws:iam::${ACCOUNT}:user/division_abc/subdivision_xyz/Bob`,
      userId: bob.userId,
      userName: 'Bob',
      path: '/division_abc/subdivision_xyz/',
      createDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(await iam(creds(bob)).getUser('Alice')).toMatchObject({ userName: 'Alice', userId: alice.userId, path: '/' });
    expect(sim.requests[1].params.UserName).toBe('Alice');
  });

  it('GetRole decodes the trust policy', async () => {
    const r = sim.addRole({ name: 'S3Access', path: '/application_abc/component_xyz/' });
    const role = await iam().getRole('S3Access');
    expect(sim.requests[0].params.RoleName).toBe('S3Access');
    expect(role).toMatchObject({ arn: r.arn, roleId: r.roleId, roleName: 'S3Access', path: '/application_abc/component_xyz/' });
    expect(JSON.parse(role.assumeRolePolicyDocument ?? '')).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
  });

  it('GetInstanceProfile lists its roles (one-element list is still a list)', async () => {
    const r = sim.addRole({ name: 'S3Access' });
    const prof = sim.addInstanceProfile({ name: 'Webserver', path: '/application_abc/component_xyz/', roleName: 'S3Access' });
    const p = await iam().getInstanceProfile('Webserver');
    expect(sim.requests[0].params.InstanceProfileName).toBe('Webserver');
    expect(p).toMatchObject({ arn: prof.arn, instanceProfileId: prof.id, instanceProfileName: 'Webserver', path: '/application_abc/component_xyz/' });
    expect(p.roles.map((x) => [x.roleName, x.roleId])).toEqual([['S3Access', r.roleId]]);
    // And an empty <Roles/> is an empty list.
    sim.addInstanceProfile({ name: 'Empty' });
    expect((await iam().getInstanceProfile('Empty')).roles).toEqual([]);
  });

  it('ListAccessKeys follows Marker pages', async () => {
    const bob = sim.addUser({ name: 'Bob' });
    const second = await iam().createAccessKey('Bob');
    sim.setPageSize(1);
    const n = sim.requests.length;
    const keys = await iam().listAccessKeys('Bob');
    expect(keys.map((k) => k.accessKeyId)).toEqual([bob.accessKeyId, second.accessKeyId]);
    expect(keys[0]).toMatchObject({ userName: 'Bob', status: 'Active' });
    const pages = sim.requests.slice(n);
    expect(pages).toHaveLength(2);
    expect(pages[0].params.Marker).toBeUndefined();
    expect(pages[1].params).toMatchObject({ UserName: 'Bob', Marker: expect.any(String) });
  });

  it('CreateAccessKey returns a working secret; DeleteAccessKey sends key and user and the key stops working', async () => {
    const bob = sim.addUser({ name: 'Bob' });
    const created = await iam().createAccessKey('Bob');
    expect(created).toMatchObject({ accessKeyId: expect.stringMatching(/^AKIA/), secretAccessKey: expect.any(String), userName: 'Bob', status: 'Active' });
    expect(await iam(creds(created)).getUser()).toMatchObject({ userName: 'Bob' });

    await iam().deleteAccessKey(bob.accessKeyId, 'Bob');
    expect(sim.requests.at(-1)).toMatchObject({ action: 'DeleteAccessKey', status: 200, params: { AccessKeyId: bob.accessKeyId, UserName: 'Bob' } });
    await expect(iam(creds(bob)).getUser()).rejects.toMatchObject({ status: 403, code: 'InvalidClientTokenId' });
  });

  it('GovCloud partition signs for us-gov-west-1 (which the commercial simulator refuses)', async () => {
    const c = identityClient({ endpoint: sim.url, credentials: root(), region: 'us-gov-east-1', transport: { maxRetries: 0 } });
    expect(c.region).toBe('us-gov-west-1');
    await expect(c.getUser()).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
    expect(sim.requests[0]).toMatchObject({ service: 'iam', region: 'us-gov-west-1', action: 'GetUser' });
  });
});

describe('token service client', () => {
  it('GetCallerIdentity', async () => {
    const role = sim.addRole({ name: 'r' });
    const temp = sim.assumeRole(role.arn, 's1');
    const id = await tokenServiceClient({ endpoint: sim.url, credentials: creds(temp) }).getCallerIdentity();
    expect(sim.requests[0]).toMatchObject({ service: 'sts', region: 'us-east-1', action: 'GetCallerIdentity', params: { Version: '2011-06-15' } });
    expect(id).toEqual({ arn: `arn:aws:sts::${ACCOUNT}:assumed-role/r/s1`, userId: `${role.roleId}:s1`, account: ACCOUNT });
  });

  it('AssumeRole sends role, session and duration and returns temporary credentials that work', async () => {
    const role = sim.addRole({ name: 'svc-reader', accountId: '210987654321' });
    const sts = tokenServiceClient({ endpoint: sim.url, region: 'eu-central-1', credentials: root() });
    const before = Date.now();
    const r = await sts.assumeRole(role.arn, 'svc-session', 900);
    expect(sim.requests[0]).toMatchObject({
      service: 'sts',
      region: 'eu-central-1',
      action: 'AssumeRole',
      params: { RoleArn: role.arn, RoleSessionName: 'svc-session', DurationSeconds: '900' },
    });
    expect(r.credentials).toEqual({ accessKeyId: expect.stringMatching(/^ASIA/), secretAccessKey: expect.any(String), sessionToken: expect.any(String), expiration: expect.any(Date) });
    // The provider's Expiration has whole seconds.
    expect(r.credentials.expiration.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 900_000);
    expect(r.credentials.expiration.getTime()).toBeLessThanOrEqual(Date.now() + 900_000);
    expect(r.assumedRoleArn).toBe('arn:aws:sts::210987654321:assumed-role/svc-reader/svc-session');
    expect(r.assumedRoleId).toBe(`${role.roleId}:svc-session`);
    const id = await tokenServiceClient({ endpoint: sim.url, credentials: staticCredentials(r.credentials) }).getCallerIdentity();
    expect(id).toMatchObject({ account: '210987654321', arn: r.assumedRoleArn });
  });
});

describe('endpoints', () => {
  it('defaults follow the provider', () => {
    expect(computeEndpoint('eu-west-1')).toEqual({ url: 'https://ec2.eu-west-1.amazonaws.com', region: 'eu-west-1' });
    expect(computeEndpoint('cn-north-1').url).toBe('https://ec2.cn-north-1.amazonaws.com.cn');
    expect(identityEndpoint()).toEqual({ url: 'https://iam.amazonaws.com', region: 'us-east-1' });
    expect(tokenServiceEndpoint()).toEqual({ url: 'https://sts.amazonaws.com', region: 'us-east-1' });
    expect(tokenServiceEndpoint(undefined, 'ap-northeast-3')).toEqual({ url: 'https://sts.ap-northeast-3.amazonaws.com', region: 'ap-northeast-3' });
  });

  it('overrides keep their URL and sign for the configured region', () => {
    expect(computeEndpoint('us-west-2', 'http://127.0.0.1:9')).toEqual({ url: 'http://127.0.0.1:9', region: 'us-west-2' });
    expect(identityEndpoint('http://127.0.0.1:9')).toEqual({ url: 'http://127.0.0.1:9', region: 'us-east-1' });
    expect(tokenServiceEndpoint('https://sts.us-west-2.amazonaws.com', 'us-west-2')).toEqual({ url: 'https://sts.us-west-2.amazonaws.com', region: 'us-west-2' });
    expect(tokenServiceEndpoint('http://127.0.0.1:9')).toEqual({ url: 'http://127.0.0.1:9', region: 'us-east-1' });
  });

  it('clients expose the endpoint they will call', () => {
    const credentials = staticCredentials({ accessKeyId: 'AKIDUNUSED', secretAccessKey: 'unused' });
    expect(computeClient({ region: 'us-west-2', credentials }).endpoint).toBe('https://ec2.us-west-2.amazonaws.com');
    expect(tokenServiceClient({ credentials, region: 'us-west-2' }).endpoint).toBe('https://sts.us-west-2.amazonaws.com');
  });

  it('an endpoint override is where the calls go, signed for the configured region', async () => {
    const inst = sim.addInstance({ region: 'us-west-2' });
    const ec2 = computeClient({ region: 'us-west-2', endpoint: sim.url, credentials: root() });
    expect(ec2.endpoint).toBe(sim.url);
    expect((await ec2.describeInstances([inst.instanceId]))[0].instanceId).toBe(inst.instanceId);
    await tokenServiceClient({ endpoint: sim.url, region: 'us-west-2', credentials: root() }).getCallerIdentity();
    expect(sim.requests.map((r) => `${r.service}:${r.region}:${r.host}`)).toEqual([`ec2:us-west-2:${new URL(sim.url).host}`, `sts:us-west-2:${new URL(sim.url).host}`]);
  });
});
