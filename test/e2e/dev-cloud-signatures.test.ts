/**
 * The built server's ec2 document checks: a refused document gets a 400 with the message the check gives
 * here, in the test's own process, and the certificates the server trusts follow the mount's
 * registrations as they change, including back to a set whose parsed certificates it has since dropped.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { BUILTIN_CERTIFICATES } from '../../src/secrets/auth/cloud/login/builtin-certificates.js';
import { verifyIdentitySignature } from '../../src/secrets/auth/cloud/login/identity-signature.js';
import { indexCertificates, verifyPkcs7 } from '../../src/secrets/auth/cloud/login/pkcs7.js';
import { startCloudSim, type CloudSim } from '../../src/cloudsim/index.js';
import { makeTempDir } from '../support/server.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { statusOf } from '../support/wait.js';
import { metadata } from '../support/imds.js';

let home: string;
let dev: SpawnedServer;
let api: ApiClient;
let metadataUrl: string;
/** a second provider whose certificates the dev server does not trust, with an instance like the dev one */
let other: CloudSim;
let devDoc: { accountId: string; instanceId: string; pendingTime: string; region: string; imageId: string };
let nonce: string;

const noNewlines = (s: string) => s.replace(/\s+/g, '');
const login = (body: Record<string, unknown>) => new ApiClient({ address: dev.url }).secrets('POST', 'auth/cloud/login', { body });

/** The message the check gives in this thread, for comparison with the server's answer. */
function thrownBy(check: () => unknown): string {
  try {
    check();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the check passed');
}

beforeAll(async () => {
  home = await makeTempDir('svc-e2e-dev-cloud-signatures-');
  // -cloud-allow-sha1: identity + signature logins, refused without it, are checked too.
  dev = await spawnServer(['-dev', '-dev-cloud', '-cloud-allow-sha1', '-port=0'], { HOME: home });
  metadataUrl = /export CLOUD_METADATA_ENDPOINT='(http:\/\/127\.0\.0\.1:\d+)'/.exec(dev.stdout())?.[1] ?? '';
  api = new ApiClient({ address: dev.url, token: dev.rootToken });
  const get = await metadata(metadataUrl);
  devDoc = JSON.parse(await get('/latest/dynamic/instance-identity/document'));
  nonce = ((await login({ role: 'dev-ec2', pkcs7: noNewlines(await get('/latest/dynamic/instance-identity/rsa2048')) }))!.auth!.metadata as Record<string, string>).nonce;
  other = await startCloudSim({ account: devDoc.accountId, region: devDoc.region });
  other.useInstance(other.addInstance({ instanceId: devDoc.instanceId, pendingTime: devDoc.pendingTime, imageId: devDoc.imageId }).instanceId);
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await other?.close();
  await rm(home, { recursive: true, force: true });
});

describe('the built server checks documents', () => {
  it('refuses bad documents with a 400 and the message the check gives in the calling thread', async () => {
    const get = await metadata(metadataUrl);
    const rsa2048 = noNewlines(await get('/latest/dynamic/instance-identity/rsa2048'));
    const certs = (await api.secrets('GET', 'auth/cloud/config/certificate/dev-cloud-rsa2048'))!.data!.cloud_public_cert as string;
    const trusted = indexCertificates([certs, ...BUILTIN_CERTIFICATES]);
    const der = Buffer.from(rsa2048, 'base64');
    const at = der.indexOf(devDoc.instanceId);
    expect(at).toBeGreaterThan(0);
    der[at + devDoc.instanceId.length - 1] ^= 1;
    const tampered = der.toString('base64');
    const untrusted = noNewlines(await (await metadata(other.metadataUrl))('/latest/dynamic/instance-identity/rsa2048'));
    const notBer = Buffer.from('not a signed document').toString('base64');

    const cases: Array<[string, string, RegExp]> = [
      [tampered, thrownBy(() => verifyPkcs7(tampered, trusted, { allowSha1: false })), /message digest does not match/],
      [untrusted, thrownBy(() => verifyPkcs7(untrusted, trusted, { allowSha1: false })), /no trusted certificate matches the signer/],
      [notBer, thrownBy(() => verifyPkcs7(notBer, trusted, { allowSha1: false })), /not valid BER/],
      ['%%%', thrownBy(() => verifyPkcs7('%%%', trusted, { allowSha1: false })), /not base64/],
    ];
    for (const [pkcs7, expected, gist] of cases) {
      expect(expected).toMatch(gist);
      expect(await statusOf(login({ role: 'dev-ec2', pkcs7, nonce }))).toEqual({ code: 400, message: expected });
    }

    const identity = Buffer.from(await get('/latest/dynamic/instance-identity/document')).toString('base64');
    const signature = noNewlines(await get('/latest/dynamic/instance-identity/signature'));
    const changed = Buffer.from(`${await get('/latest/dynamic/instance-identity/document')} `).toString('base64');
    const expected = thrownBy(() => verifyIdentitySignature(changed, signature, BUILTIN_CERTIFICATES.map((p) => indexCertificates([p])[0].cert)));
    expect(expected).toMatch(/unsuccessful/);
    expect(await statusOf(login({ role: 'dev-ec2', identity: changed, signature, nonce }))).toEqual({ code: 400, message: expected });
    expect((await statusOf(login({ role: 'dev-ec2', identity, signature, nonce }))).code).toBe(200);
  });

  it('follows certificate registrations: trusted once registered, refused once removed, trusted again after many changes', async () => {
    const signedByOther = noNewlines(await (await metadata(other.metadataUrl))('/latest/dynamic/instance-identity/rsa2048'));
    // Each variant is the same document sent differently, so no login is answered from an earlier one's result.
    const variants = Array.from({ length: 40 }, (_, i) => `${signedByOther.slice(0, 64 + i)}\n${signedByOther.slice(64 + i)}`);
    let next = 0;
    const attempt = () => statusOf(login({ role: 'dev-ec2', pkcs7: variants[next++], nonce }));

    expect((await attempt()).message).toMatch(/no trusted certificate matches the signer/);
    await api.secrets('POST', 'auth/cloud/config/certificate/other', { body: { type: 'pkcs7', cloud_public_cert: other.certificates.rsa2048 } });
    expect(await attempt()).toEqual({ code: 200, message: '' });

    // More trust sets than the server keeps parsed: each registration is a new set, checked once.
    const fillers = Array.from({ length: 34 }, (_, i) => `filler-${String(i).padStart(2, '0')}`);
    for (const name of fillers) {
      await api.secrets('POST', `auth/cloud/config/certificate/${name}`, { body: { type: 'pkcs7', cloud_public_cert: other.certificates.rsa2048 } });
      expect(await attempt(), name).toEqual({ code: 200, message: '' });
    }
    await api.secrets('DELETE', 'auth/cloud/config/certificate/other');
    for (const name of fillers) await api.secrets('DELETE', `auth/cloud/config/certificate/${name}`);
    expect((await attempt()).message).toMatch(/no trusted certificate matches the signer/);

    // Back to a set the server parsed before and has since dropped.
    await api.secrets('POST', 'auth/cloud/config/certificate/other', { body: { type: 'pkcs7', cloud_public_cert: other.certificates.rsa2048 } });
    expect(await attempt()).toEqual({ code: 200, message: '' });
  });
});
