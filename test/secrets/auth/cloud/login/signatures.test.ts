/**
 * PKCS#7 verification of instance identity documents, on documents signed by cloudsim the way the
 * provider signs them (BER with indefinite lengths; DSA/SHA-1 and RSA-2048/SHA-256 with both signature
 * algorithm identifiers), against trusted certificates looked up by issuer and serial.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../../../../src/cloudsim/index.js';
import { metadataClient } from '../../../../../src/cloud/metadata.js';
import { decodePkcs7Input, indexCertificates, SignatureError, verifyPkcs7 } from '../../../../../src/secrets/auth/cloud/login/pkcs7.js';
import { verifyIdentitySignature } from '../../../../../src/secrets/auth/cloud/login/identity-signature.js';
import { BUILTIN_CERTIFICATES } from '../../../../../src/secrets/auth/cloud/login/builtin-certificates.js';

let sim: CloudSim;
let oldSim: CloudSim;
const docs = async (s: CloudSim) => {
  const md = metadataClient({ endpoint: s.metadataUrl });
  return { document: await md.identityDocumentRaw(), pkcs7: await md.pkcs7(), rsa2048: await md.rsa2048() };
};

beforeAll(async () => {
  sim = await startCloudSim();
  sim.useInstance(sim.addInstance().instanceId);
  oldSim = await startCloudSim({ rsa2048SignatureAlgorithm: 'rsaEncryption' });
  oldSim.useInstance(oldSim.addInstance().instanceId);
});
afterAll(async () => {
  await sim?.close();
  await oldSim?.close();
});

const trusted = () => indexCertificates([...BUILTIN_CERTIFICATES, sim.certificates.pkcs7, sim.certificates.rsa2048]);

describe('verifyPkcs7', () => {
  it('verifies the rsa2048 document (BER, sha256WithRSAEncryption) and returns the identity document', async () => {
    const d = await docs(sim);
    expect(d.rsa2048.startsWith('MIAG')).toBe(true); // 30 80 06: BER, indefinite length, like the provider's
    const out = verifyPkcs7(d.rsa2048, trusted(), { allowSha1: false });
    expect(out.content.equals(d.document)).toBe(true);
    expect(out.digest).toBe('sha256');
  });

  it('verifies older rsa2048 documents whose signature algorithm is plain rsaEncryption', async () => {
    const d = await docs(oldSim);
    const out = verifyPkcs7(d.rsa2048, indexCertificates([oldSim.certificates.rsa2048]), { allowSha1: false });
    expect(out.content.equals(d.document)).toBe(true);
  });

  it('accepts the document with newlines, wrapped at 64 columns, or in PEM armour', async () => {
    const d = await docs(sim);
    const wrapped = d.rsa2048.replace(/(.{64})/g, '$1\n');
    const armoured = `-----BEGIN PKCS7-----\n${wrapped}\n-----END PKCS7-----\n`;
    for (const input of [wrapped, armoured]) expect(verifyPkcs7(input, trusted(), { allowSha1: false }).content.equals(d.document)).toBe(true);
  });

  it('refuses the SHA-1/DSA pkcs7 document by default, saying how to allow it, and verifies it when allowed', async () => {
    const d = await docs(sim);
    expect(() => verifyPkcs7(d.pkcs7, trusted(), { allowSha1: false })).toThrow(/SHA-1.*disabled by default.*rsa2048.*-cloud-allow-sha1/s);
    const out = verifyPkcs7(d.pkcs7, trusted(), { allowSha1: true });
    expect(out.content.equals(d.document)).toBe(true);
    expect(out.digest).toBe('sha1');
  });

  it('refuses a document whose signer is not among the trusted certificates', async () => {
    const d = await docs(sim);
    expect(() => verifyPkcs7(d.rsa2048, indexCertificates(BUILTIN_CERTIFICATES), { allowSha1: true })).toThrow(/no trusted certificate matches the signer/);
  });

  it('refuses a document when the certificate found under its issuer and serial holds another key', async () => {
    const d = await docs(sim);
    const [genuine] = indexCertificates([sim.certificates.rsa2048]);
    const [other] = indexCertificates([oldSim.certificates.rsa2048]);
    expect(() => verifyPkcs7(d.rsa2048, [{ cert: other.cert, key: genuine.key }], { allowSha1: false })).toThrow(/signature does not verify/);
  });

  it('refuses a document whose content was changed after signing', async () => {
    const d = await docs(sim);
    const der = decodePkcs7Input(d.rsa2048);
    const at = der.indexOf(Buffer.from('"instanceId"'));
    expect(at).toBeGreaterThan(0);
    der[at + 1] = 'J'.charCodeAt(0); // "jnstanceId"
    expect(() => verifyPkcs7(der.toString('base64'), trusted(), { allowSha1: false })).toThrow(/message digest does not match/);
  });

  it('refuses a signing time outside the signer certificate validity', async () => {
    const years = 16 * 365 * 24 * 3600_000; // past 2038, the DSA certificate's notAfter
    sim.advanceClock(years);
    try {
      const d = await docs(sim);
      expect(() => verifyPkcs7(d.pkcs7, trusted(), { allowSha1: true })).toThrow(/signing time 204\d-.* is outside the validity/);
    } finally {
      sim.advanceClock(-years);
    }
  });

  it('refuses input that is not base64 or not PKCS#7, as a SignatureError', () => {
    for (const bad of ['', 'not base64!', Buffer.from('{"hello":1}').toString('base64')]) {
      expect(() => verifyPkcs7(bad, trusted(), { allowSha1: false })).toThrow(SignatureError);
    }
  });

  it('decodes base64 with or without padding, line breaks or PEM armour, and refuses characters the decoder would skip', () => {
    const bytes = Buffer.from('ABCDE');
    for (const text of ['QUJDREU=', 'QUJDREU', 'QUJD\nREU=\n', '-----BEGIN PKCS7-----\nQUJDREU=\n-----END PKCS7-----']) {
      expect(decodePkcs7Input(text)).toEqual(bytes);
    }
    // Node's decoder would read each of these as ABCDE, ignoring the stray character.
    for (const bad of ['QUJD*REU=', 'QUJDREU=.', 'QU_JDREU=']) {
      expect(() => decodePkcs7Input(bad)).toThrow(/not base64/);
    }
  });
});

describe('the built-in certificates', () => {
  it('holds the 42 provider certificates, every one parseable and indexed by issuer and serial', () => {
    expect(BUILTIN_CERTIFICATES).toHaveLength(42);
    const index = indexCertificates(BUILTIN_CERTIFICATES);
    expect(index.map((t) => t.key).every((k) => /#[0-9a-f]+$/.test(k))).toBe(true);
    // The classic DSA certificate of the pkcs7 document, serial 96BA48D9E55E1A67.
    expect(index.some((t) => t.key.endsWith('#96ba48d9e55e1a67') && t.cert.publicKey.asymmetricKeyType === 'dsa')).toBe(true);
  });
});

describe('verifyIdentitySignature', () => {
  const certs = () => [...BUILTIN_CERTIFICATES, sim.certificates.signature].map((pem) => new X509Certificate(pem));

  it('verifies the identity document with its raw RSA signature, as served (wrapped at 64 columns)', async () => {
    const md = metadataClient({ endpoint: sim.metadataUrl });
    const document = await md.identityDocumentRaw();
    const signature = await md.signature();
    expect(signature).toContain('\n');
    expect(verifyIdentitySignature(document.toString('base64'), signature, certs()).equals(document)).toBe(true);
  });

  it('refuses a changed document, an untrusted signer and undecodable input', async () => {
    const md = metadataClient({ endpoint: sim.metadataUrl });
    const document = await md.identityDocumentRaw();
    const signature = await md.signature();
    const changed = Buffer.from(document.toString().replace('"region"', '"Region"'));
    expect(() => verifyIdentitySignature(changed.toString('base64'), signature, certs())).toThrow(/unsuccessful/);
    expect(() => verifyIdentitySignature(document.toString('base64'), signature, BUILTIN_CERTIFICATES.map((p) => new X509Certificate(p)))).toThrow(/unsuccessful/);
    expect(() => verifyIdentitySignature('%%%', signature, certs())).toThrow(/base64 decode the instance identity document/);
    expect(() => verifyIdentitySignature(document.toString('base64'), '', certs())).toThrow(/base64 decode the SHA256 RSA signature/);
  });
});
