/**
 * `svc auth cloud config ...` and `svc auth cloud rotate-root`, run as the built bin/svc against the real
 * server (and cloudsim, for the calls the server makes to the provider): the flags generated from the
 * field schemas reach the server under the field names, @FILE values are read, and reads print what the
 * server stored.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCredentials } from '../../../src/cloud/credentials.js';
import { identityClient } from '../../../src/cloud/identity.js';
import { startCloudSim, type CloudSim } from '../../../src/cloudsim/index.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { data, expectOk } from './cli-checks.js';

let srv: TestServer;
let sim: CloudSim;
let dir: string;

beforeAll(async () => {
  sim = await startCloudSim({ account: '123456789012' });
  srv = await startTestServer({ client: false, cloud: { env: {} } });
  await srv.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-auth-cloud-cli-'));
});
afterAll(async () => {
  await srv?.close();
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});


const ok = (args: string[]) => expectOk(srv, args);

describe('svc auth cloud config client and rotate-root', () => {
  it('writes the client config (secret key from a file), rotates the key at the provider and deletes the config', async () => {
    const user = sim.addUser({ name: 'svc-cli-rotate' });
    const secretFile = path.join(dir, 'secret.txt');
    // With the newline `echo` leaves: the key must still sign, so the file's line end is not part of it.
    await writeFile(secretFile, `${user.secretAccessKey}\n`);

    const written = await ok([
      'auth', 'cloud', 'config', 'client', 'write',
      `-access-key=${user.accessKeyId}`, `-secret-key=@${secretFile}`, `-iam-endpoint=${sim.url}`,
      '-allowed-sts-header-values=X-Custom-A,X-Custom-B', '-max-retries=2', '-use-sts-region-from-client',
    ]);
    expect(written.stdout).toBe('Success! Data written to: auth/cloud/config/client\n');

    const read = data((await ok(['auth', 'cloud', 'config', 'client', 'read', '-format=json'])).stdout);
    expect(read).toMatchObject({
      access_key: user.accessKeyId,
      iam_endpoint: sim.url,
      allowed_sts_header_values: ['X-Custom-A', 'X-Custom-B'],
      max_retries: 2,
      use_sts_region_from_client: true,
    });
    expect(JSON.stringify(read)).not.toContain(user.secretAccessKey);

    const rotated = await ok(['auth', 'cloud', 'rotate-root']);
    const newKey = /^access_key\s+(\S+)$/m.exec(rotated.stdout)?.[1];
    expect(newKey, rotated.stdout).toMatch(/^AKIA/);
    expect(newKey).not.toBe(user.accessKeyId);
    const root = identityClient({ endpoint: sim.url, credentials: staticCredentials({ accessKeyId: sim.rootCredentials.accessKeyId, secretAccessKey: sim.rootCredentials.secretAccessKey }) });
    expect((await root.listAccessKeys(user.name)).map((k) => k.accessKeyId)).toEqual([newKey]);
    expect((await ok(['auth', 'cloud', 'config', 'client', 'read', '-field=access_key'])).stdout).toBe(newKey);

    const again = await ok(['auth', 'cloud', 'rotate-root', '-field=access_key']);
    expect(again.stdout).toMatch(/^AKIA\w+$/);
    expect(again.stdout).not.toBe(newKey);

    expect((await ok(['auth', 'cloud', 'config', 'client', 'delete'])).stdout).toBe('Success! Data deleted (if it existed) at: auth/cloud/config/client\n');
    const gone = await srv.cli(['auth', 'cloud', 'config', 'client', 'read']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No value found at auth/cloud/config/client');
  });

  it('rotate-root without a configured key is a server error (exit 2) with the server\'s message', async () => {
    await srv.client().secrets('POST', 'sys/auth/unconfigured', { body: { type: 'cloud' } });
    const res = await srv.cli(['auth', 'cloud', 'rotate-root', '-path=unconfigured']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Code: 400\. Errors:\n\n\* can't update client config because it's unset$/m);
  });

  it('a secret key file that cannot be read is a usage error', async () => {
    const res = await srv.cli(['auth', 'cloud', 'config', 'client', 'write', '-access-key=AKIAEXAMPLE', `-secret-key=@${path.join(dir, 'missing.txt')}`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('-secret-key: cannot read');
  });
});

describe('svc auth cloud config identity', () => {
  it('writes the given fields and reads them back, in json and as a table', async () => {
    await ok(['auth', 'cloud', 'config', 'identity', 'write', '-iam-alias=full_arn', '-ec2-metadata=instance_id,region']);
    expect(data((await ok(['auth', 'cloud', 'config', 'identity', 'read', '-format=json'])).stdout)).toEqual({
      iam_alias: 'full_arn',
      iam_metadata: ['account_id', 'auth_type'],
      ec2_alias: 'role_id',
      ec2_metadata: ['instance_id', 'region'],
    });
    const table = (await ok(['auth', 'cloud', 'config', 'identity', 'read'])).stdout;
    expect(table).toMatch(/^iam_alias\s+full_arn$/m);
    expect(table).toMatch(/^ec2_metadata\s+\[instance_id region\]$/m);
  });

  it('a value outside the allowed ones is refused by the CLI before any request', async () => {
    const res = await srv.cli(['auth', 'cloud', 'config', 'identity', 'write', '-iam-alias=instance_id']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('-iam-alias');
  });
});

describe('svc auth cloud config certificate', () => {
  it('registers certificates from @FILE and stdin, reads, lists and deletes them', async () => {
    const empty = await srv.cli(['auth', 'cloud', 'config', 'certificate', 'list']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No value found at auth/cloud/config/certificates/');

    const pemFile = path.join(dir, 'pkcs7.pem');
    await writeFile(pemFile, sim.certificates.pkcs7);
    await ok(['auth', 'cloud', 'config', 'certificate', 'write', `-cloud-public-cert=@${pemFile}`, 'sim-pkcs7']);
    const fromStdin = await srv.cli(['auth', 'cloud', 'config', 'certificate', 'write', '-type=identity', '-cloud-public-cert=-', 'sim-identity'], { input: sim.certificates.signature });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);

    const pem = (await ok(['auth', 'cloud', 'config', 'certificate', 'read', '-field=cloud_public_cert', 'sim-pkcs7'])).stdout;
    expect(pem.trim()).toBe(sim.certificates.pkcs7.trim());
    expect(data((await ok(['auth', 'cloud', 'config', 'certificate', 'read', '-format=json', 'sim-identity'])).stdout)).toMatchObject({ type: 'identity' });
    expect(JSON.parse((await ok(['auth', 'cloud', 'config', 'certificate', 'list', '-format=json'])).stdout)).toEqual(['sim-identity', 'sim-pkcs7']);

    await ok(['auth', 'cloud', 'config', 'certificate', 'delete', 'sim-pkcs7']);
    expect((await srv.cli(['auth', 'cloud', 'config', 'certificate', 'read', 'sim-pkcs7'])).code).toBe(2);
    expect(JSON.parse((await ok(['auth', 'cloud', 'config', 'certificate', 'list', '-format=json'])).stdout)).toEqual(['sim-identity']);
  });

  it('without -cloud-public-cert it is a usage error; with a value that is not a certificate, a server error', async () => {
    const missing = await srv.cli(['auth', 'cloud', 'config', 'certificate', 'write', 'nothing']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Missing required flags: -cloud-public-cert');
    expect(missing.stderr).toContain('Usage: svc auth cloud config certificate write [options] -cloud-public-cert=@FILE CERT_NAME');

    const bad = await srv.cli(['auth', 'cloud', 'config', 'certificate', 'write', '-cloud-public-cert=not-a-certificate', 'bad']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Code: 400\. Errors:\n\n\* .*cloud_public_cert/m);
  });
});

describe('svc auth cloud config sts', () => {
  it('sets, reads, lists and deletes the role of an account', async () => {
    const role = 'arn:aws:iam::210987654321:role/svc-reader';
    await ok(['auth', 'cloud', 'config', 'sts', 'write', `-sts-role=${role}`, '210987654321']);
    expect((await ok(['auth', 'cloud', 'config', 'sts', 'read', '-field=sts_role', '210987654321'])).stdout).toBe(role);
    const listed = (await ok(['auth', 'cloud', 'config', 'sts', 'list'])).stdout;
    expect(listed.trimEnd().split('\n')).toEqual(['Keys', '----', '210987654321']);
    await ok(['auth', 'cloud', 'config', 'sts', 'delete', '210987654321']);
    expect((await srv.cli(['auth', 'cloud', 'config', 'sts', 'list'])).code).toBe(2);

    const missing = await srv.cli(['auth', 'cloud', 'config', 'sts', 'write', '210987654321']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('-sts-role');
  });
});

describe('svc auth cloud config tidy', () => {
  it('writes, reads and deletes both lists, by their API names and their short names; an unwritten one is not found', async () => {
    await ok(['auth', 'cloud', 'config', 'tidy', 'write', '-safety-buffer=24h', '-disable-periodic-tidy', 'identity-accesslist']);
    expect(data((await ok(['auth', 'cloud', 'config', 'tidy', 'read', '-format=json', 'accesslist'])).stdout)).toEqual({ safety_buffer: 86400, disable_periodic_tidy: true });
    const never = await srv.cli(['auth', 'cloud', 'config', 'tidy', 'read', 'roletag-denylist']);
    expect([never.code, never.stderr]).toEqual([2, expect.stringContaining('No value found at auth/cloud/config/tidy/roletag-denylist')]);

    await ok(['auth', 'cloud', 'config', 'tidy', 'write', '-safety-buffer=60', 'denylist']);
    expect(data((await ok(['auth', 'cloud', 'config', 'tidy', 'read', '-format=json', 'roletag-denylist'])).stdout)).toMatchObject({ safety_buffer: 60 });

    await ok(['auth', 'cloud', 'config', 'tidy', 'delete', 'identity-accesslist']);
    expect((await srv.cli(['auth', 'cloud', 'config', 'tidy', 'read', 'identity-accesslist'])).code).toBe(2);
  });

  it('an unknown list is a usage error', async () => {
    const res = await srv.cli(['auth', 'cloud', 'config', 'tidy', 'read', 'whitelist']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('unknown list "whitelist"');
  });
});
