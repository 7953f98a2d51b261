/** The provider layer against the loopback simulator: real SigV4 checking, real wire formats. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeClient } from '../../src/cloud/compute.js';
import { credentialChain, staticCredentials } from '../../src/cloud/credentials.js';
import { CloudAccountError, CloudApiError } from '../../src/cloud/errors.js';
import { identityClient } from '../../src/cloud/identity.js';
import { metadataClient } from '../../src/cloud/metadata.js';
import { cloudProvider } from '../../src/cloud/provider.js';
import { tokenServiceClient } from '../../src/cloud/token-service.js';
import { startCloudSim, type CloudSim } from '../../src/cloudsim/index.js';

let sim: CloudSim;
beforeAll(async () => {
  sim = await startCloudSim();
});
afterAll(() => sim?.close());

const noSleep = { sleep: async () => {} };
const root = () => staticCredentials({ accessKeyId: sim.rootCredentials.accessKeyId, secretAccessKey: sim.rootCredentials.secretAccessKey });
const since = (n: number) => sim.requests.slice(n);

describe('against cloudsim', () => {
  it('STS and IAM answer for the root credentials', async () => {
    const id = await tokenServiceClient({ endpoint: sim.url, credentials: root() }).getCallerIdentity();
    expect(id.account).toBe(sim.account);
    expect(id.arn).toBe(sim.rootCredentials.arn);
    const user = await identityClient({ endpoint: sim.url, credentials: root() }).getUser();
    expect(user).toMatchObject({ arn: sim.rootCredentials.arn, userId: sim.rootCredentials.userId, userName: sim.rootCredentials.name });
  });

  it('GetRole and GetInstanceProfile parse the simulator’s documents', async () => {
    const role = sim.addRole({ name: 'web-role', path: '/app/' });
    const profile = sim.addInstanceProfile({ name: 'web-profile', roleName: 'web-role' });
    const iam = identityClient({ endpoint: sim.url, credentials: root() });
    expect(await iam.getRole('web-role')).toMatchObject({ arn: role.arn, roleId: role.roleId, path: '/app/' });
    const p = await iam.getInstanceProfile('web-profile');
    expect(p).toMatchObject({ arn: profile.arn, instanceProfileId: profile.id });
    expect(p.roles.map((r) => r.arn)).toEqual([role.arn]);
    const err = await iam.getRole('no-such-role').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, code: 'NoSuchEntity' });
  });

  it('DescribeInstances returns the instance with its profile, tags and times', async () => {
    sim.addRole({ name: 'desc-role' });
    const profile = sim.addInstanceProfile({ name: 'desc-profile', roleName: 'desc-role' });
    const inst = sim.addInstance({ region: 'us-west-2', tags: { Name: 'web-1' }, instanceProfile: 'desc-profile' });
    const [got] = await computeClient({ region: 'us-west-2', endpoint: sim.url, credentials: root() }).describeInstances([inst.instanceId]);
    expect(got).toMatchObject({
      instanceId: inst.instanceId,
      imageId: inst.imageId,
      state: 'running',
      subnetId: inst.subnetId,
      vpcId: inst.vpcId,
      iamInstanceProfileArn: profile.arn,
      tags: { Name: 'web-1' },
      region: 'us-west-2',
      accountId: sim.account,
    });
    expect(Date.parse(got.launchTime ?? '')).toBe(Date.parse(inst.pendingTime));
  });

  it('throttled twice then answered: three calls, success', async () => {
    const inst = sim.addInstance({ region: 'us-east-1' });
    sim.failNext('DescribeInstances', { code: 'Throttling', times: 2 });
    const n = sim.requests.length;
    const got = await computeClient({ region: 'us-east-1', endpoint: sim.url, credentials: root(), transport: noSleep }).describeInstances([inst.instanceId]);
    expect(got[0].instanceId).toBe(inst.instanceId);
    expect(since(n).map((r) => `${r.action}:${r.status}`)).toEqual(['DescribeInstances:400', 'DescribeInstances:400', 'DescribeInstances:200']);
  });

  it('a 4xx that is not throttling is not retried; max_retries bounds 5xx retries', async () => {
    const ec2 = computeClient({ region: 'us-east-1', endpoint: sim.url, credentials: root(), transport: { ...noSleep, maxRetries: 1 } });
    let n = sim.requests.length;
    await expect(ec2.describeInstances(['i-0123456789abcdef0'])).rejects.toMatchObject({ status: 400, code: 'InvalidInstanceID.NotFound' });
    expect(since(n)).toHaveLength(1);
    sim.failNext('DescribeInstances', { status: 500, times: 2 }); // exactly the two attempts maxRetries 1 allows
    n = sim.requests.length;
    await expect(ec2.describeInstances([])).rejects.toMatchObject({ status: 500 });
    expect(since(n)).toHaveLength(2);
  });

  it('a wrong secret is refused by the simulator’s SigV4 check', async () => {
    const bad = staticCredentials({ accessKeyId: sim.rootCredentials.accessKeyId, secretAccessKey: 'not-the-secret' });
    const err = await tokenServiceClient({ endpoint: sim.url, credentials: bad }).getCallerIdentity().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudApiError);
    expect((err as CloudApiError).code).toBe('SignatureDoesNotMatch');
    expect((err as Error).message).not.toContain('not-the-secret');
  });

  it('cross-account: the satellite account is reached by assuming its configured role, once', async () => {
    const satellite = '210987654321';
    const role = sim.addRole({ name: 'svc-reader', accountId: satellite });
    const inst = sim.addInstance({ accountId: satellite, region: 'eu-west-1' });
    const provider = cloudProvider(
      { access_key: sim.rootCredentials.accessKeyId, secret_key: sim.rootCredentials.secretAccessKey, endpoint: sim.url, iam_endpoint: sim.url, sts_endpoint: sim.url },
      {},
      { stsRoleFor: (a) => (a === satellite ? role.arn : undefined) },
    );
    const n = sim.requests.length;
    const [got] = await provider.compute('eu-west-1', satellite).describeInstances([inst.instanceId]);
    await provider.compute('eu-west-1', satellite).describeInstances([inst.instanceId]);
    expect(got.accountId).toBe(satellite);
    const seen = since(n);
    expect(seen.map((r) => r.action)).toEqual(['AssumeRole', 'DescribeInstances', 'DescribeInstances']);
    expect(seen[0].accessKeyId).toBe(sim.rootCredentials.accessKeyId);
    expect(seen[1].accessKeyId).not.toBe(sim.rootCredentials.accessKeyId);

    // The root credentials' own account works without a role; another one without a role is refused.
    const own = sim.addInstance({ region: 'eu-west-1' });
    expect((await provider.compute('eu-west-1', sim.account).describeInstances([own.instanceId]))[0].instanceId).toBe(own.instanceId);
    await expect(provider.compute('eu-west-1', '999999999999').describeInstances([])).rejects.toBeInstanceOf(CloudAccountError);
  });

  it('IMDSv2: instance role credentials sign calls; the identity document is served raw', async () => {
    sim.addRole({ name: 'md-role' });
    sim.addInstanceProfile({ name: 'md-profile', roleName: 'md-role' });
    const inst = sim.addInstance({ instanceProfile: 'md-profile' });
    sim.useInstance(inst.instanceId);
    try {
      const creds = credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl } });
      expect(creds.kind).toBe('metadata');
      const id = await tokenServiceClient({ endpoint: sim.url, credentials: creds }).getCallerIdentity();
      expect(id.arn).toMatch(/:assumed-role\/md-role\//);
      expect(sim.metadataRequests[0]).toMatchObject({ method: 'PUT', path: '/latest/api/token' });

      const md = metadataClient({ endpoint: sim.metadataUrl });
      expect((await md.identityDocumentRaw()).equals(sim.identityDocument())).toBe(true);
      expect(await md.identityDocument()).toMatchObject({ instanceId: inst.instanceId, accountId: sim.account });
      expect((await md.pkcs7()).length).toBeGreaterThan(100);
      expect((await md.signature()).length).toBeGreaterThan(100);
    } finally {
      sim.useInstance(undefined);
    }
  });

  it('rotate-root steps: create a key, list, delete the old one, the old key stops working', async () => {
    const user = sim.addUser({ name: 'rotator' });
    const old = staticCredentials({ accessKeyId: user.accessKeyId, secretAccessKey: user.secretAccessKey });
    const iam = identityClient({ endpoint: sim.url, credentials: old });
    const me = await iam.getUser();
    expect(me.userName).toBe('rotator');
    const created = await iam.createAccessKey(me.userName);
    expect(created.secretAccessKey).not.toBe('');
    expect((await iam.listAccessKeys(me.userName)).map((k) => k.accessKeyId).sort()).toEqual([user.accessKeyId, created.accessKeyId].sort());
    const fresh = identityClient({ endpoint: sim.url, credentials: staticCredentials({ accessKeyId: created.accessKeyId, secretAccessKey: created.secretAccessKey }) });
    await fresh.deleteAccessKey(user.accessKeyId, me.userName);
    await expect(iam.getUser()).rejects.toMatchObject({ status: 403 });
    expect((await fresh.getUser()).userName).toBe('rotator');
  });
});
