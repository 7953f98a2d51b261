/**
 * ec2 logins, the instance and the role: which role (given, or named like the image ID), the role's
 * auth type and CIDRs, the instance running, and every ec2 bound — any value of a list matches, a
 * trailing "*" matches a prefix for the profile and role ARNs — each failure naming the bound — and an
 * instance in another account described through that account's config/sts role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimInstance } from '../../../../../src/cloudsim/index.js';
import { startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
let inst: SimInstance;
let pkcs7: string;
const ACCOUNT = '123456789012';

beforeAll(async () => {
  w = await startLoginWorld({ sim: { account: ACCOUNT } });
  w.sim.addRole({ name: 'web-node', path: '/fleet/' });
  w.sim.addInstanceProfile({ name: 'web-profile', roleName: 'web-node', path: '/fleet/' });
  inst = w.sim.addInstance({ imageId: 'ami-0123456789abcdef0', vpcId: 'vpc-111', subnetId: 'subnet-222', instanceProfile: 'web-profile' });
  pkcs7 = (await w.documents(inst.instanceId)).rsa2048;
});
afterAll(async () => w?.close());

let roles = 0;
/** A fresh role per case, with disallow_reauthentication so that the instance can log in again after its entry is cleared. */
async function roleWith(bounds: Record<string, unknown>): Promise<string> {
  const name = `r${++roles}`;
  await w.writeRole(name, { auth_type: 'ec2', disallow_reauthentication: true, ...bounds });
  await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${inst.instanceId}`);
  return name;
}

describe('the role', () => {
  it('without a role in the body, the role named like the image ID is used', async () => {
    await w.writeRole(inst.imageId, { auth_type: 'ec2', bound_ami_id: inst.imageId, disallow_reauthentication: true });
    const answer = await w.login({ pkcs7 });
    expect(answer.auth.metadata?.role).toBe(inst.imageId);
    await w.srv.client().secrets('DELETE', `auth/cloud/role/${inst.imageId}`);
    await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${inst.instanceId}`);
    const { status, message } = await w.loginError({ pkcs7 });
    expect(status).toBe(400);
    expect(message).toContain(`entry for role "${inst.imageId}" not found`);
    expect(message).toContain('image ID');
  });

  it('an unknown role is a 400 naming it', async () => {
    expect(await w.loginError({ role: 'nope', pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('entry for role "nope" not found') });
  });

  it('role names are case-insensitive; the metadata keeps the name as sent', async () => {
    const name = await roleWith({ bound_account_id: ACCOUNT });
    const answer = await w.login({ role: name.toUpperCase(), pkcs7 });
    expect(answer.auth.metadata?.role).toBe(name.toUpperCase());
  });

  it('an iam role refuses ec2 logins', async () => {
    w.sim.addUser({ name: 'someone' });
    await w.writeRole('iam-only', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/someone` });
    expect(await w.loginError({ role: 'iam-only', pkcs7 })).toEqual({ status: 400, message: expect.stringContaining('auth method ec2 not allowed for role iam-only') });
  });

  it('token_bound_cidrs: a login from outside is a 403, from inside it succeeds', async () => {
    const outside = await roleWith({ bound_account_id: ACCOUNT, token_bound_cidrs: '10.0.0.0/8' });
    expect(await w.loginError({ role: outside, pkcs7 })).toMatchObject({ status: 403 });
    const inside = await roleWith({ bound_account_id: ACCOUNT, token_bound_cidrs: '127.0.0.0/8' });
    await w.login({ role: inside, pkcs7 });
  });
});

describe('the instance', () => {
  it('must be running; the message says its state', async () => {
    const name = await roleWith({ bound_account_id: ACCOUNT });
    w.sim.setInstanceState(inst.instanceId, 'stopped');
    try {
      const { status, message } = await w.loginError({ role: name, pkcs7 });
      expect(status).toBe(400);
      expect(message).toContain("failed to verify instance ID: instance is not in 'running' state");
      expect(message).toContain('stopped');
    } finally {
      w.sim.setInstanceState(inst.instanceId, 'running');
    }
  });

  it('a provider failure is reported as such', async () => {
    const name = await roleWith({ bound_account_id: ACCOUNT });
    w.sim.failNext('DescribeInstances', { status: 403, code: 'UnauthorizedOperation', message: 'You are not authorized to perform this operation.' });
    const { status, message } = await w.loginError({ role: name, pkcs7 });
    expect(status).toBe(400);
    expect(message).toContain(`error fetching description for instance ID "${inst.instanceId}"`);
    expect(message).toContain('not authorized');
  });

  it('DescribeInstances is asked in the document region and with the instance ID', async () => {
    const name = await roleWith({ bound_account_id: ACCOUNT });
    const from = w.sim.requests.length;
    await w.login({ role: name, pkcs7 });
    const call = w.sim.requests.slice(from).find((r) => r.action === 'DescribeInstances');
    expect(call).toMatchObject({ region: 'us-east-1', params: { 'InstanceId.1': inst.instanceId } });
  });
});

describe('bounds', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
    ['bound_ec2_instance_id', { bound_ec2_instance_id: ['i-other', 'INSTANCE'] }, { bound_ec2_instance_id: 'i-other' }, 'does not belong to the role'],
    ['bound_account_id', { bound_account_id: ['111111111111', ACCOUNT] }, { bound_account_id: '111111111111' }, `account ID "${ACCOUNT}" does not belong to role`],
    ['bound_ami_id', { bound_ami_id: ['ami-x', 'ami-0123456789abcdef0'] }, { bound_ami_id: 'ami-x' }, 'AMI ID "ami-0123456789abcdef0" does not belong to role'],
    ['bound_subnet_id', { bound_subnet_id: ['subnet-x', 'subnet-222'] }, { bound_subnet_id: 'subnet-x' }, 'subnet ID "subnet-222" does not satisfy the constraint'],
    ['bound_vpc_id', { bound_vpc_id: ['vpc-x', 'vpc-111'] }, { bound_vpc_id: 'vpc-x' }, 'VPC ID "vpc-111" does not satisfy the constraint'],
    ['bound_region', { bound_region: ['eu-west-1', 'us-east-1'] }, { bound_region: 'eu-west-1' }, 'Region "us-east-1" does not satisfy the constraint'],
    [
      'bound_iam_instance_profile_arn',
      { bound_iam_instance_profile_arn: [`arn:aws:iam::${ACCOUNT}:instance-profile/other`, `arn:aws:iam::${ACCOUNT}:instance-profile/fleet/web-profile`] },
      { bound_iam_instance_profile_arn: `arn:aws:iam::${ACCOUNT}:instance-profile/web-profile` },
      'IAM instance profile ARN',
    ],
    [
      'bound_iam_role_arn',
      { bound_iam_role_arn: [`arn:aws:iam::${ACCOUNT}:role/other`, `arn:aws:iam::${ACCOUNT}:role/fleet/web-node`] },
      { bound_iam_role_arn: `arn:aws:iam::${ACCOUNT}:role/web-node` },
      `IAM role ARN "arn:aws:iam::${ACCOUNT}:role/fleet/web-node" does not satisfy`,
    ],
  ];

  for (const [field, pass, fail, words] of cases) {
    it(`${field}: one matching value of the list admits, none refuses`, async () => {
      const admit = Object.fromEntries(Object.entries(pass).map(([k, v]) => [k, (v as string[]).map((x) => (x === 'INSTANCE' ? inst.instanceId : x))]));
      await w.login({ role: await roleWith(admit), pkcs7 });
      const { status, message } = await w.loginError({ role: await roleWith(fail), pkcs7 });
      expect(status).toBe(400);
      expect(message).toContain(words);
      expect(message).toMatch(field === 'bound_region' ? /^Region/ : /^Error validating instance: /);
    });
  }

  it('a trailing "*" matches a prefix of the profile and role ARNs; elsewhere it is literal', async () => {
    await w.login({ role: await roleWith({ bound_iam_instance_profile_arn: `arn:aws:iam::${ACCOUNT}:instance-profile/fleet/*` }), pkcs7 });
    await w.login({ role: await roleWith({ bound_iam_role_arn: `arn:aws:iam::${ACCOUNT}:role/fleet/web-*` }), pkcs7 });
    const literal = await w.loginError({ role: await roleWith({ bound_iam_role_arn: `arn:aws:iam::${ACCOUNT}:role/*/web-node` }), pkcs7 });
    expect(literal).toMatchObject({ status: 400, message: expect.stringContaining('IAM role ARN') });
  });

  it('bound_iam_role_arn looks the role up with GetInstanceProfile', async () => {
    const from = w.sim.requests.length;
    await w.login({ role: await roleWith({ bound_iam_role_arn: `arn:aws:iam::${ACCOUNT}:role/fleet/web-node` }), pkcs7 });
    expect(w.sim.requests.slice(from).filter((r) => r.action === 'GetInstanceProfile').map((r) => r.params.InstanceProfileName)).toEqual(['web-profile']);
  });

  it('without iam:GetInstanceProfile, a bound_iam_role_arn login fails naming the permission', async () => {
    const name = await roleWith({ bound_iam_role_arn: `arn:aws:iam::${ACCOUNT}:role/fleet/web-node` });
    w.sim.failNext('GetInstanceProfile', { status: 403, code: 'AccessDenied', message: 'not authorized to perform: iam:GetInstanceProfile' });
    const { status, message } = await w.loginError({ role: name, pkcs7 });
    expect(status).toBe(400);
    expect(message).toMatch(/^Error validating instance: error fetching instance profile "web-profile" \(needs iam:GetInstanceProfile\): .*AccessDenied/);
  });

  it('an instance without a profile fails a profile bound with a message saying so', async () => {
    const bare = w.sim.addInstance();
    const doc = (await w.documents(bare.instanceId)).rsa2048;
    const { status, message } = await w.loginError({ role: await roleWith({ bound_iam_instance_profile_arn: `arn:aws:iam::${ACCOUNT}:instance-profile/*` }), pkcs7: doc });
    expect(status).toBe(400);
    expect(message).toContain('has no instance profile');
  });

  it('the first failing bound is the one reported, in the established order', async () => {
    const { message } = await w.loginError({ role: await roleWith({ bound_account_id: '111111111111', bound_ami_id: 'ami-x', bound_vpc_id: 'vpc-x' }), pkcs7 });
    expect(message).toContain('account ID');
  });
});

describe('an instance in another account', () => {
  const SATELLITE = '210987654321';

  it('is described with the credentials of that account: its config/sts role, or refused without one', async () => {
    const satellite = w.sim.addInstance({ accountId: SATELLITE });
    const doc = (await w.documents(satellite.instanceId)).rsa2048;
    await w.writeRole('satellite', { auth_type: 'ec2', bound_account_id: SATELLITE, disallow_reauthentication: true });

    const refused = await w.loginError({ role: 'satellite', pkcs7: doc });
    expect(refused.status).toBe(400);
    expect(refused.message).toContain(`unable to fetch client for account ID "${SATELLITE}"`);

    const reader = w.sim.addRole({ name: 'svc-reader', accountId: SATELLITE });
    await w.srv.client().secrets('POST', `auth/cloud/config/sts/${SATELLITE}`, { body: { sts_role: reader.arn } });
    const from = w.sim.requests.length;
    await w.login({ role: 'satellite', pkcs7: doc });
    const calls = w.sim.requests.slice(from);
    expect(calls.filter((r) => r.action === 'AssumeRole').map((r) => r.params.RoleArn)).toEqual([reader.arn]);
    const describe = calls.find((r) => r.action === 'DescribeInstances');
    // Signed with the assumed role's temporary key (ASIA…), not the root user's (AKIA…).
    expect(describe?.accessKeyId).toMatch(/^ASIA/);
    expect(describe?.status).toBe(200);
  });
});
