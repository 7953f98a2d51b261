import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../src/cloudsim/index.js';
import { call, raw, rootCreds, type Creds } from './helpers.js';

let sim: CloudSim;
beforeAll(async () => {
  sim = await startCloudSim();
});
afterAll(async () => {
  await sim.close();
});

const GCI = { Action: 'GetCallerIdentity' };

describe('Signature V4 verification', () => {
  it('answers a correctly signed request with the caller identity', async () => {
    const a = await call(sim, 'sts', GCI, rootCreds(sim));
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('text/xml');
    expect(a.text.startsWith('<GetCallerIdentityResponse')).toBe(true);
    const r = a.xml.GetCallerIdentityResponse.GetCallerIdentityResult;
    expect(r.Arn).toBe(`arn:aws:iam::${sim.account}:user/svc-root`);
    expect(r.UserId).toBe(sim.rootCredentials.userId);
    expect(r.UserId).toMatch(/^AIDA[A-Z0-9]{17}$/);
    expect(r.Account).toBe(sim.account);
    expect(sim.account).toMatch(/^\d{12}$/);
  });

  it('rejects a wrong secret with SignatureDoesNotMatch (403, ErrorResponse format)', async () => {
    const a = await call(sim, 'sts', GCI, { ...rootCreds(sim), secretAccessKey: 'x'.repeat(40) });
    expect(a.status).toBe(403);
    const e = a.xml.ErrorResponse;
    expect(e.Error.Type).toBe('Sender');
    expect(e.Error.Code).toBe('SignatureDoesNotMatch');
    expect(e.RequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects an unknown access key with InvalidClientTokenId', async () => {
    const a = await call(sim, 'sts', GCI, { accessKeyId: 'AKIAUNKNOWNUNKNOWN12', secretAccessKey: 'x' });
    expect(a.status).toBe(403);
    expect(a.xml.ErrorResponse.Error.Code).toBe('InvalidClientTokenId');
  });

  it('rejects a request signed more than 15 minutes off, accepts one 10 minutes off', async () => {
    const past = await call(sim, 'sts', GCI, rootCreds(sim), { date: new Date(Date.now() - 20 * 60_000) });
    expect(past.status).toBe(403);
    expect(past.xml.ErrorResponse.Error.Code).toBe('SignatureDoesNotMatch');
    expect(past.xml.ErrorResponse.Error.Message).toMatch(/^Signature expired/);
    const future = await call(sim, 'sts', GCI, rootCreds(sim), { date: new Date(Date.now() + 20 * 60_000) });
    expect(future.xml.ErrorResponse.Error.Message).toMatch(/^Signature not yet current/);
    const ok = await call(sim, 'sts', GCI, rootCreds(sim), { date: new Date(Date.now() - 10 * 60_000) });
    expect(ok.status).toBe(200);
  });

  it('rejects a tampered body', async () => {
    const a = await call(sim, 'sts', GCI, rootCreds(sim), { sendBody: 'Action=GetCallerIdentity&Version=2011-06-16' });
    expect(a.status).toBe(403);
    expect(a.xml.ErrorResponse.Error.Code).toBe('SignatureDoesNotMatch');
  });

  it('rejects a tampered signed header', async () => {
    const creds = rootCreds(sim);
    const a = await call(sim, 'sts', GCI, creds, { headers: { 'X-Svc-Cloud-IAM-Server-ID': 'vault.example.com' } });
    expect(a.status).toBe(200);
    // same request, header value changed after signing
    const { default: aws4 } = await import('aws4');
    const u = new URL(sim.url);
    const body = 'Action=GetCallerIdentity&Version=2011-06-15';
    const o = aws4.sign({ host: u.host, path: '/', method: 'POST', service: 'sts', region: 'us-east-1', body, headers: { 'X-Svc-Cloud-IAM-Server-ID': 'a' } }, creds);
    const h = { ...(o.headers as Record<string, string>), 'X-Svc-Cloud-IAM-Server-ID': 'b' };
    const b = await raw(sim, { method: 'POST', path: '/', headers: h, body });
    expect(b.xml.ErrorResponse.Error.Code).toBe('SignatureDoesNotMatch');
  });

  it('accepts regional STS scopes, rejects non-us-east-1 IAM scopes and invalid regions', async () => {
    expect((await call(sim, 'sts', GCI, rootCreds(sim), { region: 'us-west-2' })).status).toBe(200);
    expect((await call(sim, 'sts', GCI, rootCreds(sim), { region: 'ap-northeast-3' })).status).toBe(200);
    const bad = await call(sim, 'sts', GCI, rootCreds(sim), { region: 'moon-base-1' });
    expect(bad.xml.ErrorResponse.Error.Message).toMatch(/scoped to a valid region/);
    const iam = await call(sim, 'iam', { Action: 'GetUser' }, rootCreds(sim), { region: 'eu-west-1' });
    expect(iam.status).toBe(403);
    expect(iam.xml.ErrorResponse.Error.Code).toBe('SignatureDoesNotMatch');
  });

  it('tolerates a forwarded `//` path that was signed as `/`', async () => {
    const a = await call(sim, 'sts', GCI, rootCreds(sim), { sendPath: '//' });
    expect(a.status).toBe(200);
  });

  it('verifies presigned GET requests (query authentication)', async () => {
    const a = await call(sim, 'sts', GCI, rootCreds(sim), { presign: true });
    expect(a.status).toBe(200);
    expect(a.xml.GetCallerIdentityResponse.GetCallerIdentityResult.Account).toBe(sim.account);
    const h = await call(sim, 'sts', GCI, rootCreds(sim), { method: 'GET' });
    expect(h.status).toBe(200);
  });

  it('rejects unsigned requests', async () => {
    const a = await raw(sim, { method: 'POST', path: '/', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'Action=GetCallerIdentity&Version=2011-06-15' });
    expect(a.status).toBe(403);
    expect(a.xml.ErrorResponse.Error.Code).toBe('MissingAuthenticationToken');
  });

  it('uses the EC2 error format and codes for EC2 authentication failures', async () => {
    const a = await call(sim, 'ec2', { Action: 'DescribeInstances' }, { accessKeyId: 'AKIAUNKNOWNUNKNOWN12', secretAccessKey: 'x' });
    expect(a.status).toBe(401);
    expect(a.xml.Response.Errors.Error.Code).toBe('AuthFailure');
    expect(a.xml.Response.RequestID).toBeTruthy();
    const b = await call(sim, 'ec2', { Action: 'DescribeInstances' }, { ...rootCreds(sim), secretAccessKey: 'y'.repeat(40) });
    expect(b.status).toBe(403);
    expect(b.xml.Response.Errors.Error.Code).toBe('SignatureDoesNotMatch');
  });
});

describe('STS AssumeRole and temporary credentials', () => {
  let role: ReturnType<CloudSim['addRole']>;
  let temp: Creds;
  beforeAll(async () => {
    role = sim.addRole({ name: 'deployer', path: '/ops/' });
    const a = await call(sim, 'sts', { Action: 'AssumeRole', RoleArn: role.arn, RoleSessionName: 'sess-1', DurationSeconds: '900' }, rootCreds(sim));
    expect(a.status).toBe(200);
    const r = a.xml.AssumeRoleResponse.AssumeRoleResult;
    expect(r.Credentials.AccessKeyId).toMatch(/^ASIA[A-Z0-9]{16}$/);
    expect(r.AssumedRoleUser.Arn).toBe(`arn:aws:sts::${sim.account}:assumed-role/deployer/sess-1`);
    expect(r.AssumedRoleUser.AssumedRoleId).toBe(`${role.roleId}:sess-1`);
    const exp = Date.parse(r.Credentials.Expiration);
    expect(Math.abs(exp - Date.now() - 900_000)).toBeLessThan(5000);
    temp = { accessKeyId: r.Credentials.AccessKeyId, secretAccessKey: r.Credentials.SecretAccessKey, sessionToken: r.Credentials.SessionToken };
  });

  it('issues credentials that work with their session token', async () => {
    const a = await call(sim, 'sts', GCI, temp);
    expect(a.status).toBe(200);
    const r = a.xml.GetCallerIdentityResponse.GetCallerIdentityResult;
    expect(r.Arn).toBe(`arn:aws:sts::${sim.account}:assumed-role/deployer/sess-1`);
    expect(r.UserId).toBe(`${role.roleId}:sess-1`);
    expect(role.roleId).toMatch(/^AROA[A-Z0-9]{17}$/);
  });

  it('requires the matching session token', async () => {
    const none = await call(sim, 'sts', GCI, temp, { dropToken: true });
    expect(none.status).toBe(403);
    expect(none.xml.ErrorResponse.Error.Code).toBe('InvalidClientTokenId');
    const wrong = await call(sim, 'sts', GCI, { ...temp, sessionToken: 'forged' });
    expect(wrong.xml.ErrorResponse.Error.Code).toBe('InvalidClientTokenId');
    const onPermanent = await call(sim, 'sts', GCI, { ...rootCreds(sim), sessionToken: temp.sessionToken });
    expect(onPermanent.xml.ErrorResponse.Error.Code).toBe('InvalidClientTokenId');
  });

  it('denies unknown roles and validates parameters', async () => {
    const a = await call(sim, 'sts', { Action: 'AssumeRole', RoleArn: `arn:aws:iam::${sim.account}:role/nope`, RoleSessionName: 's1' }, rootCreds(sim));
    expect(a.status).toBe(403);
    expect(a.xml.ErrorResponse.Error.Code).toBe('AccessDenied');
    const b = await call(sim, 'sts', { Action: 'AssumeRole', RoleArn: role.arn }, rootCreds(sim));
    expect(b.status).toBe(400);
    expect(b.xml.ErrorResponse.Error.Code).toBe('ValidationError');
    const c = await call(sim, 'sts', { Action: 'AssumeRole', RoleArn: role.arn, RoleSessionName: 's1', DurationSeconds: '7200' }, rootCreds(sim));
    expect(c.xml.ErrorResponse.Error.Code).toBe('ValidationError');
  });

  it('expires credentials (ExpiredToken)', async () => {
    const s = sim.assumeRole(role.arn, 'short', 900);
    const creds = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, sessionToken: s.sessionToken };
    expect((await call(sim, 'sts', GCI, creds)).status).toBe(200);
    sim.advanceClock(901_000);
    try {
      const a = await call(sim, 'sts', GCI, creds, { date: sim.now() });
      expect(a.xml.ErrorResponse.Error.Code).toBe('ExpiredToken');
    } finally {
      sim.advanceClock(-901_000);
    }
  });

  it('gives cross-account sessions the other account', async () => {
    const other = sim.addRole({ name: 'xacct', accountId: '210987654321' });
    const a = await call(sim, 'sts', { Action: 'AssumeRole', RoleArn: other.arn, RoleSessionName: 'svc' }, rootCreds(sim));
    const c = a.xml.AssumeRoleResponse.AssumeRoleResult.Credentials;
    const who = await call(sim, 'sts', GCI, { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken });
    expect(who.xml.GetCallerIdentityResponse.GetCallerIdentityResult.Account).toBe('210987654321');
  });
});

describe('IAM', () => {
  it('GetUser for the caller and by name (with path); NoSuchEntity', async () => {
    const me = await call(sim, 'iam', { Action: 'GetUser' }, rootCreds(sim));
    expect(me.status).toBe(200);
    const u = me.xml.GetUserResponse.GetUserResult.User;
    expect(u.UserName).toBe('svc-root');
    expect(u.Path).toBe('/');
    expect(u.Arn).toBe(sim.rootCredentials.arn);
    expect(Number.isNaN(Date.parse(u.CreateDate))).toBe(false);
    const alice = sim.addUser({ name: 'alice', path: '/team/a/' });
    expect(alice.arn).toBe(`arn:aws:iam::${sim.account}:user/team/a/alice`);
    const byName = await call(sim, 'iam', { Action: 'GetUser', UserName: 'alice' }, rootCreds(sim));
    expect(byName.xml.GetUserResponse.GetUserResult.User).toMatchObject({ UserName: 'alice', Path: '/team/a/', UserId: alice.userId, Arn: alice.arn });
    const missing = await call(sim, 'iam', { Action: 'GetUser', UserName: 'bob' }, rootCreds(sim));
    expect(missing.status).toBe(404);
    expect(missing.xml.ErrorResponse.Error.Code).toBe('NoSuchEntity');
  });

  it('GetUser without UserName from role credentials is a ValidationError', async () => {
    const r = sim.addRole({ name: 'gu-role' });
    const s = sim.assumeRole(r.arn, 'x1');
    const a = await call(sim, 'iam', { Action: 'GetUser' }, s);
    expect(a.status).toBe(400);
    expect(a.xml.ErrorResponse.Error.Code).toBe('ValidationError');
  });

  it('GetRole and GetInstanceProfile with its roles', async () => {
    const role = sim.addRole({ name: 'web', path: '/app/' });
    const prof = sim.addInstanceProfile({ name: 'web-profile', roleName: 'web' });
    expect(prof.id).toMatch(/^AIPA[A-Z0-9]{17}$/);
    expect(prof.arn).toBe(`arn:aws:iam::${sim.account}:instance-profile/web-profile`);
    const gr = await call(sim, 'iam', { Action: 'GetRole', RoleName: 'web' }, rootCreds(sim));
    expect(gr.xml.GetRoleResponse.GetRoleResult.Role).toMatchObject({ RoleName: 'web', Path: '/app/', RoleId: role.roleId, Arn: `arn:aws:iam::${sim.account}:role/app/web` });
    const gp = await call(sim, 'iam', { Action: 'GetInstanceProfile', InstanceProfileName: 'web-profile' }, rootCreds(sim));
    const p = gp.xml.GetInstanceProfileResponse.GetInstanceProfileResult.InstanceProfile;
    expect(p).toMatchObject({ InstanceProfileName: 'web-profile', InstanceProfileId: prof.id, Arn: prof.arn, Path: '/' });
    expect(p.Roles.member).toHaveLength(1);
    expect(p.Roles.member[0]).toMatchObject({ RoleName: 'web', Arn: role.arn, RoleId: role.roleId });
    const nr = await call(sim, 'iam', { Action: 'GetRole', RoleName: 'nope' }, rootCreds(sim));
    expect(nr.xml.ErrorResponse.Error.Code).toBe('NoSuchEntity');
    const np = await call(sim, 'iam', { Action: 'GetInstanceProfile', InstanceProfileName: 'nope' }, rootCreds(sim));
    expect(np.xml.ErrorResponse.Error.Code).toBe('NoSuchEntity');
  });

  it('rotates a user key: CreateAccessKey, ListAccessKeys, DeleteAccessKey, limit of two', async () => {
    const u = sim.addUser({ name: 'rotator' });
    const old: Creds = { accessKeyId: u.accessKeyId, secretAccessKey: u.secretAccessKey };
    const created = await call(sim, 'iam', { Action: 'CreateAccessKey' }, old);
    expect(created.status).toBe(200);
    const k = created.xml.CreateAccessKeyResponse.CreateAccessKeyResult.AccessKey;
    expect(k.UserName).toBe('rotator');
    expect(k.AccessKeyId).toMatch(/^AKIA[A-Z0-9]{16}$/);
    expect(k.SecretAccessKey).toHaveLength(40);
    const fresh: Creds = { accessKeyId: k.AccessKeyId, secretAccessKey: k.SecretAccessKey };
    const list = await call(sim, 'iam', { Action: 'ListAccessKeys' }, fresh);
    const ids = list.xml.ListAccessKeysResponse.ListAccessKeysResult.AccessKeyMetadata.member.map((m: { AccessKeyId: string }) => m.AccessKeyId);
    expect(ids.sort()).toEqual([old.accessKeyId, fresh.accessKeyId].sort());
    const third = await call(sim, 'iam', { Action: 'CreateAccessKey', UserName: 'rotator' }, rootCreds(sim));
    expect(third.status).toBe(409);
    expect(third.xml.ErrorResponse.Error.Code).toBe('LimitExceeded');
    const del = await call(sim, 'iam', { Action: 'DeleteAccessKey', AccessKeyId: old.accessKeyId }, fresh);
    expect(del.status).toBe(200);
    expect(del.xml.DeleteAccessKeyResponse.ResponseMetadata.RequestId).toBeTruthy();
    const gone = await call(sim, 'sts', GCI, old);
    expect(gone.xml.ErrorResponse.Error.Code).toBe('InvalidClientTokenId');
    expect((await call(sim, 'sts', GCI, fresh)).status).toBe(200);
    const again = await call(sim, 'iam', { Action: 'DeleteAccessKey', AccessKeyId: old.accessKeyId }, fresh);
    expect(again.xml.ErrorResponse.Error.Code).toBe('NoSuchEntity');
  });

  it('rejects unknown actions', async () => {
    const a = await call(sim, 'iam', { Action: 'DeleteUser', UserName: 'x' }, rootCreds(sim));
    expect(a.status).toBe(400);
    expect(a.xml.ErrorResponse.Error.Code).toBe('InvalidAction');
  });
});

describe('EC2 DescribeInstances', () => {
  it('describes an instance with all fields the login flow reads', async () => {
    sim.addRole({ name: 'ec2-role' });
    const prof = sim.addInstanceProfile({ name: 'ec2-prof', roleName: 'ec2-role' });
    const inst = sim.addInstance({ imageId: 'ami-0123456789abcdef0', tags: { Name: 'web-1', team: 'a' }, vpcId: 'vpc-1', subnetId: 'subnet-1', instanceProfile: 'ec2-prof', pendingTime: '2024-05-06T07:08:09Z' });
    const a = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': inst.instanceId }, rootCreds(sim));
    expect(a.status).toBe(200);
    expect(a.text.startsWith('<?xml')).toBe(true);
    const res = a.xml.DescribeInstancesResponse;
    expect(res.reservationSet.item).toHaveLength(1);
    const i = res.reservationSet.item[0].instancesSet.item[0];
    expect(i.instanceId).toBe(inst.instanceId);
    expect(i.imageId).toBe('ami-0123456789abcdef0');
    expect(i.instanceState).toEqual({ code: '16', name: 'running' });
    expect(i.subnetId).toBe('subnet-1');
    expect(i.vpcId).toBe('vpc-1');
    expect(i.iamInstanceProfile).toEqual({ arn: prof.arn, id: prof.id });
    expect(i.placement.availabilityZone).toBe('us-east-1a');
    expect(i.launchTime).toBe('2024-05-06T07:08:09.000Z');
    expect(i.privateDnsName).toMatch(/^ip-10-/);
    expect(i.tagSet.item).toEqual(expect.arrayContaining([{ key: 'Name', value: 'web-1' }, { key: 'team', value: 'a' }]));

    sim.setInstanceState(inst.instanceId, 'stopped');
    const b = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': inst.instanceId }, rootCreds(sim));
    expect(b.xml.DescribeInstancesResponse.reservationSet.item[0].instancesSet.item[0].instanceState).toEqual({ code: '80', name: 'stopped' });
  });

  it('InvalidInstanceID.NotFound for unknown, other-region and other-account instances', async () => {
    const unknown = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': 'i-0000000000000000f' }, rootCreds(sim));
    expect(unknown.status).toBe(400);
    expect(unknown.xml.Response.Errors.Error.Code).toBe('InvalidInstanceID.NotFound');
    const west = sim.addInstance({ region: 'us-west-2' });
    const wrongRegion = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': west.instanceId }, rootCreds(sim));
    expect(wrongRegion.xml.Response.Errors.Error.Code).toBe('InvalidInstanceID.NotFound');
    const rightRegion = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': west.instanceId }, rootCreds(sim), { region: 'us-west-2' });
    expect(rightRegion.status).toBe(200);
    const foreign = sim.addInstance({ accountId: '999988887777' });
    const other = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': foreign.instanceId }, rootCreds(sim));
    expect(other.xml.Response.Errors.Error.Code).toBe('InvalidInstanceID.NotFound');
    const malformed = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': 'bogus' }, rootCreds(sim));
    expect(malformed.xml.Response.Errors.Error.Code).toBe('InvalidInstanceID.Malformed');
  });
});

describe('failure injection and request log', () => {
  it('fails the next N calls of an action, then recovers', async () => {
    sim.failNext('GetCallerIdentity', { code: 'Throttling', times: 2 });
    const a = await call(sim, 'sts', GCI, rootCreds(sim));
    expect(a.status).toBe(400);
    expect(a.xml.ErrorResponse.Error.Code).toBe('Throttling');
    // other actions are unaffected
    expect((await call(sim, 'iam', { Action: 'GetUser' }, rootCreds(sim))).status).toBe(200);
    expect((await call(sim, 'sts', GCI, rootCreds(sim))).status).toBe(400);
    expect((await call(sim, 'sts', GCI, rootCreds(sim))).status).toBe(200);
  });

  it('injects EC2 throttling in the EC2 format', async () => {
    sim.failNext('DescribeInstances', { code: 'RequestLimitExceeded' });
    const a = await call(sim, 'ec2', { Action: 'DescribeInstances' }, rootCreds(sim));
    expect(a.status).toBe(503);
    expect(a.xml.Response.Errors.Error.Code).toBe('RequestLimitExceeded');
    sim.failNext('*', { status: 500 });
    const b = await call(sim, 'iam', { Action: 'GetUser' }, rootCreds(sim));
    expect(b.status).toBe(500);
    expect(b.xml.ErrorResponse.Error.Code).toBe('InternalFailure');
    expect(b.xml.ErrorResponse.Error.Type).toBe('Receiver');
  });

  it('logs service, action, key and region of every call', async () => {
    const before = sim.requests.length;
    await call(sim, 'sts', GCI, rootCreds(sim), { region: 'eu-central-1' });
    await call(sim, 'sts', GCI, { accessKeyId: 'AKIAUNKNOWNUNKNOWN12', secretAccessKey: 'x' });
    const log = sim.requests.slice(before);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ service: 'sts', action: 'GetCallerIdentity', accessKeyId: sim.rootCredentials.accessKeyId, region: 'eu-central-1', status: 200 });
    expect(log[1]).toMatchObject({ status: 403, errorCode: 'InvalidClientTokenId' });
  });
});
