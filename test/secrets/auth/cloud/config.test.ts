/**
 * The cloud mount's configuration endpoints that need no provider: identity integration, certificates,
 * STS roles per account, tidy settings (with their deprecated names), per-mount storage and cleanup on
 * disable.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../../support/in-process.js';
import { statusOf } from '../../../support/wait.js';

let srv: InProcessServer;
const c = () => srv.client();
const read = async (path: string) => (await c().secrets('GET', path))?.data;

beforeAll(async () => {
  srv = await startInProcessServer();
  await c().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
});
afterAll(async () => srv?.close());

describe('config/identity', () => {
  it('reads the defaults on a new mount', async () => {
    expect(await read('auth/cloud/config/identity')).toEqual({
      iam_alias: 'role_id',
      iam_metadata: ['account_id', 'auth_type'],
      ec2_alias: 'role_id',
      ec2_metadata: ['account_id', 'auth_type'],
    });
  });

  it('updates only the fields given', async () => {
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_alias: 'full_arn' } });
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { ec2_metadata: ['instance_id', 'region'] } });
    expect(await read('auth/cloud/config/identity')).toEqual({
      iam_alias: 'full_arn',
      iam_metadata: ['account_id', 'auth_type'],
      ec2_alias: 'role_id',
      ec2_metadata: ['instance_id', 'region'],
    });
  });

  it('[] or an empty string selects no metadata, "default" the defaults, and a comma string works like a list', async () => {
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_metadata: [] } });
    expect((await read('auth/cloud/config/identity'))?.iam_metadata).toEqual([]);
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { ec2_metadata: '' } });
    expect((await read('auth/cloud/config/identity'))?.ec2_metadata).toEqual([]);
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { ec2_metadata: 'default' } });
    expect((await read('auth/cloud/config/identity'))?.ec2_metadata).toEqual(['account_id', 'auth_type']);
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_metadata: 'client_arn,canonical_arn' } });
    expect((await read('auth/cloud/config/identity'))?.iam_metadata).toEqual(['client_arn', 'canonical_arn']);
    await c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_metadata: ['default'] } });
    expect((await read('auth/cloud/config/identity'))?.iam_metadata).toEqual(['account_id', 'auth_type']);
  });

  it('refuses invalid values with a 400 naming the field, and stores nothing of a bad request', async () => {
    const before = await read('auth/cloud/config/identity');
    const badAlias = await statusOf(c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_alias: 'instance_id' } }));
    expect(badAlias.code).toBe(400);
    expect(badAlias.message).toMatch(/iam_alias/);
    expect((await statusOf(c().secrets('POST', 'auth/cloud/config/identity', { body: { ec2_alias: 'full_arn' } }))).message).toMatch(/ec2_alias/);
    const mixed = await statusOf(c().secrets('POST', 'auth/cloud/config/identity', { body: { ec2_metadata: ['default', 'region'] } }));
    expect(mixed).toMatchObject({ code: 400 });
    expect(mixed.message).toMatch(/contains default - default can't be used in combination with other fields/);
    const unknown = await statusOf(c().secrets('POST', 'auth/cloud/config/identity', { body: { iam_alias: 'unique_id', ec2_metadata: ['ami_id', 'client_arn'] } }));
    expect(unknown.code).toBe(400);
    expect(unknown.message).toMatch(/ec2_metadata.*unavailable field \(client_arn\)/);
    expect(await read('auth/cloud/config/identity')).toEqual(before);
  });
});

describe('config/sts', () => {
  const role = 'arn:aws:iam::123456789012:role/svc-reader';

  it('writes, reads, lists and deletes the STS role of an account', async () => {
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/config/sts'))).code).toBe(404);
    await c().secrets('POST', 'auth/cloud/config/sts/123456789012', { body: { sts_role: role } });
    await c().secrets('POST', 'auth/cloud/config/sts/210987654321', { body: { sts_role: 'arn:aws-us-gov:iam::210987654321:role/path/r' } });
    expect(await read('auth/cloud/config/sts/123456789012')).toEqual({ sts_role: role });
    expect((await c().secrets('LIST', 'auth/cloud/config/sts'))?.data?.keys).toEqual(['123456789012', '210987654321']);
    await c().secrets('DELETE', 'auth/cloud/config/sts/210987654321');
    expect((await statusOf(c().secrets('GET', 'auth/cloud/config/sts/210987654321'))).code).toBe(404);
    expect((await c().secrets('LIST', 'auth/cloud/config/sts'))?.data?.keys).toEqual(['123456789012']);
  });

  it('refuses a malformed account ID, a missing or malformed role ARN', async () => {
    expect((await statusOf(c().secrets('POST', 'auth/cloud/config/sts/12345', { body: { sts_role: role } }))).message).toMatch(/account_id/);
    expect((await statusOf(c().secrets('POST', 'auth/cloud/config/sts/123456789012', { body: {} }))).message).toMatch(/sts_role/);
    const notArn = await statusOf(c().secrets('POST', 'auth/cloud/config/sts/123456789012', { body: { sts_role: 'svc-reader' } }));
    expect(notArn).toMatchObject({ code: 400 });
    expect(notArn.message).toMatch(/sts_role "svc-reader" is not a role ARN/);
    expect(await read('auth/cloud/config/sts/123456789012')).toEqual({ sts_role: role });
  });
});

describe('config/tidy', () => {
  for (const list of ['identity-accesslist', 'roletag-denylist']) {
    it(`${list}: not found until written (as Vault), a 72h safety buffer by default, partial updates, not found once deleted`, async () => {
      expect((await statusOf(c().secrets('GET', `auth/cloud/config/tidy/${list}`))).code).toBe(404);
      await c().secrets('POST', `auth/cloud/config/tidy/${list}`, { body: { disable_periodic_tidy: false } });
      expect(await read(`auth/cloud/config/tidy/${list}`)).toEqual({ safety_buffer: 259200, disable_periodic_tidy: false });
      await c().secrets('POST', `auth/cloud/config/tidy/${list}`, { body: { safety_buffer: '24h' } });
      await c().secrets('POST', `auth/cloud/config/tidy/${list}`, { body: { disable_periodic_tidy: true } });
      expect(await read(`auth/cloud/config/tidy/${list}`)).toEqual({ safety_buffer: 86400, disable_periodic_tidy: true });
      expect((await statusOf(c().secrets('POST', `auth/cloud/config/tidy/${list}`, { body: { safety_buffer: 'soon' } }))).message).toMatch(/safety_buffer/);
      const negative = await statusOf(c().secrets('POST', `auth/cloud/config/tidy/${list}`, { body: { safety_buffer: -60 } }));
      expect([negative.code, negative.message]).toEqual([400, 'safety_buffer cannot be negative']);
      expect((await read(`auth/cloud/config/tidy/${list}`))?.safety_buffer).toBe(86400);
      await c().secrets('DELETE', `auth/cloud/config/tidy/${list}`);
      expect((await statusOf(c().secrets('GET', `auth/cloud/config/tidy/${list}`))).code).toBe(404);
    });
  }

  it('serves the deprecated names as aliases of the current paths, without a warning (as Vault)', async () => {
    const written = await c().secrets('POST', 'auth/cloud/config/tidy/identity-whitelist', { body: { safety_buffer: 3600 } });
    expect(written).toBeUndefined();
    expect((await read('auth/cloud/config/tidy/identity-accesslist'))?.safety_buffer).toBe(3600);
    expect((await read('auth/cloud/config/tidy/identity-whitelist'))?.safety_buffer).toBe(3600);
    expect((await statusOf(c().secrets('GET', 'auth/cloud/config/tidy/roletag-blacklist'))).code).toBe(404);
  });
});

describe('the mount', () => {
  it('keeps each mount\'s configuration apart, and a disabled mount\'s configuration goes with it', async () => {
    await c().secrets('POST', 'sys/auth/other', { body: { type: 'cloud' } });
    await c().secrets('POST', 'auth/other/config/identity', { body: { ec2_alias: 'image_id' } });
    expect((await read('auth/other/config/identity'))?.ec2_alias).toBe('image_id');
    expect((await read('auth/cloud/config/identity'))?.ec2_alias).toBe('role_id');
    await c().secrets('DELETE', 'sys/auth/other');
    await c().secrets('POST', 'sys/auth/other', { body: { type: 'cloud' } });
    expect((await read('auth/other/config/identity'))?.ec2_alias).toBe('role_id');
  });
});

describe('config/certificate', () => {
  /** A real self-signed certificate, made with the system's openssl. */
  function makeCert(algorithm: 'rsa:2048' | 'dsa'): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-cert-'));
    try {
      const keyArgs = algorithm === 'dsa' ? (execFileSync('openssl', ['dsaparam', '-out', path.join(dir, 'p.pem'), '1024'], { stdio: 'ignore' }), ['-newkey', `dsa:${path.join(dir, 'p.pem')}`]) : ['-newkey', algorithm];
      execFileSync('openssl', ['req', '-x509', ...keyArgs, '-nodes', '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem'), '-subj', '/CN=svc-test', '-days', '2'], { stdio: 'ignore' });
      return readFileSync(path.join(dir, 'c.pem'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('registers PEM or base64 PEM certificates of either type, reads, lists and deletes them', async () => {
    const rsa = makeCert('rsa:2048');
    const dsa = makeCert('dsa');
    expect((await statusOf(c().secrets('LIST', 'auth/cloud/config/certificates'))).code).toBe(404);
    await c().secrets('POST', 'auth/cloud/config/certificate/sig', { body: { cloud_public_cert: Buffer.from(rsa).toString('base64'), type: 'IDENTITY' } });
    await c().secrets('POST', 'auth/cloud/config/certificate/legacy', { body: { cloud_public_cert: dsa } });
    expect(await read('auth/cloud/config/certificate/sig')).toEqual({ cloud_public_cert: rsa, type: 'identity' });
    expect(await read('auth/cloud/config/certificate/legacy')).toEqual({ cloud_public_cert: dsa, type: 'pkcs7' });
    expect((await c().secrets('LIST', 'auth/cloud/config/certificates'))?.data?.keys).toEqual(['legacy', 'sig']);
    await c().secrets('DELETE', 'auth/cloud/config/certificate/sig');
    expect((await statusOf(c().secrets('GET', 'auth/cloud/config/certificate/sig'))).code).toBe(404);
  });

  it('refuses what is not exactly one valid certificate, and an unknown type', async () => {
    const rsa = makeCert('rsa:2048');
    const body = (cloud_public_cert: string, type?: string) => ({ body: { cloud_public_cert, ...(type ? { type } : {}) } });
    const cases: Array<[string, ReturnType<typeof body>, RegExp]> = [
      ['missing', { body: {} } as ReturnType<typeof body>, /cloud_public_cert/],
      ['empty', body(''), /cloud_public_cert/],
      ['not a certificate', body('hello'), /neither a PEM certificate nor base64/],
      ['two blocks', body(rsa + rsa), /exactly one PEM certificate block, found 2/],
      // The DER's first bytes (its outer SEQUENCE's tag and length) zeroed: never a certificate, whatever the key.
      ['corrupt', body(rsa.replace(/(-----BEGIN CERTIFICATE-----\r?\n)[A-Za-z0-9+/]{8}/, '$1AAAAAAAA')), /not a valid X\.509 certificate/],
      ['bad type', body(rsa, 'x509'), /type/],
    ];
    for (const [what, b, message] of cases) {
      const answer = await statusOf(c().secrets('POST', 'auth/cloud/config/certificate/bad', b));
      expect(answer.code, what).toBe(400);
      expect(answer.message, what).toMatch(message);
    }
    expect((await statusOf(c().secrets('GET', 'auth/cloud/config/certificate/bad'))).code).toBe(404);
  });
});
