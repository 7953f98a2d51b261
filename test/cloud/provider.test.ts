/** cloudProvider against cloudsim: per-account credentials (STS roles, the default account), caching, config knobs. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudAccountError } from '../../src/cloud/errors.js';
import { cloudProvider, type CloudClientConfig } from '../../src/cloud/provider.js';
import { startCloudSim, type CloudSim, type SimRole } from '../../src/cloudsim/index.js';

const HOME = '123456789012';
const SATELLITE = '210987654321';

let sim: CloudSim;
let satelliteRole: SimRole;
beforeEach(async () => {
  sim = await startCloudSim({ account: HOME });
  satelliteRole = sim.addRole({ name: 'svc-reader', accountId: SATELLITE });
});
afterEach(() => sim.close());

function config(over: Partial<CloudClientConfig> = {}): CloudClientConfig {
  return {
    access_key: sim.rootCredentials.accessKeyId,
    secret_key: sim.rootCredentials.secretAccessKey,
    endpoint: sim.url,
    iam_endpoint: sim.url,
    sts_endpoint: sim.url,
    ...over,
  };
}
const actions = () => sim.requests.map((r) => r.action);

describe('cloudProvider', () => {
  it('a satellite account is reached through its STS role; the temporary key signs the call', async () => {
    const inst = sim.addInstance({ accountId: SATELLITE, region: 'us-east-2' });
    const provider = cloudProvider(config({ sts_region: 'eu-west-1' }), {}, {
      stsRoleFor: (a) => (a === SATELLITE ? satelliteRole.arn : undefined),
      sessionName: () => 'svc-test',
    });
    const got = await provider.compute('us-east-2', SATELLITE).describeInstances([inst.instanceId]);
    // Only the satellite's own credentials can see the satellite's instance.
    expect(got[0]).toMatchObject({ instanceId: inst.instanceId, accountId: SATELLITE });
    const [assume, describe] = sim.requests;
    expect(sim.requests).toHaveLength(2);
    expect(assume).toMatchObject({ service: 'sts', region: 'eu-west-1', action: 'AssumeRole', accessKeyId: sim.rootCredentials.accessKeyId, status: 200 });
    expect(assume.params).toMatchObject({ RoleArn: satelliteRole.arn, RoleSessionName: 'svc-test', DurationSeconds: '900' });
    expect(describe).toMatchObject({ service: 'ec2', region: 'us-east-2', action: 'DescribeInstances', status: 200 });
    expect(describe.accessKeyId).toMatch(/^ASIA/);
    expect(describe.signedHeaders).toContain('x-amz-security-token');
  });

  it('assumed credentials are cached per role until near expiry, across clients', async () => {
    const a = sim.addInstance({ accountId: SATELLITE, region: 'us-east-1' });
    const b = sim.addInstance({ accountId: SATELLITE, region: 'eu-west-1' });
    let offset = 0;
    const now = () => Date.now() + offset;
    const provider = cloudProvider(config(), {}, { stsRoleFor: () => satelliteRole.arn, now });
    await provider.compute('us-east-1', SATELLITE).describeInstances([a.instanceId]);
    expect((await provider.identity(SATELLITE).getRole('svc-reader')).arn).toBe(satelliteRole.arn);
    await provider.compute('eu-west-1', SATELLITE).describeInstances([b.instanceId]);
    expect(actions()).toEqual(['AssumeRole', 'DescribeInstances', 'GetRole', 'DescribeInstances']);
    const firstKey = sim.requests[1].accessKeyId;
    expect(firstKey).toMatch(/^ASIA/);
    expect(sim.requests.slice(1).every((r) => r.accessKeyId === firstKey && r.status === 200)).toBe(true);

    offset = 11 * 60_000; // inside the 5-minute refresh window of a 15-minute credential
    await provider.compute('us-east-1', SATELLITE).describeInstances([a.instanceId]);
    expect(actions().filter((x) => x === 'AssumeRole')).toHaveLength(2);
    const last = sim.requests.at(-1)!;
    expect(last).toMatchObject({ action: 'DescribeInstances', status: 200 });
    expect(last.accessKeyId).toMatch(/^ASIA/);
    expect(last.accessKeyId).not.toBe(firstKey);
  });

  it('roles are cached per role ARN: two satellites, two AssumeRole calls', async () => {
    const other = '333344445555';
    const otherRole = sim.addRole({ name: 'svc-reader', accountId: other });
    const provider = cloudProvider(config(), {}, { stsRoleFor: (acct) => (acct === SATELLITE ? satelliteRole.arn : otherRole.arn) });
    await provider.compute('us-east-1', SATELLITE).describeInstances([]);
    await provider.compute('us-east-1', other).describeInstances([]);
    await provider.compute('us-east-1', SATELLITE).describeInstances([]);
    expect(sim.requests.filter((r) => r.action === 'AssumeRole').map((r) => r.params.RoleArn)).toEqual([satelliteRole.arn, otherRole.arn]);
  });

  it('an account without an STS role uses the default credentials when they belong to it', async () => {
    const inst = sim.addInstance({ region: 'us-east-1' });
    const provider = cloudProvider(config(), {}, { stsRoleFor: () => undefined });
    await provider.compute('us-east-1', HOME).describeInstances([inst.instanceId]);
    await provider.compute('us-east-1', HOME).describeInstances([inst.instanceId]);
    expect(actions()).toEqual(['GetCallerIdentity', 'DescribeInstances', 'DescribeInstances']);
    expect(sim.requests[1].accessKeyId).toBe(sim.rootCredentials.accessKeyId);
    expect(await provider.defaultAccountId()).toBe(HOME);
    expect(sim.requests).toHaveLength(3);
  });

  it('refuses another account without an STS role, naming both accounts', async () => {
    const provider = cloudProvider(config(), {});
    const err = await provider.compute('us-east-1', SATELLITE).describeInstances([]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudAccountError);
    expect((err as Error).message).toBe(`unable to fetch client for account ID "${SATELLITE}" -- default client is for account "${HOME}"`);
    expect(actions()).toEqual(['GetCallerIdentity']);
  });

  it('a failed GetCallerIdentity is not cached as the default account', async () => {
    sim.failNext('GetCallerIdentity', { status: 403, code: 'AccessDenied' });
    const provider = cloudProvider(config(), {});
    await expect(provider.defaultAccountId()).rejects.toMatchObject({ code: 'AccessDenied' });
    expect(await provider.defaultAccountId()).toBe(HOME);
  });

  it('without an account the default credentials are used directly', async () => {
    const provider = cloudProvider(config(), {});
    expect((await provider.identity().getUser()).arn).toBe(sim.rootCredentials.arn);
    expect(actions()).toEqual(['GetUser']);
    expect(sim.requests[0].accessKeyId).toBe(sim.rootCredentials.accessKeyId);
  });

  it('clearCache drops assumed credentials and the default account', async () => {
    const provider = cloudProvider(config(), {}, { stsRoleFor: () => satelliteRole.arn });
    await provider.compute('us-east-1', SATELLITE).describeInstances([]);
    await provider.defaultAccountId();
    provider.clearCache();
    await provider.compute('us-east-1', SATELLITE).describeInstances([]);
    await provider.defaultAccountId();
    expect(actions()).toEqual(['AssumeRole', 'DescribeInstances', 'GetCallerIdentity', 'AssumeRole', 'DescribeInstances', 'GetCallerIdentity']);
    expect(sim.requests[4].accessKeyId).not.toBe(sim.requests[1].accessKeyId);
  });

  it('config max_retries reaches the transport', async () => {
    sim.failNext('GetUser', { status: 500, code: 'InternalFailure', times: 10 });
    const provider = cloudProvider(config({ max_retries: 1 }), {}, { transport: { sleep: async () => {} } });
    await expect(provider.identity().getUser()).rejects.toMatchObject({ status: 500 });
    expect(sim.requests).toHaveLength(2);
  });

  it('config max_retries -1 means the library default; transport.maxRetries cannot override it', async () => {
    sim.failNext('GetUser', { status: 503, times: 10 });
    const provider = cloudProvider(config({ max_retries: -1 }), {}, { transport: { sleep: async () => {}, ...({ maxRetries: 0 } as object) } });
    await expect(provider.identity().getUser()).rejects.toMatchObject({ status: 503 });
    expect(sim.requests).toHaveLength(4);
  });

  it('uses env credentials when config has none, and tokenService(region) signs for that region', async () => {
    const u = sim.addUser({ name: 'env-user' });
    const provider = cloudProvider(config({ access_key: '', secret_key: '' }), { CLOUD_ACCESS_KEY: u.accessKeyId, CLOUD_SECRET_KEY: u.secretAccessKey });
    expect(provider.defaultCredentials.kind).toBe('env');
    expect((await provider.tokenService('ap-northeast-3').getCallerIdentity()).arn).toBe(u.arn);
    expect(sim.requests[0]).toMatchObject({ accessKeyId: u.accessKeyId, region: 'ap-northeast-3', service: 'sts', status: 200 });
  });

  it('without keys in config or env, the default credentials come from the instance role', async () => {
    sim.addRole({ name: 'node-role' });
    sim.addInstanceProfile({ name: 'node-profile', roleName: 'node-role' });
    const inst = sim.addInstance({ instanceProfile: 'node-profile' });
    sim.useInstance(inst.instanceId);
    const provider = cloudProvider(config({ access_key: undefined, secret_key: undefined }), {}, { metadata: { endpoint: sim.metadataUrl } });
    expect(provider.defaultCredentials.kind).toBe('metadata');
    expect(await provider.defaultAccountId()).toBe(HOME);
    expect(sim.metadataRequests[0]).toMatchObject({ method: 'PUT', path: '/latest/api/token' });
    expect(sim.requests[0].accessKeyId).toMatch(/^ASIA/);
  });
});
