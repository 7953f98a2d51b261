/**
 * auth/cloud/config/client against the real server: defaults on create, partial updates, the secret key
 * kept out of answers, storage, data files and logs, validation that stores nothing, header
 * canonicalisation, the mount's provider rebuilt after every change, and the ACL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TABLE } from '../../../../src/secrets/auth/cloud/mount-storage.js';
import { startCloudSim, type CloudSim } from '../../../../src/cloudsim/index.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { statusOf } from '../../../support/wait.js';

let srv: TestServer;
const logs: string[] = [];
const c = () => srv.client();
const read = async (p: string) => (await c().secrets('GET', p))?.data;
let mounts = 0;

/** A fresh cloud mount per test, so each starts without config/client. */
async function newMount(): Promise<{ path: string; accessor: string }> {
  const name = `cloud-client-${++mounts}`;
  await c().secrets('POST', `sys/auth/${name}`, { body: { type: 'cloud' } });
  return { path: `auth/${name}`, accessor: srv.server.services.mounts.get(`auth/${name}/`)!.accessor };
}

const storedRaw = (accessor: string) => JSON.stringify(srv.server.services.store.get(CONFIG_TABLE, `${accessor}/config/client`));
/** The mount's provider, as the server's logins get it. */
const providerFor = (accessor: string) => srv.server.authMethods.cloud.state.providers.get(srv.server.services, accessor);

/** Whether `text` occurs in any file of the server's data directory (the LMDB files, the keyring). */
function inDataFiles(text: string): boolean {
  const needle = Buffer.from(text);
  const walk = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : readFileSync(path.join(dir, e.name)).includes(needle)));
  return walk(srv.dataDir);
}

async function tokenWith(policy: string, rules: string): Promise<string> {
  await c().secrets('POST', `sys/policies/acl/${policy}`, { body: { policy: rules } });
  const created = await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } });
  return created!.auth!.client_token as string;
}

beforeAll(async () => {
  // An empty CLOUD_* environment: the machine running the tests must not leak into the provider.
  srv = await startTestServer({ client: false, cloud: { env: {} }, logWrite: (l) => logs.push(l) });
});
afterAll(async () => srv?.close());

const SECRET = 'cLiEnT-sEcReT/0123456789+abcdefghijklmnop';

describe('create, read, update, delete', () => {
  it('create applies the defaults to every field not sent', async () => {
    const m = await newMount();
    const res = await c().secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIADEFAULTS', secret_key: SECRET } });
    expect(res).toBeUndefined(); // 204: nothing to say
    expect(await read(`${m.path}/config/client`)).toEqual({
      max_retries: -1,
      access_key: 'AKIADEFAULTS',
      endpoint: '',
      iam_endpoint: '',
      sts_endpoint: '',
      sts_region: '',
      use_sts_region_from_client: false,
      iam_server_id_header_value: '',
      allowed_sts_header_values: [],
    });
  });

  it('update changes only the fields sent, and keeps the stored secret key unless a new one is sent', async () => {
    const m = await newMount();
    await c().secrets('POST', `${m.path}/config/client`, {
      body: { access_key: 'AKIAPARTIAL', secret_key: SECRET, endpoint: 'https://ec2.example.test', iam_server_id_header_value: 'vault.example.test' },
    });
    const sealedBefore = JSON.parse(storedRaw(m.accessor)).secret_key_sealed;
    await c().secrets('POST', `${m.path}/config/client`, { body: { max_retries: 5 } });
    await c().secrets('POST', `${m.path}/config/client`, { body: { use_sts_region_from_client: true, endpoint: 'http://127.0.0.1:9' } });
    expect(await read(`${m.path}/config/client`)).toMatchObject({
      max_retries: 5,
      access_key: 'AKIAPARTIAL',
      endpoint: 'http://127.0.0.1:9',
      use_sts_region_from_client: true,
      iam_server_id_header_value: 'vault.example.test',
    });
    expect(JSON.parse(storedRaw(m.accessor)).secret_key_sealed).toBe(sealedBefore);
    expect((await providerFor(m.accessor).defaultCredentials.get()).secretAccessKey).toBe(SECRET);

    await c().secrets('POST', `${m.path}/config/client`, { body: { secret_key: 'another-secret' } });
    expect((await providerFor(m.accessor).defaultCredentials.get()).secretAccessKey).toBe('another-secret');
    // An empty secret_key removes it; the lone access_key is then not used, and the answer says so.
    const cleared = await c().secrets('POST', `${m.path}/config/client`, { body: { secret_key: '' } });
    expect(cleared?.warnings?.join(' ')).toMatch(/access_key is set without secret_key: the pair is not used/);
    expect(JSON.parse(storedRaw(m.accessor)).secret_key_sealed).toBe('');
    expect((await read(`${m.path}/config/client`))?.access_key).toBe('AKIAPARTIAL');
  });

  it('delete removes the configuration: read answers 404', async () => {
    const m = await newMount();
    expect((await statusOf(c().secrets('GET', `${m.path}/config/client`))).code).toBe(404);
    await c().secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIADELETE', secret_key: SECRET } });
    await c().secrets('DELETE', `${m.path}/config/client`);
    expect((await statusOf(c().secrets('GET', `${m.path}/config/client`))).code).toBe(404);
    expect(srv.server.services.store.get(CONFIG_TABLE, `${m.accessor}/config/client`)).toBeUndefined();
    // A create after the delete starts from the defaults again.
    await c().secrets('POST', `${m.path}/config/client`, { body: { max_retries: 2 } });
    expect(await read(`${m.path}/config/client`)).toMatchObject({ max_retries: 2, access_key: '' });
  });
});

describe('the secret key', () => {
  it('is never answered, stored in clear, written to the data files or logged', async () => {
    const m = await newMount();
    const secret = `${SECRET}-never-shown`;
    const written = await c().secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIANEVERSHOWN', secret_key: secret, sts_endpoint: 'http://127.0.0.1:9' } });
    const got = await c().secrets('GET', `${m.path}/config/client`);
    expect(got?.data).not.toHaveProperty('secret_key');
    expect(got?.data).not.toHaveProperty('secret_key_sealed');
    expect(JSON.stringify(got)).not.toContain(secret);
    expect(JSON.stringify(written)).not.toContain(secret);

    const raw = storedRaw(m.accessor);
    expect(raw).not.toContain(secret);
    expect(JSON.parse(raw).secret_key_sealed).toMatch(/\S{20,}/);
    // The search does find what is stored in clear, so its "false" for the secret means something.
    expect(inDataFiles('AKIANEVERSHOWN')).toBe(true);
    expect(inDataFiles(secret)).toBe(false);

    // A wrongly typed secret is refused without being echoed.
    const badType = await statusOf(c().secrets('POST', `${m.path}/config/client`, { body: { secret_key: [secret] } }));
    expect(badType.code).toBe(400);
    expect(badType.message).toMatch(/secret_key/);
    expect(badType.message).not.toContain(secret);
    // A refused request carrying the secret does not echo it either.
    const refused = await statusOf(c().secrets('POST', `${m.path}/config/client`, { body: { secret_key: secret, max_retries: -5 } }));
    expect(refused.code).toBe(400);
    expect(refused.message).not.toContain(secret);
    expect(logs.some((l) => l.includes(secret))).toBe(false);
  });
});

describe('validation', () => {
  const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
    ['max_retries below -1', { max_retries: -2 }, /max_retries.*-1/],
    ['max_retries not a number', { max_retries: 'many' }, /max_retries/],
    ['endpoint not http(s)', { endpoint: 'ftp://ec2.example.test' }, /^endpoint "ftp:\/\/ec2.example.test" must be an http:\/\/ or https:\/\/ URL/],
    ['iam_endpoint not a URL', { iam_endpoint: 'iam.example.test' }, /^iam_endpoint "iam.example.test" must be an http/],
    ['sts_endpoint without a host', { sts_endpoint: 'https://' }, /^sts_endpoint/],
    ['sts_region without sts_endpoint', { sts_region: 'eu-west-1' }, /sts_region "eu-west-1" is only used together with sts_endpoint/],
    ['a header name with a space', { allowed_sts_header_values: 'x-good,x bad' }, /allowed_sts_header_values: "x bad" is not a valid HTTP header name/],
    ['use_sts_region_from_client not a boolean', { use_sts_region_from_client: 'sometimes' }, /use_sts_region_from_client/],
  ];

  it.each(invalid)('%s: 400 naming the field; a new mount stays unconfigured', async (_what, body, message) => {
    const m = await newMount();
    const res = await statusOf(c().secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIAVALID', ...body } }));
    expect(res.code).toBe(400);
    expect(res.message).toMatch(message);
    expect((await statusOf(c().secrets('GET', `${m.path}/config/client`))).code).toBe(404);
  });

  it('an update with one invalid field changes nothing, the valid fields included', async () => {
    const m = await newMount();
    await c().secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIAKEEP', secret_key: SECRET, sts_endpoint: 'https://sts.eu-west-1.amazonaws.com', sts_region: 'eu-west-1' } });
    const before = await read(`${m.path}/config/client`);
    const sealedBefore = JSON.parse(storedRaw(m.accessor)).secret_key_sealed;
    for (const body of [
      { access_key: 'AKIACHANGED', secret_key: 'changed', max_retries: -3 },
      { access_key: 'AKIACHANGED', endpoint: 'mailto:ops@example.test' },
      // Clearing sts_endpoint while sts_region stays set leaves a region without its endpoint.
      { sts_endpoint: '' },
    ]) {
      expect((await statusOf(c().secrets('POST', `${m.path}/config/client`, { body }))).code).toBe(400);
    }
    expect(await read(`${m.path}/config/client`)).toEqual(before);
    expect(JSON.parse(storedRaw(m.accessor)).secret_key_sealed).toBe(sealedBefore);
    // Both cleared together is fine.
    await c().secrets('POST', `${m.path}/config/client`, { body: { sts_endpoint: '', sts_region: '' } });
    expect(await read(`${m.path}/config/client`)).toMatchObject({ sts_endpoint: '', sts_region: '' });
  });

  it('warns when sts_endpoint has no sts_region (signed for us-east-1), and accepts http and https endpoints', async () => {
    const m = await newMount();
    const res = await c().secrets('POST', `${m.path}/config/client`, { body: { sts_endpoint: 'https://sts.example.test/', endpoint: 'http://127.0.0.1:8080/ec2' } });
    expect(res?.warnings?.join(' ')).toMatch(/sts_endpoint is set without sts_region: calls to it are signed for us-east-1/);
    expect(await read(`${m.path}/config/client`)).toMatchObject({ sts_endpoint: 'https://sts.example.test/', endpoint: 'http://127.0.0.1:8080/ec2' });
    const fine = await c().secrets('POST', `${m.path}/config/client`, { body: { sts_region: 'eu-west-1' } });
    expect(fine).toBeUndefined();
  });
});

describe('allowed_sts_header_values', () => {
  it('is stored in canonical header form, from a comma string or an array, without duplicates', async () => {
    const m = await newMount();
    await c().secrets('POST', `${m.path}/config/client`, { body: { allowed_sts_header_values: 'x-custom-header, X-AMZ-META-thing,content-type' } });
    expect((await read(`${m.path}/config/client`))?.allowed_sts_header_values).toEqual(['X-Custom-Header', 'X-Amz-Meta-Thing', 'Content-Type']);
    await c().secrets('POST', `${m.path}/config/client`, { body: { allowed_sts_header_values: ['x-b3-traceid', 'X-B3-TRACEID', 'x_under-score'] } });
    expect((await read(`${m.path}/config/client`))?.allowed_sts_header_values).toEqual(['X-B3-Traceid', 'X_under-Score']);
    await c().secrets('POST', `${m.path}/config/client`, { body: { allowed_sts_header_values: [] } });
    expect((await read(`${m.path}/config/client`))?.allowed_sts_header_values).toEqual([]);
  });
});

describe("the mount's provider", () => {
  let simA: CloudSim;
  let simB: CloudSim;
  beforeAll(async () => {
    [simA, simB] = await Promise.all([startCloudSim({ account: '111111111111' }), startCloudSim({ account: '222222222222' })]);
  });
  afterAll(async () => Promise.all([simA?.close(), simB?.close()]));

  const keysOf = (sim: CloudSim) => ({ access_key: sim.rootCredentials.accessKeyId, secret_key: sim.rootCredentials.secretAccessKey, sts_endpoint: sim.url, sts_region: 'us-east-1' });

  it('is rebuilt after a write, so new credentials and endpoints take effect at once', async () => {
    const m = await newMount();
    await c().secrets('POST', `${m.path}/config/client`, { body: keysOf(simA) });
    // The provider caches the default account; without forgetting it, the next answer would still be A's.
    expect(await providerFor(m.accessor).defaultAccountId()).toBe('111111111111');
    expect(await providerFor(m.accessor).defaultAccountId()).toBe('111111111111');
    const callsToA = simA.requests.length;
    expect(callsToA).toBe(1);

    await c().secrets('POST', `${m.path}/config/client`, { body: keysOf(simB) });
    expect(await providerFor(m.accessor).defaultAccountId()).toBe('222222222222');
    expect(simB.requests.map((r) => r.action)).toEqual(['GetCallerIdentity']);
    expect(simA.requests.length).toBe(callsToA);
  });

  it('is rebuilt after a delete and when the mount is disabled', async () => {
    const m = await newMount();
    await c().secrets('POST', `${m.path}/config/client`, { body: keysOf(simA) });
    const configured = providerFor(m.accessor);
    expect(providerFor(m.accessor)).toBe(configured);
    await c().secrets('DELETE', `${m.path}/config/client`);
    const afterDelete = providerFor(m.accessor);
    expect(afterDelete).not.toBe(configured);
    // No config and an empty environment: the chain has fallen through to the metadata service.
    expect(afterDelete.defaultCredentials.kind).toBe('metadata');

    await c().secrets('POST', `${m.path}/config/client`, { body: keysOf(simA) });
    const beforeDisable = providerFor(m.accessor);
    await c().secrets('DELETE', `sys/auth/${m.path.slice('auth/'.length)}`);
    expect(providerFor(m.accessor)).not.toBe(beforeDisable);
  });
});

describe('credentials without keys in config/client', () => {
  it("come from CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY of the server's environment, else from the metadata service's instance role", async () => {
    const sim = await startCloudSim({ account: '333333333333' });
    const fromEnv = sim.addUser({ name: 'from-env' });
    const bound = sim.addUser({ name: 'bound' });
    sim.addRole({ name: 'node-role' });
    sim.addInstanceProfile({ name: 'node-profile', roleName: 'node-role' });
    sim.useInstance(sim.addInstance({ instanceProfile: 'node-profile' }).instanceId);
    const envKeys = { CLOUD_ACCESS_KEY: fromEnv.accessKeyId, CLOUD_SECRET_KEY: fromEnv.secretAccessKey };
    const servers = [
      await startTestServer({ client: false, cloud: { env: envKeys, metadataEndpoint: sim.metadataUrl } }),
      await startTestServer({ client: false, cloud: { env: {}, metadataEndpoint: sim.metadataUrl } }),
    ];
    try {
      const signers: string[][] = [];
      const metadataCalls: number[] = [];
      for (const s of servers) {
        await s.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
        await s.client().secrets('POST', 'auth/cloud/config/client', { body: { iam_endpoint: sim.url, sts_endpoint: sim.url, sts_region: 'us-east-1', max_retries: 0 } });
        const from = sim.requests.length;
        const metadataFrom = sim.metadataRequests.length;
        // Resolving the bound user's unique ID makes the server call the provider with its own credentials.
        await s.client().secrets('POST', 'auth/cloud/role/bound', { body: { bound_iam_principal_arn: bound.arn } });
        expect((await s.client().secrets('GET', 'auth/cloud/role/bound'))?.data?.bound_iam_principal_id).toEqual([bound.userId]);
        signers.push([...new Set(sim.requests.slice(from).map((r) => r.accessKeyId))]);
        metadataCalls.push(sim.metadataRequests.length - metadataFrom);
      }
      expect(signers[0]).toEqual([fromEnv.accessKeyId]);
      expect(metadataCalls[0]).toBe(0);
      expect(signers[1]).toEqual([expect.stringMatching(/^ASIA/)]);
      expect(metadataCalls[1]).toBeGreaterThan(0);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await sim.close();
    }
  });
});

describe('permissions', () => {
  it('a token without a policy on config/client gets 403 for every operation', async () => {
    const m = await newMount();
    await c().secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIAACL' } });
    const other = srv.client(await tokenWith('cloud-other-path', `path "${m.path}/config/identity" { capabilities = ["read", "update"] }`));
    for (const [method, body] of [['GET'], ['POST', { max_retries: 1 }], ['DELETE']] as const) {
      expect((await statusOf(other.secrets(method, `${m.path}/config/client`, body ? { body } : {}))).code).toBe(403);
    }
    expect((await read(`${m.path}/config/client`))?.max_retries).toBe(-1);
  });

  it('read allows only reading; create without update allows the first write only (the existence check)', async () => {
    const m = await newMount();
    const creator = srv.client(await tokenWith(`cloud-creator-${mounts}`, `path "${m.path}/config/client" { capabilities = ["create"] }`));
    const reader = srv.client(await tokenWith(`cloud-reader-${mounts}`, `path "${m.path}/config/client" { capabilities = ["read"] }`));
    await creator.secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIACREATED' } });
    expect((await statusOf(creator.secrets('POST', `${m.path}/config/client`, { body: { access_key: 'AKIAREWRITTEN' } }))).code).toBe(403);
    expect((await reader.secrets('GET', `${m.path}/config/client`))?.data?.access_key).toBe('AKIACREATED');
    expect((await statusOf(reader.secrets('POST', `${m.path}/config/client`, { body: { max_retries: 1 } }))).code).toBe(403);
    expect((await statusOf(reader.secrets('DELETE', `${m.path}/config/client`))).code).toBe(403);
    expect(await read(`${m.path}/config/client`)).toMatchObject({ access_key: 'AKIACREATED', max_retries: -1 });
  });
});
