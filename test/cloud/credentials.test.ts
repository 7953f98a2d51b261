/** The credential chain and the IMDSv2 client against cloudsim's metadata service. */
import { createPublicKey, verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedCredentials, credentialChain, regionFromEnv, REFRESH_WINDOW_MS } from '../../src/cloud/credentials.js';
import { CloudCredentialsError } from '../../src/cloud/errors.js';
import { metadataClient } from '../../src/cloud/metadata.js';
import { tokenServiceClient } from '../../src/cloud/token-service.js';
import { startCloudSim, type CloudSim } from '../../src/cloudsim/index.js';

let sim: CloudSim;
beforeEach(async () => {
  sim = await startCloudSim({ account: '012345678901', region: 'us-west-2' });
});
afterEach(() => sim.close());

const ROLE_PATH = '/latest/meta-data/iam/security-credentials/';

/** The current instance, with an instance profile whose role is `web-role`. */
function instanceWithRole() {
  sim.addRole({ name: 'web-role' });
  sim.addInstanceProfile({ name: 'web-profile', roleName: 'web-role' });
  const inst = sim.addInstance({ instanceProfile: 'web-profile' });
  sim.useInstance(inst.instanceId);
  return inst;
}

const ENV = { CLOUD_ACCESS_KEY: 'AKIDENV', CLOUD_SECRET_KEY: 'env-secret', CLOUD_SESSION_TOKEN: 'env-token' };

describe('credential chain', () => {
  it('explicit keys win over env and metadata', async () => {
    instanceWithRole();
    const src = credentialChain({ explicit: { accessKeyId: 'AKIDCFG', secretAccessKey: 'cfg-secret' }, env: ENV, metadata: { endpoint: sim.metadataUrl } });
    expect(src.kind).toBe('static');
    expect(await src.get()).toEqual({ accessKeyId: 'AKIDCFG', secretAccessKey: 'cfg-secret', sessionToken: undefined });
    expect(sim.metadataRequests).toHaveLength(0);
  });

  it('half-configured explicit keys fall through to env', async () => {
    instanceWithRole();
    const src = credentialChain({ explicit: { accessKeyId: 'AKIDCFG', secretAccessKey: '' }, env: ENV, metadata: { endpoint: sim.metadataUrl } });
    expect(src.kind).toBe('env');
    expect(await src.get()).toEqual({ accessKeyId: 'AKIDENV', secretAccessKey: 'env-secret', sessionToken: 'env-token' });
    expect(sim.metadataRequests).toHaveLength(0);
  });

  it('env keys sign calls the provider accepts', async () => {
    const u = sim.addUser({ name: 'env-user' });
    const src = credentialChain({ env: { CLOUD_ACCESS_KEY: u.accessKeyId, CLOUD_SECRET_KEY: u.secretAccessKey }, metadata: { endpoint: sim.metadataUrl } });
    expect(src.kind).toBe('env');
    expect((await tokenServiceClient({ endpoint: sim.url, credentials: src }).getCallerIdentity()).arn).toBe(u.arn);
    expect(sim.metadataRequests).toHaveLength(0);
  });

  it('reads only the env object it is given, not process.env', async () => {
    process.env.CLOUD_ACCESS_KEY = 'AKIDPROCESS';
    process.env.CLOUD_SECRET_KEY = 'process-secret';
    try {
      instanceWithRole();
      const src = credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl } });
      expect(src.kind).toBe('metadata');
      expect((await src.get()).accessKeyId).toMatch(/^ASIA/);
    } finally {
      delete process.env.CLOUD_ACCESS_KEY;
      delete process.env.CLOUD_SECRET_KEY;
    }
  });

  it('falls back to IMDSv2: token first (with TTL header), then role list, then the role document', async () => {
    const inst = instanceWithRole();
    const src = credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl } });
    const c = await src.get();
    expect(c).toEqual({ accessKeyId: expect.stringMatching(/^ASIA/), secretAccessKey: expect.any(String), sessionToken: expect.any(String), expiration: expect.any(Date) });
    const seq = sim.metadataRequests.map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(seq).toEqual(['PUT /latest/api/token 200', `GET ${ROLE_PATH} 200`, `GET ${ROLE_PATH}web-role 200`]);
    expect(sim.metadataRequests[0].headers['x-aws-ec2-metadata-token-ttl-seconds']).toBe('21600');
    const token = sim.metadataRequests[1].headers['x-aws-ec2-metadata-token'];
    expect(token).toEqual(expect.any(String));
    expect(sim.metadataRequests[2].headers['x-aws-ec2-metadata-token']).toBe(token);
    // The credentials are the instance role's, and the provider accepts them (token included).
    const id = await tokenServiceClient({ endpoint: sim.url, credentials: src }).getCallerIdentity();
    expect(id.arn).toBe(`arn:aws:sts::012345678901:assumed-role/web-role/${inst.instanceId}`);
    // Cached: further gets do not touch the service.
    await src.get();
    expect(sim.metadataRequests).toHaveLength(3);
  });

  it('refreshes metadata credentials shortly before they expire', async () => {
    instanceWithRole();
    let now = Date.now();
    const src = credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl }, now: () => now });
    const first = await src.get();
    const expiresAt = first.expiration!.getTime();
    // The service rotates the role's keys well before they expire (cloudsim: < 15 min left).
    sim.advanceClock(expiresAt - Date.now() - 10 * 60_000);
    now = expiresAt - REFRESH_WINDOW_MS - 1;
    expect((await src.get()).accessKeyId).toBe(first.accessKeyId);
    const before = sim.metadataRequests.length;
    now += 2;
    const second = await src.get();
    expect(second.accessKeyId).not.toBe(first.accessKeyId);
    expect(second.expiration!.getTime()).toBeGreaterThan(expiresAt);
    expect(sim.metadataRequests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${ROLE_PATH}`, `GET ${ROLE_PATH}web-role`]);
  });

  it('no credentials anywhere is a typed error naming the links, and is not cached', async () => {
    sim.useInstance(undefined);
    const src = credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl } });
    const err = await src.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudCredentialsError);
    expect((err as Error).message).toContain('CLOUD_ACCESS_KEY');
    expect((err as Error).message).toContain(sim.metadataUrl);
    expect(sim.metadataRequests.at(-1)).toMatchObject({ method: 'GET', path: ROLE_PATH, status: 404 });
    instanceWithRole();
    expect((await src.get()).accessKeyId).toMatch(/^ASIA/);
  });

  it('an instance without a role is the same typed error', async () => {
    sim.useInstance(sim.addInstance().instanceId);
    const err = await credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl } }).get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudCredentialsError);
  });

  it('concurrent gets share one fetch', async () => {
    let fetches = 0;
    const src = cachedCredentials('metadata', async () => {
      fetches++;
      await new Promise((r) => setTimeout(r, 10));
      return { accessKeyId: 'A', secretAccessKey: 'B', expiration: new Date(Date.now() + 3_600_000) };
    });
    await Promise.all([src.get(), src.get(), src.get()]);
    expect(fetches).toBe(1);
  });

  it('concurrent gets through the chain make one metadata exchange', async () => {
    instanceWithRole();
    const src = credentialChain({ env: {}, metadata: { endpoint: sim.metadataUrl } });
    const got = await Promise.all([src.get(), src.get(), src.get()]);
    expect(new Set(got.map((c) => c.accessKeyId)).size).toBe(1);
    expect(sim.metadataRequests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(sim.metadataRequests).toHaveLength(3);
  });

  it('region comes from CLOUD_REGION, else us-east-1', () => {
    expect(regionFromEnv({ CLOUD_REGION: 'eu-north-1' })).toBe('eu-north-1');
    expect(regionFromEnv({})).toBe('us-east-1');
  });
});

describe('metadata client', () => {
  it('serves the identity document raw and parsed, signatures, and reuses its token', async () => {
    const inst = sim.addInstance({ pendingTime: '2024-05-01T00:00:00Z' });
    sim.useInstance(inst.instanceId);
    const md = metadataClient({ endpoint: `${sim.metadataUrl}/` });
    const raw = await md.identityDocumentRaw();
    expect(raw.equals(sim.identityDocument())).toBe(true);
    expect(await md.identityDocument()).toMatchObject({
      accountId: '012345678901',
      region: 'us-west-2',
      instanceId: inst.instanceId,
      imageId: inst.imageId,
      pendingTime: '2024-05-01T00:00:00Z',
    });
    // The RSA signature is returned trimmed and verifies over the raw document bytes.
    const sig = await md.signature();
    expect(sig).toBe(sig.trim());
    expect(verify('sha256', raw, createPublicKey(sim.certificates.signature), Buffer.from(sig.replace(/\s+/g, ''), 'base64'))).toBe(true);
    // PKCS#7 bodies come back without armour: base64 of BER SignedData (starts 30 80 → "MIA").
    expect(await md.pkcs7()).toMatch(/^MIA[A-Za-z0-9+/=\n]+$/);
    expect(await md.rsa2048()).toMatch(/^MIA[A-Za-z0-9+/=\n]+$/);
    expect(sim.metadataRequests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(new Set(sim.metadataRequests.filter((r) => r.method === 'GET').map((r) => r.headers['x-aws-ec2-metadata-token'])).size).toBe(1);
  });

  it('gets a new token once when the service no longer knows ours', async () => {
    const inst = sim.addInstance();
    sim.useInstance(inst.instanceId);
    const md = metadataClient({ endpoint: sim.metadataUrl });
    expect((await md.get('/latest/meta-data/instance-id')).toString()).toBe(inst.instanceId);
    // The service's clock passes the token's TTL while ours still trusts it.
    sim.advanceClock(21_600_000 + 1_000);
    expect((await md.get('/latest/meta-data/instance-id')).toString()).toBe(inst.instanceId);
    expect(sim.metadataRequests.map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 200', 'GET 200', 'GET 401', 'PUT 200', 'GET 200']);
    const tok = sim.metadataRequests.map((r) => r.headers['x-aws-ec2-metadata-token']);
    expect(tok[1]).toBe(tok[2]);
    expect(tok[4]).not.toBe(tok[2]);
  });

  it('a missing path is a typed error with its status', async () => {
    sim.useInstance(sim.addInstance().instanceId);
    const err = await metadataClient({ endpoint: sim.metadataUrl }).get('/latest/meta-data/nope').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, code: 'HTTP404' });
  });
});
