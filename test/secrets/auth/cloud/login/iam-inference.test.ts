/**
 * iam logins that infer an ec2 instance (inferred_entity_type ec2_instance): the session of an instance
 * profile's role names the instance, which must run in the role's region and meet its ec2 constraints;
 * and use_sts_region_from_client, which sends the request to the region the client signed for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimInstance, SimRole } from '../../../../../src/cloudsim/index.js';
import { metadataClient } from '../../../../../src/cloud/metadata.js';
import { mountCloud, presignedCallerIdentity, signedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

const ACCOUNT = '123456789012';
const AMI = 'ami-0a1b2c3d4e5f60718';
let w: LoginWorld;
let webRole: SimRole;
let web: SimInstance;

const root = () => w.srv.client();
/** The instance's role credentials as its metadata service hands them out (the session is named after the instance). */
async function instanceCredentials(instanceId: string) {
  w.sim.useInstance(instanceId);
  const c = await metadataClient({ endpoint: w.sim.metadataUrl }).roleCredentials();
  return { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.token };
}
const inferringRole = (extra: Record<string, unknown> = {}) => ({
  auth_type: 'iam',
  inferred_entity_type: 'ec2_instance',
  inferred_cloud_region: 'us-east-1',
  bound_iam_principal_arn: webRole.arn,
  bound_ami_id: AMI,
  ...extra,
});

beforeAll(async () => {
  w = await startLoginWorld({ sim: { account: ACCOUNT } });
  webRole = w.sim.addRole({ name: 'web-instance' });
  w.sim.addInstanceProfile({ name: 'web-profile', roleName: 'web-instance' });
  web = w.sim.addInstance({ imageId: AMI, instanceProfile: 'web-profile' });
  await w.writeRole('web', inferringRole({ token_policies: 'web' }));
  await root().secrets('POST', 'auth/cloud/config/identity', {
    body: { iam_metadata: ['account_id', 'auth_type', 'inferred_entity_id', 'inferred_entity_type', 'inferred_cloud_region'] },
  });
});
afterAll(async () => w?.close());

describe('inferring an ec2 instance', () => {
  it("the instance's own role credentials log in; the metadata names the instance, its type and region", async () => {
    const from = w.sim.requests.length;
    const { auth } = await w.login({ role: 'web', ...signedCallerIdentity(await instanceCredentials(web.instanceId)) });
    expect(auth.policies).toEqual(['default', 'web']);
    expect(auth.metadata).toEqual({
      account_id: ACCOUNT,
      auth_type: 'iam',
      inferred_entity_id: web.instanceId,
      inferred_entity_type: 'ec2_instance',
      inferred_cloud_region: 'us-east-1',
      role_id: (await root().secrets('GET', 'auth/cloud/role/web'))!.data!.role_id,
    });
    // the instance was looked up in the role's region
    const describe = w.sim.requests.slice(from).filter((r) => r.action === 'DescribeInstances');
    expect(describe.map((r) => [r.region, r.params['InstanceId.1'], r.status])).toEqual([['us-east-1', web.instanceId, 200]]);
  });

  it('an instance that is not running: 400 "failed to verify <id> as a valid EC2 instance"', async () => {
    const stopped = w.sim.addInstance({ imageId: AMI, instanceProfile: 'web-profile' });
    const creds = await instanceCredentials(stopped.instanceId);
    w.sim.setInstanceState(stopped.instanceId, 'stopped');
    const r = await w.loginError({ role: 'web', ...signedCallerIdentity(creds) });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(new RegExp(`^failed to verify ${stopped.instanceId} as a valid EC2 instance in region us-east-1: .*running`));
  });

  it('a session that names no instance of the region: 400 "failed to verify"', async () => {
    const elsewhere = w.sim.addInstance({ imageId: AMI, instanceProfile: 'web-profile', region: 'eu-west-1' });
    for (const session of [w.sim.assumeRole(webRole.arn, 'not-an-instance'), w.sim.assumeRole(webRole.arn, elsewhere.instanceId)]) {
      const r = await w.loginError({ role: 'web', ...signedCallerIdentity(session) });
      expect(r.status).toBe(400);
      expect(r.message).toMatch(/^failed to verify \S+ as a valid EC2 instance in region us-east-1/);
    }
  });

  it('an instance with another AMI: 400 "error validating instance" naming the AMI', async () => {
    const other = w.sim.addInstance({ imageId: 'ami-0ffffffffffffffff', instanceProfile: 'web-profile' });
    const r = await w.loginError({ role: 'web', ...signedCallerIdentity(await instanceCredentials(other.instanceId)) });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error validating instance: AMI ID "ami-0ffffffffffffffff" does not belong to role "web"/);
  });

  it("the other ec2 constraints apply too: bound_iam_role_arn through the instance profile's role, bound_vpc_id", async () => {
    await w.writeRole('web-role-arn', inferringRole({ bound_iam_role_arn: `arn:aws:iam::${ACCOUNT}:role/web-*` }));
    const creds = await instanceCredentials(web.instanceId);
    expect((await w.login({ role: 'web-role-arn', ...signedCallerIdentity(creds) })).auth.metadata?.inferred_entity_id).toBe(web.instanceId);
    await w.writeRole('web-vpc', inferringRole({ bound_vpc_id: 'vpc-00000000000000000' }));
    const r = await w.loginError({ role: 'web-vpc', ...signedCallerIdentity(creds) });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error validating instance: VPC ID .* does not satisfy the constraint on role "web-vpc"/);
  });

  it('bound_account_id, bound_subnet_id, bound_ec2_instance_id and bound_iam_instance_profile_arn are checked on the inferred instance', async () => {
    const creds = await instanceCredentials(web.instanceId);
    const profileArn = `arn:aws:iam::${ACCOUNT}:instance-profile/web-profile`;
    const cases: Array<[string, string, string, string]> = [
      ['bound_account_id', ACCOUNT, '111111111111', `account ID "${ACCOUNT}" does not belong to role`],
      ['bound_subnet_id', web.subnetId, 'subnet-other', `subnet ID "${web.subnetId}" does not satisfy the constraint`],
      ['bound_ec2_instance_id', web.instanceId, 'i-other', `instance ID "${web.instanceId}" does not belong to the role`],
      ['bound_iam_instance_profile_arn', profileArn, `arn:aws:iam::${ACCOUNT}:instance-profile/other`, `IAM instance profile ARN "${profileArn}" does not satisfy`],
    ];
    for (const [field, admits, refuses, message] of cases) {
      await w.writeRole(`infer-${field}`, inferringRole({ [field]: ['x-first', admits] }));
      expect((await w.login({ role: `infer-${field}`, ...signedCallerIdentity(creds) })).auth.metadata?.inferred_entity_id, field).toBe(web.instanceId);
      await w.writeRole(`infer-${field}`, { [field]: refuses });
      const r = await w.loginError({ role: `infer-${field}`, ...signedCallerIdentity(creds) });
      expect(r.status, field).toBe(400);
      expect(r.message, field).toMatch(/^error validating instance: /);
      expect(r.message, field).toContain(message);
    }
  });

  it('bound_region is checked against the region the instance is inferred in', async () => {
    const creds = await instanceCredentials(web.instanceId);
    await w.writeRole('infer-region', inferringRole({ bound_region: ['eu-west-1', 'us-east-1'] }));
    expect((await w.login({ role: 'infer-region', ...signedCallerIdentity(creds) })).auth.metadata?.inferred_entity_id).toBe(web.instanceId);
    await w.writeRole('infer-region', { bound_region: 'eu-west-1' });
    const r = await w.loginError({ role: 'infer-region', ...signedCallerIdentity(creds) });
    expect(r.status).toBe(400);
    expect(r.message).toBe('Region "us-east-1" does not satisfy the constraint on role "infer-region"');
  });

  it('a user (not an assumed role) cannot be inferred to be an instance: 400', async () => {
    const user = w.sim.addUser({ name: 'web-admin' });
    await w.writeRole('web-and-user', inferringRole({ bound_iam_principal_arn: [webRole.arn, user.arn] }));
    const r = await w.loginError({ role: 'web-and-user', ...signedCallerIdentity(user) });
    expect(r.status).toBe(400);
    expect(r.message).toContain('assumed-role');
  });

  it('a role with ec2 constraints only (no principal binds) admits any instance session that meets them', async () => {
    await w.writeRole('any-web', { auth_type: 'iam', inferred_entity_type: 'ec2_instance', inferred_cloud_region: 'us-east-1', bound_ami_id: AMI });
    const other = w.sim.addRole({ name: 'other-instance-role' });
    const { auth } = await w.login({ role: 'any-web', ...signedCallerIdentity(w.sim.assumeRole(other.arn, web.instanceId)) });
    expect(auth.metadata?.inferred_entity_id).toBe(web.instanceId);
    // the alias carries the same selected metadata
    const entity = (await root().secrets('GET', `identity/entity/id/${auth.entity_id}`))!.data! as { aliases: Array<{ metadata: Record<string, string> }> };
    expect(entity.aliases[0].metadata).toEqual({
      account_id: ACCOUNT,
      auth_type: 'iam',
      inferred_entity_id: web.instanceId,
      inferred_entity_type: 'ec2_instance',
      inferred_cloud_region: 'us-east-1',
    });
  });

  it('the principal bind is still checked first', async () => {
    const stranger = w.sim.addRole({ name: 'stranger' });
    const session = w.sim.assumeRole(stranger.arn, web.instanceId);
    const r = await w.loginError({ role: 'web', ...signedCallerIdentity(session) });
    expect(r).toEqual({ status: 400, message: `IAM Principal "${session.arn}" does not belong to the role "web"` });
  });
});

describe('use_sts_region_from_client', () => {
  beforeAll(async () => {
    await mountCloud(w.srv, 'regional', w.sim, { use_sts_region_from_client: true });
    await w.writeRole('web', { bound_iam_principal_arn: webRole.arn }, 'regional');
  });

  it('a request signed for eu-west-1 is sent to https://sts.eu-west-1.amazonaws.com, not to sts_endpoint', async () => {
    const from = w.sim.requests.length;
    const session = w.sim.assumeRole(webRole.arn, 'eu-client');
    const r = await w.loginError({ role: 'web', ...signedCallerIdentity(session, { region: 'eu-west-1' }) }, 'regional');
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error making upstream request to https:\/\/sts\.eu-west-1\.amazonaws\.com: /);
    expect(w.sim.requests.slice(from)).toEqual([]);
  });

  it('a request without a region in its Authorization header (presigned GET): 400 "region missing from Authorization header"', async () => {
    const session = w.sim.assumeRole(webRole.arn, 'get-client');
    const r = await w.loginError({ role: 'web', ...presignedCallerIdentity(session) }, 'regional');
    expect(r).toEqual({ status: 400, message: expect.stringMatching(/^region missing from Authorization header/) });
  });

  it('a region with no token service: 400 "unable to get regional STS endpoint"', async () => {
    const session = w.sim.assumeRole(webRole.arn, 'mars-client');
    const r = await w.loginError({ role: 'web', ...signedCallerIdentity(session, { region: 'nowhere' }) }, 'regional');
    expect(r).toEqual({ status: 400, message: expect.stringMatching(/^unable to get regional STS endpoint for region: nowhere/) });
  });

  it('without the setting the same eu-west-1 request goes to sts_endpoint', async () => {
    await w.writeRole('plain', { bound_iam_principal_arn: webRole.arn });
    const from = w.sim.requests.length;
    const session = w.sim.assumeRole(webRole.arn, 'eu-client-2');
    expect((await w.login({ role: 'plain', ...signedCallerIdentity(session, { region: 'eu-west-1' }) })).auth.metadata?.auth_type).toBe('iam');
    expect(w.sim.requests.slice(from).map((r) => [r.action, r.region, r.host])).toEqual([['GetCallerIdentity', 'eu-west-1', 'sts.eu-west-1.amazonaws.com']]);
  });
});
