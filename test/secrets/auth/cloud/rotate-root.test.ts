/**
 * auth/cloud/config/rotate-root against the real server and cloudsim: the key is replaced at the provider
 * and in storage and only the server knows the new secret; it refuses without static keys, refuses
 * clearly when the user already has two keys, reports provider failures without secrets, cleans up a new
 * key it could not store, runs one rotation at a time, and follows config/client changes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCredentials } from '../../../../src/cloud/credentials.js';
import { identityClient } from '../../../../src/cloud/identity.js';
import { CONFIG_TABLE } from '../../../../src/secrets/auth/cloud/mount-storage.js';
import { startCloudSim, type CloudSim, type SimUser } from '../../../../src/cloudsim/index.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { statusOf, until } from '../../../support/wait.js';

let srv: TestServer;
let sim: CloudSim;
const logs: string[] = [];
const c = () => srv.client();
const read = async (p: string) => (await c().secrets('GET', p))?.data;
let n = 0;

beforeAll(async () => {
  sim = await startCloudSim({ account: '123456789012' });
  srv = await startTestServer({ client: false, cloud: { env: {} }, logWrite: (l) => logs.push(l) });
});
afterAll(async () => {
  await srv?.close();
  await sim?.close();
});

interface Setup {
  path: string;
  accessor: string;
  user: SimUser;
}

/** A fresh mount whose config/client holds the static keys of a fresh cloudsim user. */
async function setup(extra: Record<string, unknown> = {}, on: CloudSim = sim): Promise<Setup> {
  const name = `cloud-rotate-${++n}`;
  await c().secrets('POST', `sys/auth/${name}`, { body: { type: 'cloud' } });
  const user = on.addUser({ name: `svc-auth-${n}` });
  await c().secrets('POST', `auth/${name}/config/client`, { body: { access_key: user.accessKeyId, secret_key: user.secretAccessKey, iam_endpoint: on.url, ...extra } });
  return { path: `auth/${name}`, accessor: srv.server.services.mounts.get(`auth/${name}/`)!.accessor, user };
}

const rootIam = (on: CloudSim = sim) =>
  identityClient({ endpoint: on.url, credentials: staticCredentials({ accessKeyId: on.rootCredentials.accessKeyId, secretAccessKey: on.rootCredentials.secretAccessKey }) });
const keysOf = async (user: SimUser, on: CloudSim = sim) => (await rootIam(on).listAccessKeys(user.name)).map((k) => k.accessKeyId).sort();
const rotate = (s: Setup) => c().secrets('POST', `${s.path}/config/rotate-root`);
const requestsSince = (start: number) => sim.requests.slice(start).map((r) => `${r.action}:${r.status}`);

function inDataFiles(text: string): boolean {
  const needle = Buffer.from(text);
  const walk = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : readFileSync(path.join(dir, e.name)).includes(needle)));
  return walk(srv.dataDir);
}

describe('a successful rotation', () => {
  it('replaces the key at the provider and in storage, answers only the new access key, and keeps the secret to itself', async () => {
    const s = await setup();
    // A provider built before the rotation caches the old keys; it must not outlive it.
    const before = srv.server.authMethods.cloud.state.providers.get(srv.server.services, s.accessor);
    const start = sim.requests.length;

    const res = await rotate(s);
    const newKey = res?.data?.access_key as string;
    expect(Object.keys(res?.data ?? {})).toEqual(['access_key']);
    expect(newKey).toMatch(/^AKIA/);
    expect(newKey).not.toBe(s.user.accessKeyId);

    // Every call signed with the stored (old) key, in Vault's order.
    expect(requestsSince(start)).toEqual(['GetUser:200', 'ListAccessKeys:200', 'CreateAccessKey:200', 'DeleteAccessKey:200']);
    expect(sim.requests.slice(start).every((r) => r.accessKeyId === s.user.accessKeyId)).toBe(true);
    expect(sim.requests.at(-1)?.params).toMatchObject({ AccessKeyId: s.user.accessKeyId, UserName: s.user.name });

    expect(await keysOf(s.user)).toEqual([newKey]);
    expect((await read(`${s.path}/config/client`))?.access_key).toBe(newKey);
    const old = identityClient({ endpoint: sim.url, credentials: staticCredentials({ accessKeyId: s.user.accessKeyId, secretAccessKey: s.user.secretAccessKey }) });
    await expect(old.getUser()).rejects.toMatchObject({ code: 'InvalidClientTokenId' });

    const after = srv.server.authMethods.cloud.state.providers.get(srv.server.services, s.accessor);
    expect(after).not.toBe(before);
    const creds = await after.defaultCredentials.get();
    expect(creds.accessKeyId).toBe(newKey);
    const newSecret = creds.secretAccessKey;
    expect(newSecret).not.toBe(s.user.secretAccessKey);
    expect(JSON.stringify(res)).not.toContain(newSecret);
    expect(JSON.stringify(await c().secrets('GET', `${s.path}/config/client`))).not.toContain(newSecret);
    expect(JSON.stringify(srv.server.services.store.get(CONFIG_TABLE, `${s.accessor}/config/client`))).not.toContain(newSecret);
    expect(inDataFiles(newKey)).toBe(true);
    expect(inDataFiles(newSecret)).toBe(false);
    expect(logs.some((l) => l.includes(newSecret))).toBe(false);

    // The new key works: a second rotation is signed with it and succeeds.
    const second = sim.requests.length;
    const again = (await rotate(s))?.data?.access_key as string;
    expect(sim.requests[second]).toMatchObject({ action: 'GetUser', status: 200, accessKeyId: newKey });
    expect(await keysOf(s.user)).toEqual([again]);
  });

  it('rotations of one mount run one at a time, so two at once both succeed', async () => {
    const s = await setup();
    const [a, b] = await Promise.all([rotate(s), rotate(s)]);
    const keys = [a?.data?.access_key, b?.data?.access_key];
    expect(new Set(keys).size).toBe(2);
    const current = (await read(`${s.path}/config/client`))?.access_key;
    expect(keys).toContain(current);
    expect(await keysOf(s.user)).toEqual([current]);
  });

  it('follows config/client: after iam_endpoint and keys change, the rotation happens at the new provider', async () => {
    const other = await startCloudSim({ account: '210987654321' });
    try {
      const s = await setup();
      const moved = other.addUser({ name: 'svc-moved' });
      await c().secrets('POST', `${s.path}/config/client`, { body: { iam_endpoint: other.url, access_key: moved.accessKeyId, secret_key: moved.secretAccessKey } });
      const start = sim.requests.length;
      const newKey = (await rotate(s))?.data?.access_key;
      expect(sim.requests.length).toBe(start);
      expect(other.requests.map((r) => r.action)).toEqual(['GetUser', 'ListAccessKeys', 'CreateAccessKey', 'DeleteAccessKey']);
      expect(await keysOf(moved, other)).toEqual([newKey]);
      expect(await keysOf(s.user)).toEqual([s.user.accessKeyId]);
    } finally {
      await other.close();
    }
  });
});

describe('refusals before any provider call', () => {
  it('needs a config/client with both static keys (Vault\'s messages)', async () => {
    const name = `cloud-rotate-${++n}`;
    await c().secrets('POST', `sys/auth/${name}`, { body: { type: 'cloud' } });
    const p = `auth/${name}`;
    const start = sim.requests.length;
    const none = await statusOf(c().secrets('POST', `${p}/config/rotate-root`));
    expect(none).toMatchObject({ code: 400 });
    expect(none.message).toMatch(/^can't update client config because it's unset/);

    await c().secrets('POST', `${p}/config/client`, { body: { iam_endpoint: sim.url } });
    const noAccess = await statusOf(c().secrets('POST', `${p}/config/rotate-root`));
    expect(noAccess).toMatchObject({ code: 400 });
    expect(noAccess.message).toMatch(/^can't update access_key because it's unset/);

    await c().secrets('POST', `${p}/config/client`, { body: { access_key: sim.rootCredentials.accessKeyId } });
    const noSecret = await statusOf(c().secrets('POST', `${p}/config/rotate-root`));
    expect(noSecret).toMatchObject({ code: 400 });
    expect(noSecret.message).toMatch(/^can't update secret_key because it's unset/);

    // A secret alone (no access_key) is refused too.
    await c().secrets('POST', `${p}/config/client`, { body: { access_key: '', secret_key: sim.rootCredentials.secretAccessKey } });
    expect((await statusOf(c().secrets('POST', `${p}/config/rotate-root`))).message).toMatch(/^can't update access_key because it's unset/);
    expect(sim.requests.length).toBe(start);
  });

  it('ignores CLOUD_* credentials of the environment: they are not what config/client rotates', async () => {
    const envSrv = await startTestServer({
      client: false,
      cloud: { env: { CLOUD_ACCESS_KEY: sim.rootCredentials.accessKeyId, CLOUD_SECRET_KEY: sim.rootCredentials.secretAccessKey } },
    });
    try {
      await envSrv.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
      await envSrv.client().secrets('POST', 'auth/cloud/config/client', { body: { iam_endpoint: sim.url } });
      const start = sim.requests.length;
      const res = await statusOf(envSrv.client().secrets('POST', 'auth/cloud/config/rotate-root'));
      expect(res).toMatchObject({ code: 400 });
      expect(res.message).toMatch(/can't update access_key because it's unset/);
      expect(sim.requests.length).toBe(start);
    } finally {
      await envSrv.close();
    }
  });
});

describe('the region', () => {
  it("is CLOUD_REGION's: the calls are signed for the IAM partition of the server's region", async () => {
    const govSrv = await startTestServer({ client: false, cloud: { env: { CLOUD_REGION: 'us-gov-west-1' } } });
    try {
      await govSrv.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
      const user = sim.addUser({ name: `svc-gov-${++n}` });
      await govSrv.client().secrets('POST', 'auth/cloud/config/client', { body: { access_key: user.accessKeyId, secret_key: user.secretAccessKey, iam_endpoint: sim.url, max_retries: 0 } });
      const start = sim.requests.length;
      // cloudsim is a commercial-partition provider: it refuses a GovCloud signature, as the real one would.
      const res = await statusOf(govSrv.client().secrets('POST', 'auth/cloud/config/rotate-root'));
      expect(res.code).toBe(502);
      expect(sim.requests.slice(start).map((r) => [r.action, r.region])).toEqual([['GetUser', 'us-gov-west-1']]);
      expect(await keysOf(user)).toEqual([user.accessKeyId]);
    } finally {
      await govSrv.close();
    }
  });

  it('is us-east-1 without CLOUD_REGION', async () => {
    const s = await setup();
    const start = sim.requests.length;
    await rotate(s);
    expect(new Set(sim.requests.slice(start).map((r) => r.region))).toEqual(new Set(['us-east-1']));
  });
});

describe('a user with two access keys', () => {
  it('is refused with a 400 that names the extra key, before any key is made; nothing changes', async () => {
    const s = await setup();
    const extra = await identityClient({ endpoint: sim.url, credentials: staticCredentials(s.user) }).createAccessKey(s.user.name);
    const start = sim.requests.length;
    const res = await statusOf(rotate(s));
    expect(res.code).toBe(400);
    expect(res.message).toMatch(new RegExp(`IAM user "${s.user.name}" has more than one access key`));
    expect(res.message).toMatch(new RegExp(`delete the key other than ${s.user.accessKeyId} \\(${extra.accessKeyId}\\) first`));
    expect(res.message).not.toContain(s.user.secretAccessKey);
    expect(res.message).not.toContain(extra.secretAccessKey);
    expect(requestsSince(start)).toEqual(['GetUser:200', 'ListAccessKeys:200']);
    expect(await keysOf(s.user)).toEqual([s.user.accessKeyId, extra.accessKeyId].sort());
    expect((await read(`${s.path}/config/client`))?.access_key).toBe(s.user.accessKeyId);
  });

  it('without iam:ListAccessKeys, the provider\'s LimitExceeded is reported the same clear way', async () => {
    const s = await setup();
    await identityClient({ endpoint: sim.url, credentials: staticCredentials(s.user) }).createAccessKey(s.user.name);
    sim.failNext('ListAccessKeys', { status: 403, code: 'AccessDenied', message: `User: ${s.user.arn} is not authorized to perform: iam:ListAccessKeys` });
    const start = sim.requests.length;
    const res = await statusOf(rotate(s));
    expect(res.code).toBe(400);
    expect(res.message).toMatch(/has more than one access key.*delete the key other than/);
    expect(requestsSince(start)).toEqual(['GetUser:200', 'ListAccessKeys:403', 'CreateAccessKey:409']);
    expect(sim.requests.at(-1)?.errorCode).toBe('LimitExceeded');
    expect((await read(`${s.path}/config/client`))?.access_key).toBe(s.user.accessKeyId);
  });
});

describe('provider failures', () => {
  it('a refused CreateAccessKey is a 502 with the provider\'s code and message, no secret, nothing changed', async () => {
    const s = await setup();
    sim.failNext('CreateAccessKey', { status: 403, code: 'AccessDenied', message: `User: ${s.user.arn} is not authorized to perform: iam:CreateAccessKey` });
    const res = await statusOf(rotate(s));
    expect(res.code).toBe(502);
    expect(res.message).toMatch(/iam:CreateAccessKey failed: AccessDenied: User: .* is not authorized to perform: iam:CreateAccessKey \(status 403\)/);
    expect(res.message).not.toContain(s.user.secretAccessKey);
    expect(logs.some((l) => l.includes(s.user.secretAccessKey))).toBe(false);
    expect(await keysOf(s.user)).toEqual([s.user.accessKeyId]);
    expect((await read(`${s.path}/config/client`))?.access_key).toBe(s.user.accessKeyId);
  });

  it('max_retries applies: 0 fails on the first unavailable answer, the default retries it', async () => {
    const s = await setup({ max_retries: 0 });
    sim.failNext('GetUser', { status: 503, code: 'ServiceUnavailable' });
    const start = sim.requests.length;
    const res = await statusOf(rotate(s));
    expect(res.code).toBe(502);
    expect(res.message).toMatch(/iam:GetUser failed: ServiceUnavailable/);
    expect(requestsSince(start)).toEqual(['GetUser:503']);

    await c().secrets('POST', `${s.path}/config/client`, { body: { max_retries: -1 } });
    sim.failNext('GetUser', { status: 503, code: 'ServiceUnavailable' });
    const retried = sim.requests.length;
    const newKey = (await rotate(s))?.data?.access_key;
    expect(requestsSince(retried).slice(0, 2)).toEqual(['GetUser:503', 'GetUser:200']);
    expect(await keysOf(s.user)).toEqual([newKey]);
  });

  it('a failed delete of the old key leaves the new key stored and says which key to delete', async () => {
    const s = await setup();
    sim.failNext('DeleteAccessKey', { status: 403, code: 'AccessDenied', message: 'not authorized to perform: iam:DeleteAccessKey' });
    const res = await statusOf(rotate(s));
    expect(res.code).toBe(500);
    const stored = (await read(`${s.path}/config/client`))?.access_key as string;
    expect(stored).not.toBe(s.user.accessKeyId);
    expect(res.message).toContain(`the new access key ${stored} is stored and in use, but deleting the old access key ${s.user.accessKeyId} failed`);
    expect(res.message).toMatch(/AccessDenied/);
    expect(await keysOf(s.user)).toEqual([s.user.accessKeyId, stored].sort());
  });

  it('a config/client change during the rotation wins: the new key is not stored and is deleted again (409)', async () => {
    const s = await setup();
    sim.delayNext('CreateAccessKey', 400);
    const start = sim.requests.length;
    const pending = statusOf(rotate(s));
    await until(async () => sim.requests.slice(start).some((r) => r.action === 'CreateAccessKey'), Boolean, 'CreateAccessKey to reach cloudsim');
    const replacement = sim.addUser({ name: `svc-replacement-${n}` });
    await c().secrets('POST', `${s.path}/config/client`, { body: { access_key: replacement.accessKeyId, secret_key: replacement.secretAccessKey } });
    const res = await pending;
    expect(res.code).toBe(409);
    expect(res.message).toMatch(/config\/client changed while rotate-root was running.*the new key was deleted again/);
    expect((await read(`${s.path}/config/client`))?.access_key).toBe(replacement.accessKeyId);
    expect(await keysOf(s.user)).toEqual([s.user.accessKeyId]);
  });
});

describe('permissions', () => {
  it('a token allowed on config/client but not on config/rotate-root gets 403, and nothing rotates', async () => {
    const s = await setup();
    await c().secrets('POST', 'sys/policies/acl/cloud-client-admin', {
      body: { policy: `path "${s.path}/config/client" { capabilities = ["create", "read", "update", "delete"] }` },
    });
    const token = (await c().secrets('POST', 'auth/token/create', { body: { policies: ['cloud-client-admin'] } }))!.auth!.client_token as string;
    const start = sim.requests.length;
    expect((await statusOf(srv.client(token).secrets('POST', `${s.path}/config/rotate-root`))).code).toBe(403);
    expect(sim.requests.length).toBe(start);
    expect(await keysOf(s.user)).toEqual([s.user.accessKeyId]);
  });
});
