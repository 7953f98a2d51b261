/**
 * Vault's names for the fields the cloud method renamed: each is accepted in requests as an alias of the
 * product's name, the product's name wins when both come, and reads answer only the product's name.
 * Also: Vault's metadata value inferred_aws_region, the help text, and the CLI flag generated from an alias.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { statusOf } from '../../../support/wait.js';

let srv: TestServer;
let pem: string;
const c = () => srv.client();
const read = async (p: string) => (await c().secrets('GET', p))?.data as Record<string, unknown>;

/** A real self-signed certificate, made with the system's openssl. */
function makeCert(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem'), '-subj', '/CN=svc-alias', '-days', '2'], {
      stdio: 'ignore',
    });
    return readFileSync(path.join(dir, 'c.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  srv = await startTestServer({ client: false });
  await c().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
  pem = makeCert();
});
afterAll(async () => srv?.close());

describe('config/certificate: aws_public_cert', () => {
  it('is accepted for cloud_public_cert; the read answers cloud_public_cert', async () => {
    await c().secrets('POST', 'auth/cloud/config/certificate/vault-name', { body: { aws_public_cert: pem, type: 'pkcs7' } });
    expect(await read('auth/cloud/config/certificate/vault-name')).toEqual({ cloud_public_cert: pem, type: 'pkcs7' });
  });

  it('loses to cloud_public_cert when both are sent', async () => {
    await c().secrets('POST', 'auth/cloud/config/certificate/both', { body: { cloud_public_cert: pem, aws_public_cert: 'not a certificate' } });
    expect(await read('auth/cloud/config/certificate/both')).toEqual({ cloud_public_cert: pem, type: 'pkcs7' });
  });

  it('a bad value under the alias is a 400 naming the name that was sent', async () => {
    const empty = await statusOf(c().secrets('POST', 'auth/cloud/config/certificate/bad', { body: { aws_public_cert: '' } }));
    expect(empty).toEqual({ code: 400, message: 'field "aws_public_cert" must not be empty' });
    const wrongType = await statusOf(c().secrets('POST', 'auth/cloud/config/certificate/bad', { body: { aws_public_cert: { pem } } }));
    expect(wrongType.code).toBe(400);
    expect(wrongType.message).toMatch(/^field "aws_public_cert" must be a string/);
    expect((await statusOf(c().secrets('GET', 'auth/cloud/config/certificate/bad'))).code).toBe(404);
  });
});

describe('role: inferred_aws_region and resolve_aws_unique_ids', () => {
  // A wildcard bind needs no unique-ID resolution, so no provider is involved.
  const base = { auth_type: 'iam', bound_iam_principal_arn: 'arn:aws:iam::123456789012:role/*', inferred_entity_type: 'ec2_instance' };

  it("are accepted for the product's names; the read answers only those", async () => {
    await c().secrets('POST', 'auth/cloud/role/vault-names', { body: { ...base, inferred_aws_region: 'us-west-2', resolve_aws_unique_ids: false } });
    const role = await read('auth/cloud/role/vault-names');
    expect(role).toMatchObject({ inferred_cloud_region: 'us-west-2', resolve_cloud_unique_ids: false });
    expect(Object.keys(role).filter((k) => k.includes('aws'))).toEqual([]);
  });

  it("lose to the product's names when both are sent", async () => {
    await c().secrets('POST', 'auth/cloud/role/both', {
      body: { ...base, inferred_cloud_region: 'eu-west-1', inferred_aws_region: 'us-west-2', resolve_cloud_unique_ids: true, resolve_aws_unique_ids: false },
    });
    expect(await read('auth/cloud/role/both')).toMatchObject({ inferred_cloud_region: 'eu-west-1', resolve_cloud_unique_ids: true });
  });

  it('update the role as the own names do: the rules of the field apply under the alias', async () => {
    await c().secrets('POST', 'auth/cloud/role/vault-names', { body: { inferred_aws_region: 'ap-south-1' } });
    expect((await read('auth/cloud/role/vault-names')).inferred_cloud_region).toBe('ap-south-1');
    await c().secrets('POST', 'auth/cloud/role/on', { body: { ...base, inferred_aws_region: 'us-east-1' } });
    const off = await statusOf(c().secrets('POST', 'auth/cloud/role/on', { body: { resolve_aws_unique_ids: false } }));
    expect(off).toEqual({ code: 400, message: 'changing resolve_cloud_unique_ids from true to false is not allowed' });
    const notBool = await statusOf(c().secrets('POST', 'auth/cloud/role/on', { body: { resolve_aws_unique_ids: 'maybe' } }));
    expect(notBool.code).toBe(400);
    expect(notBool.message).toMatch(/^field "resolve_aws_unique_ids" must be a boolean/);
  });
});

describe("config/identity: Vault's metadata value inferred_aws_region", () => {
  it('is stored, and read, as inferred_cloud_region', async () => {
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_metadata: ['account_id', 'inferred_aws_region'] } });
    expect((await read('auth/cloud/config/identity')).iam_metadata).toEqual(['account_id', 'inferred_cloud_region']);
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_metadata: 'inferred_aws_region,inferred_cloud_region' } });
    expect((await read('auth/cloud/config/identity')).iam_metadata).toEqual(['inferred_cloud_region']);
  });
});

describe('help and the CLI', () => {
  it("path-help names the upstream name and value beside the product's field", async () => {
    const cert = (await c().secrets('GET', 'auth/cloud/config/certificate/x', { query: { help: '1' } })) as unknown as { help: string };
    expect(cert.help).toMatch(/cloud_public_cert \(string\)\n\n {8}.*Also accepted as aws_public_cert\./);
    expect(cert.help).not.toMatch(/^ {4}aws_public_cert/m);
    const identity = (await c().secrets('GET', 'auth/cloud/config/identity', { query: { help: '1' } })) as unknown as { help: string };
    expect(identity.help).toContain('The value inferred_aws_region is also accepted for inferred_cloud_region.');
  });

  it('the flag of a field with an upstream name also takes that name (-aws-public-cert=@FILE)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-alias-cli-'));
    try {
      const file = path.join(dir, 'cert.pem');
      writeFileSync(file, pem);
      const res = await srv.cli(['auth', 'cloud', 'config', 'certificate', 'write', `-aws-public-cert=@${file}`, 'from-cli']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(await read('auth/cloud/config/certificate/from-cli')).toEqual({ cloud_public_cert: pem, type: 'pkcs7' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
