/**
 * `svc server -dev -dev-cloud` as a newcomer runs it: the built bin/svc starts the cloud simulator, sets up
 * the dev server's auth/cloud mount to trust it and prints how to log in; and `-cloud-allow-sha1`, from the
 * flag or the configuration file, reaches the server.
 */
import aws4 from 'aws4';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir, REPO, runCli } from '../support/server.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { statusOf, until } from '../support/wait.js';
import { metadata } from '../support/imds.js';

let home: string;

beforeAll(async () => {
  home = await makeTempDir('svc-e2e-dev-cloud-');
});

afterEach(() => {
  // A failed assertion must not leave a server behind.
  for (const child of running) if (child !== devCloud?.child) child.kill('SIGKILL');
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await rm(home, { recursive: true, force: true });
});

async function stop(proc: SpawnedServer) {
  proc.child.kill('SIGTERM');
  return proc.exited;
}

const noNewlines = (s: string) => s.replace(/\s+/g, '');

/** POST auth/cloud/login with no token, as an instance would. */
function login(url: string, body: Record<string, unknown>) {
  return new ApiClient({ address: url }).secrets('POST', 'auth/cloud/login', { body });
}

/** An iam login's fields: GetCallerIdentity signed now with the instance role's credentials from the metadata service. */
async function iamLoginFields(metadataUrl: string, role: string) {
  const get = await metadata(metadataUrl, 60);
  const creds = JSON.parse(await get(`/latest/meta-data/iam/security-credentials/${await get('/latest/meta-data/iam/security-credentials/')}`)) as Record<string, string>;
  const body = 'Action=GetCallerIdentity&Version=2011-06-15';
  const signed = aws4.sign(
    { service: 'sts', region: 'us-east-1', method: 'POST', host: 'sts.amazonaws.com', path: '/', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' } },
    { accessKeyId: creds.AccessKeyId, secretAccessKey: creds.SecretAccessKey, sessionToken: creds.Token },
  );
  const headers = Object.fromEntries(Object.entries(signed.headers ?? {}).map(([k, v]) => [k, [String(v)]]));
  const b64 = (t: string) => Buffer.from(t).toString('base64');
  return {
    role,
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64(body),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}

let devCloud: SpawnedServer | undefined;

describe('svc server -dev -dev-cloud', () => {
  let metadataUrl: string;
  let api: ApiClient;

  beforeAll(async () => {
    devCloud = await spawnServer(['-dev', '-dev-cloud', '-port=0'], { HOME: home });
    metadataUrl = /export CLOUD_METADATA_ENDPOINT='(http:\/\/127\.0\.0\.1:\d+)'/.exec(devCloud.stdout())?.[1] ?? '';
    api = new ApiClient({ address: devCloud.url, token: devCloud.rootToken });
  });

  afterAll(async () => {
    if (devCloud && running.has(devCloud.child)) await stop(devCloud);
  });

  it('prints where the metadata service is and the two login commands', () => {
    const out = devCloud!.stdout();
    expect(metadataUrl, out).not.toBe('');
    expect(out).toContain('    svc login -method=cloud type=ec2 role=dev-ec2\n');
    expect(out).toContain('    svc login -method=cloud type=iam role=dev-iam\n');
    expect(out).toMatch(/instance i-[0-9a-f]{17} with role dev-instance/);
  });

  it('points auth/cloud at the simulator with its root credentials', async () => {
    const config = (await api.secrets('GET', 'auth/cloud/config/client'))!.data!;
    expect(config).toMatchObject({ endpoint: metadataUrl, iam_endpoint: metadataUrl, sts_endpoint: metadataUrl, sts_region: 'us-east-1' });
    expect(config.access_key).toMatch(/^AKIA[A-Z2-7]{16}$/);
    expect(config).not.toHaveProperty('secret_key');
  });

  it("trusts the simulator's three signing certificates", async () => {
    const list = (await api.secrets('LIST', 'auth/cloud/config/certificates'))!.data!;
    expect(list.keys).toEqual(['dev-cloud-identity', 'dev-cloud-pkcs7', 'dev-cloud-rsa2048']);
    const types: Record<string, string> = { 'dev-cloud-identity': 'identity', 'dev-cloud-pkcs7': 'pkcs7', 'dev-cloud-rsa2048': 'pkcs7' };
    for (const [name, type] of Object.entries(types)) {
      const cert = (await api.secrets('GET', `auth/cloud/config/certificate/${name}`))!.data!;
      expect(cert.type, name).toBe(type);
      expect(cert.cloud_public_cert, name).toMatch(/^-----BEGIN CERTIFICATE-----/);
    }
  });

  it('has an ec2 role bound to the simulated account and an iam role bound to the instance role', async () => {
    const get = await metadata(metadataUrl, 60);
    const doc = JSON.parse(await get('/latest/dynamic/instance-identity/document')) as { accountId: string; instanceId: string };
    const ec2 = (await api.secrets('GET', 'auth/cloud/role/dev-ec2'))!.data!;
    expect(ec2).toMatchObject({ auth_type: 'ec2', bound_account_id: [doc.accountId], token_policies: ['default'] });
    const iam = (await api.secrets('GET', 'auth/cloud/role/dev-iam'))!.data!;
    expect(iam).toMatchObject({ auth_type: 'iam', bound_iam_principal_arn: [`arn:aws:iam::${doc.accountId}:role/dev-instance`], token_policies: ['default'] });
    // Resolved through the simulator's GetRole when the role was written.
    expect(iam.bound_iam_principal_id).toEqual([expect.stringMatching(/^AROA/)]);
  });

  it("serves the running instance's documents and role credentials over IMDSv2 only", async () => {
    expect((await fetch(`${metadataUrl}/latest/dynamic/instance-identity/document`)).status).toBe(401);
    const get = await metadata(metadataUrl, 60);
    const doc = JSON.parse(await get('/latest/dynamic/instance-identity/document')) as Record<string, string>;
    expect(doc).toMatchObject({ region: 'us-east-1', instanceId: expect.stringMatching(/^i-/) });
    for (const kind of ['signature', 'pkcs7', 'rsa2048']) expect((await get(`/latest/dynamic/instance-identity/${kind}`)).length, kind).toBeGreaterThan(100);
    expect(await get('/latest/meta-data/iam/security-credentials/')).toBe('dev-instance');
    const creds = JSON.parse(await get('/latest/meta-data/iam/security-credentials/dev-instance')) as Record<string, string>;
    expect(creds).toMatchObject({ Code: 'Success', AccessKeyId: expect.stringMatching(/^ASIA/), Token: expect.any(String) });
  });

  it('logs the instance in with the rsa2048 document; the nonce it hands out is needed to log in again', async () => {
    const get = await metadata(metadataUrl, 60);
    const doc = JSON.parse(await get('/latest/dynamic/instance-identity/document')) as { accountId: string };
    const pkcs7 = noNewlines(await get('/latest/dynamic/instance-identity/rsa2048'));
    const first = (await login(devCloud!.url, { role: 'dev-ec2', pkcs7 }))!.auth!;
    expect(first).toMatchObject({ token_policies: ['default'], metadata: { account_id: doc.accountId, auth_type: 'ec2', role: 'dev-ec2' } });
    const nonce = (first.metadata as Record<string, string>).nonce;
    expect(nonce).toBeTruthy();
    const self = (await new ApiClient({ address: devCloud!.url, token: first.client_token as string }).secrets('GET', 'auth/token/lookup-self'))!.data!;
    expect(self.policies).toEqual(['default']);

    expect((await statusOf(login(devCloud!.url, { role: 'dev-ec2', pkcs7 }))).code).toBe(400);
    const again = (await login(devCloud!.url, { role: 'dev-ec2', pkcs7, nonce }))!.auth!;
    expect(again.client_token).not.toBe(first.client_token);
  });

  it('refuses both SHA-1 flows, since -cloud-allow-sha1 is off: the DSA pkcs7 document, and identity + signature', async () => {
    const get = await metadata(metadataUrl, 60);
    const dsa = await statusOf(login(devCloud!.url, { role: 'dev-ec2', pkcs7: noNewlines(await get('/latest/dynamic/instance-identity/pkcs7')) }));
    expect(dsa.code).toBe(400);
    expect(dsa.message).toMatch(/SHA-1/);
    const identity = Buffer.from(await get('/latest/dynamic/instance-identity/document')).toString('base64');
    const signature = noNewlines(await get('/latest/dynamic/instance-identity/signature'));
    const pair = await statusOf(login(devCloud!.url, { role: 'dev-ec2', identity, signature }));
    expect(pair.code).toBe(400);
    expect(pair.message).toMatch(/identity and signature login relies on the provider's SHA-1 signed certificate.*-cloud-allow-sha1/);
  });

  it('logs the instance role in with a signed GetCallerIdentity request (iam)', async () => {
    const get = await metadata(metadataUrl, 60);
    const doc = JSON.parse(await get('/latest/dynamic/instance-identity/document')) as { accountId: string };
    const auth = (await login(devCloud!.url, await iamLoginFields(metadataUrl, 'dev-iam')))!.auth!;
    expect(auth).toMatchObject({ token_policies: ['default'], metadata: { account_id: doc.accountId, auth_type: 'iam' } });
  });

  it('lets `svc login -method=cloud` log in with the exported endpoint, as the banner says', async () => {
    const get = await metadata(metadataUrl, 60);
    const { instanceId } = JSON.parse(await get('/latest/dynamic/instance-identity/document')) as { instanceId: string };
    // The instance logged in above and holds a nonce this fresh CLI does not know: forget that login.
    await api.secrets('DELETE', `auth/cloud/identity-accesslist/${instanceId}`);
    const env = { HOME: home, SVC_ADDR: devCloud!.url, NO_COLOR: '1', CLOUD_METADATA_ENDPOINT: metadataUrl };
    for (const args of [['type=ec2', 'role=dev-ec2'], ['type=iam', 'role=dev-iam']]) {
      const result = await runCli(['login', '-method=cloud', '-format=json', ...args], env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(JSON.parse(result.stdout).auth.token_policies, args.join(' ')).toEqual(['default']);
    }
  });

  it('stops the simulator when the server stops', async () => {
    const { code } = await stop(devCloud!);
    expect(code).toBe(0);
    await expect(fetch(`${metadataUrl}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } })).rejects.toThrow();
  });
});

describe('svc server -dev-cloud without -dev', () => {
  it('is a usage error', async () => {
    const result = await runCli(['server', '-dev-cloud', '-data-dir', path.join(home, 'never')], { HOME: home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('-dev-cloud is only allowed with -dev');
    expect(result.stderr).toContain('Usage: svc server');
    expect(existsSync(path.join(home, 'never'))).toBe(false);
  });
});

describe('svc server -cloud-allow-sha1', () => {
  const warning = '[WARN] -cloud-allow-sha1: ec2 logins accept SHA-1 signatures (the DSA pkcs7 document, and identity + signature';

  it('warns at start that SHA-1 is accepted, and the login then accepts the DSA pkcs7 document and identity + signature', async () => {
    const proc = await spawnServer(['-dev', '-dev-cloud', '-cloud-allow-sha1', '-port=0'], { HOME: home });
    await until(async () => proc.stderr(), (err) => err.includes(warning), 'the SHA-1 warning');
    const metadataUrl = /export CLOUD_METADATA_ENDPOINT='([^']+)'/.exec(proc.stdout())![1];
    const get = await metadata(metadataUrl, 60);
    const pkcs7 = noNewlines(await get('/latest/dynamic/instance-identity/pkcs7'));
    const first = (await login(proc.url, { role: 'dev-ec2', pkcs7 }))!.auth!;
    expect(first.client_token).toBeTruthy();
    const identity = Buffer.from(await get('/latest/dynamic/instance-identity/document')).toString('base64');
    const signature = noNewlines(await get('/latest/dynamic/instance-identity/signature'));
    const nonce = (first.metadata as Record<string, string>).nonce;
    expect((await login(proc.url, { role: 'dev-ec2', identity, signature, nonce }))!.auth!.client_token).toBeTruthy();
    await stop(proc);
  });

  it('warns when the config file turns it on', async () => {

    const file = path.join(home, 'sha1.hcl');
    await writeFile(file, 'cloud {\n  allow_sha1 = true\n}\n');
    const config = await spawnServer(['-dev', `-config=${file}`, '-port=0'], { HOME: home });
    await until(async () => config.stderr(), (err) => err.includes(warning), 'the SHA-1 warning');
    await stop(config);
  });

  it('is off by default, and the flag wins over the file', async () => {
    const file = path.join(home, 'sha1-off.hcl');
    await writeFile(file, 'cloud {\n  allow_sha1 = true\n}\n');
    const proc = await spawnServer(['-dev', `-config=${file}`, '-cloud-allow-sha1=false', '-port=0'], { HOME: home });
    await until(async () => proc.stderr(), (err) => err.includes('[INFO] listening on'), 'the listening line');
    expect(proc.stderr()).not.toContain('-cloud-allow-sha1');
    await stop(proc);
  });
});

describe.skipIf(!existsSync(path.join(REPO, 'dist/dev-cloud.cjs')))('the simulator in the build', () => {
  const bundle = (name: string) => readFileSync(path.join(REPO, 'dist', name), 'utf8');

  it('ships in dist/dev-cloud.cjs only, loaded by -dev-cloud', () => {
    expect(bundle('dev-cloud.cjs')).toMatch(/^\/\/ src\/cloudsim\/index\.ts$/m);
    expect(bundle('main.cjs')).not.toMatch(/^\/\/ (src\/cloudsim|src\/server\/dev-cloud)/m);
    expect(bundle('server.cjs')).not.toMatch(/^\/\/ (src\/cloudsim|src\/server\/dev-cloud)/m);
    // `svc server`'s body requires it, only with -dev-cloud.
    expect(bundle('cli-run.cjs')).toContain('require("./dev-cloud.cjs")');
  });
});
