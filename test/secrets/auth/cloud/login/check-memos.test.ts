/**
 * What the signature checks keep between logins (parsed certificates by PEM, parsed trust sets by
 * fingerprint, decoded elements by their bytes) never lets one certificate stand in for another: each
 * PEM's entry is that certificate, a document verifies only against a set that holds its signer, and a
 * certificate registration removed from a mount no longer verifies anything there.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../../../../src/cloudsim/index.js';
import { metadataClient } from '../../../../../src/cloud/metadata.js';
import { checkDocument, createCheckMemos } from '../../../../../src/secrets/auth/cloud/login/document-check.js';
import { BUILTIN_CERTIFICATES } from '../../../../../src/secrets/auth/cloud/login/builtin-certificates.js';
import { prepareCertificates, trustedCertificates } from '../../../../../src/secrets/auth/cloud/login/trusted-certificates.js';
import { startLoginWorld, type LoginWorld } from './login-support.js';

let a: CloudSim;
let b: CloudSim;
let idA: string;
let idB: string;
let w: LoginWorld;

const rsa2048 = async (s: CloudSim) => (await metadataClient({ endpoint: s.metadataUrl }).rsa2048()).replace(/\n/g, '');
const setOf = (name: string, ...pems: string[]) => ({ fingerprint: name, registered: pems });

beforeAll(async () => {
  a = await startCloudSim();
  idA = a.addInstance().instanceId;
  a.useInstance(idA);
  b = await startCloudSim();
  idB = b.addInstance().instanceId;
  b.useInstance(idB);
  w = await startLoginWorld();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await w?.close();
});

describe('the check memos', () => {
  it('hold each PEM as its own certificate', () => {
    const memos = createCheckMemos();
    const [first] = trustedCertificates([a.certificates.rsa2048], memos.certificates);
    const [second] = trustedCertificates([b.certificates.rsa2048], memos.certificates);
    expect(first.cert.fingerprint256).toBe(new X509Certificate(a.certificates.rsa2048).fingerprint256);
    expect(second.cert.fingerprint256).toBe(new X509Certificate(b.certificates.rsa2048).fingerprint256);
    expect(second.key).not.toBe(first.key);
  });

  it('verify a document only against a set holding its signer, whichever sets were parsed before', async () => {
    const memos = createCheckMemos();
    const [docA, docB] = [await rsa2048(a), await rsa2048(b)];
    const check = (pkcs7: string, trust: ReturnType<typeof setOf>) => () => checkDocument({ kind: 'pkcs7', pkcs7, allowSha1: false, trust }, memos);
    const onlyA = setOf('only-a', a.certificates.rsa2048);
    const onlyB = setOf('only-b', b.certificates.rsa2048);
    expect(JSON.parse(check(docA, onlyA)().toString()).instanceId).toBe(idA);
    expect(check(docB, onlyA)).toThrow(/no trusted certificate matches the signer/);
    expect(JSON.parse(check(docB, onlyB)().toString()).instanceId).toBe(idB);
    expect(check(docA, onlyB)).toThrow(/no trusted certificate matches the signer/);
    expect(check(docB, onlyA)).toThrow(/no trusted certificate matches the signer/);
  });
});

describe('a mount being configured', () => {
  it('has the built-in certificates and the one it registers parsed before its first login, which parses nothing more', async () => {
    const memos = createCheckMemos();
    prepareCertificates(memos.certificates, [a.certificates.rsa2048]);
    const parsed = new Set(BUILTIN_CERTIFICATES).size + 1;
    expect(memos.certificates.size).toBe(parsed);
    const content = checkDocument({ kind: 'pkcs7', pkcs7: await rsa2048(a), allowSha1: false, trust: setOf('a', a.certificates.rsa2048) }, memos);
    expect(JSON.parse(content.toString()).instanceId).toBe(idA);
    expect(memos.certificates.size).toBe(parsed);
  });

  it('leaves a certificate that does not parse to the login that trusts it', () => {
    const memos = createCheckMemos();
    expect(() => prepareCertificates(memos.certificates, ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'])).not.toThrow();
    expect(memos.certificates.size).toBe(new Set(BUILTIN_CERTIFICATES).size);
  });
});

describe('a mount whose certificate registration is removed', () => {
  it('no longer trusts it, for the very document it verified before', async () => {
    const c = w.srv.client();
    const other = await startCloudSim({ account: w.sim.account });
    try {
      const { instanceId } = other.addInstance();
      other.useInstance(instanceId);
      // The instance the document names must be running where the mount looks.
      w.sim.addInstance({ instanceId });
      await w.writeRole('memo', { auth_type: 'ec2', bound_account_id: w.sim.account, disallow_reauthentication: true });
      const pkcs7 = await rsa2048(other);
      await c.secrets('POST', 'auth/cloud/config/certificate/other', { body: { cloud_public_cert: other.certificates.rsa2048, type: 'pkcs7' } });
      expect((await w.login({ role: 'memo', pkcs7 })).auth.metadata).toMatchObject({ auth_type: 'ec2', role: 'memo' });
      await c.secrets('DELETE', 'auth/cloud/config/certificate/other');
      await c.secrets('DELETE', `auth/cloud/identity-accesslist/${instanceId}`);
      const refused = await w.loginError({ role: 'memo', pkcs7 });
      expect(refused).toMatchObject({ status: 400 });
      expect(refused.message).toContain('no trusted certificate matches the signer');
    } finally {
      await other.close();
    }
  });
});
