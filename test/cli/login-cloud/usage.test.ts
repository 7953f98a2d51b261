/**
 * `svc login -method=cloud` mistakes that the CLI catches itself, run as the built bin/svc: each is a
 * usage or local error (exit 1) found before the server is asked, so SVC_ADDR points at nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../../src/cloudsim/index.js';
import { runCli } from '../../support/server.js';

let sim: CloudSim;
let home: string;
beforeAll(async () => {
  sim = await startCloudSim();
  home = await mkdtemp(path.join(tmpdir(), 'svc-login-cloud-usage-'));
});
afterAll(async () => {
  await sim?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

const NOWHERE = 'http://127.0.0.1:1';
const login = (args: string[], env: Record<string, string> = {}) =>
  runCli(['login', '-method=cloud', ...args], { HOME: home, SVC_ADDR: NOWHERE, NO_COLOR: '1', CLOUD_METADATA_ENDPOINT: sim.metadataUrl, ...env });

async function expectUsageError(args: string[], message: string, env?: Record<string, string>) {
  const res = await login(args, env);
  expect(res.stdout).toBe('');
  expect(res.stderr).toContain(message);
  expect(res.stderr).toContain('Usage: svc login [options] [TOKEN | K=V...]');
  expect(res.code).toBe(1);
}

describe('svc login -method=cloud: mistakes caught before the server is asked', () => {
  it('names unknown arguments and lists the known ones', async () => {
    await expectUsageError(['role=x', 'colour=red', 'flavour=1'], 'Unknown arguments for -method=cloud: colour, flavour. Known: role, type, region, header_value, nonce, document');
    await expectUsageError(['justaword'], 'format must be key=value, got "justaword"');
  });

  it('checks type and document against their choices', async () => {
    await expectUsageError(['type=gcp'], 'type must be one of iam, ec2, not "gcp"');
    await expectUsageError(['type=ec2', 'document=pem'], 'document must be one of rsa2048, pkcs7, identity, not "pem"');
  });

  it('refuses arguments of the other type and repeated ones', async () => {
    await expectUsageError(['nonce=abc', 'document=pkcs7'], 'nonce, document cannot be used with type=iam');
    await expectUsageError(['type=ec2', 'region=eu-west-1'], 'region cannot be used with type=ec2');
    await expectUsageError(['role=a', 'role=b'], 'role must be given once');
  });

  it('checks the region, from region= or CLOUD_REGION', async () => {
    await expectUsageError(['region=Europe'], '"Europe" is not a region name, such as us-east-1 (from region=)', { CLOUD_ACCESS_KEY: 'AKIAX', CLOUD_SECRET_KEY: 's' });
    await expectUsageError([], '"eu west" is not a region name, such as us-east-1 (from CLOUD_REGION)', { CLOUD_REGION: 'eu west', CLOUD_ACCESS_KEY: 'AKIAX', CLOUD_SECRET_KEY: 's' });
  });

  it('asks for credentials, naming the variables, when neither the environment nor the instance has any', async () => {
    sim.useInstance(sim.addInstance().instanceId);
    try {
      await expectUsageError(['role=ci'], 'No cloud credentials: set CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY (and CLOUD_SESSION_TOKEN');
      await expectUsageError(['role=ci'], 'CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY must be set together', { CLOUD_SECRET_KEY: 's' });
    } finally {
      sim.useInstance(undefined);
    }
  });

  it('says which metadata service failed when an ec2 login cannot read the identity document', async () => {
    const res = await login(['type=ec2'], { CLOUD_METADATA_ENDPOINT: NOWHERE });
    expect(res.stderr).toContain(`Error: Error reading the instance identity document from the metadata service at ${NOWHERE} (set CLOUD_METADATA_ENDPOINT to use another): metadata PUT /latest/api/token failed: ECONNREFUSED`);
    expect(res.code).toBe(1);
  });

  it('stops at a corrupted nonce file before an ec2 login, leaving the file as it was', async () => {
    sim.useInstance(sim.addInstance().instanceId);
    const file = path.join(home, 'corrupted-nonces');
    await writeFile(file, 'nonce: abc\n', { mode: 0o600 });
    try {
      const res = await login(['type=ec2'], { SVC_CLOUD_NONCE_FILE: file });
      expect(res.stderr).toMatch(new RegExp(`^Error: The nonce file ${file} is corrupted \\(`));
      expect(res.stderr).not.toContain('cannot reach the server');
      expect(res.code).toBe(1);
    } finally {
      sim.useInstance(undefined);
    }
  });

  it('needs a mount path in -path, and lists the methods for an unknown -method', async () => {
    await expectUsageError(['-path=/'], '-path must name the mount, such as -path=cloud');
    const res = await runCli(['login', '-method=gcp'], { HOME: home, SVC_ADDR: NOWHERE });
    expect(res.stderr).toContain('Unknown auth method: gcp. Known methods: cloud, token');
    expect(res.code).toBe(1);
  });
});
