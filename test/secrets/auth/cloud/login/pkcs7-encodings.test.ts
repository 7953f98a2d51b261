/**
 * verifyPkcs7 reads a document by its elements' headers and decodes only what the checks use: these are
 * the encodings that shortcut has to get right. Signed attributes that arrive in BER are re-encoded as
 * the DER that was signed; lengths that run past their container or an indefinite length with no end are
 * refused; the signer's issuer, decoded once per distinct encoding, still tells signers apart.
 */
import * as asn1js from 'asn1js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../../../../src/cloudsim/index.js';
import { metadataClient } from '../../../../../src/cloud/metadata.js';
import { decodePkcs7Input, indexCertificates, SignatureError, verifyPkcs7 } from '../../../../../src/secrets/auth/cloud/login/pkcs7.js';

let sim: CloudSim;
let otherSim: CloudSim;

const rsa2048 = async (s: CloudSim) => (await metadataClient({ endpoint: s.metadataUrl }).rsa2048()).replace(/\n/g, '');
const trusting = (...sims: CloudSim[]) => indexCertificates(sims.map((s) => s.certificates.rsa2048));

beforeAll(async () => {
  sim = await startCloudSim();
  sim.useInstance(sim.addInstance().instanceId);
  otherSim = await startCloudSim();
  otherSim.useInstance(otherSim.addInstance().instanceId);
});
afterAll(async () => {
  await sim?.close();
  await otherSim?.close();
});

/** The document decoded in full by asn1js, changed by `edit`, and encoded again. */
function reencoded(doc: string, edit: (signerInfo: asn1js.Sequence) => void): string {
  const root = asn1js.fromBER(decodePkcs7Input(doc)).result as asn1js.Sequence;
  const signedData = (root.valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
  const signerInfos = signedData.valueBlock.value[signedData.valueBlock.value.length - 1] as asn1js.Set;
  edit(signerInfos.valueBlock.value[0] as asn1js.Sequence);
  return Buffer.from(root.toBER(false)).toString('base64');
}

function indefinite(block: asn1js.AsnType): void {
  block.lenBlock.isIndefiniteForm = true;
  (block.valueBlock as unknown as { isIndefiniteForm: boolean }).isIndefiniteForm = true;
}

describe('signed attributes', () => {
  it('verifies a document whose signed attributes travel with an indefinite length (BER), by their DER', async () => {
    const doc = reencoded(await rsa2048(sim), (info) => indefinite(info.valueBlock.value[3]));
    expect(decodePkcs7Input(doc).includes(Buffer.from([0xa0, 0x80]))).toBe(true);
    expect(verifyPkcs7(doc, trusting(sim), { allowSha1: false }).content.toString()).toContain('"instanceId"');
  });

  it('refuses such a document once an attribute was changed after signing', async () => {
    const doc = reencoded(await rsa2048(sim), (info) => {
      const attrs = info.valueBlock.value[3] as asn1js.Constructed;
      indefinite(attrs);
      // the content-type attribute's value: id-data becomes id-signedData
      for (const attr of attrs.valueBlock.value as asn1js.Sequence[]) {
        const [type, values] = attr.valueBlock.value as [asn1js.ObjectIdentifier, asn1js.Set];
        if (type.valueBlock.toString() === '1.2.840.113549.1.9.3') values.valueBlock.value[0] = new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.2' });
      }
    });
    expect(() => verifyPkcs7(doc, trusting(sim), { allowSha1: false })).toThrow(/signature does not verify/);
  });
});

describe('malformed encodings', () => {
  it('refuses a truncated document, a length past its container and an indefinite length with no end, as not valid BER', async () => {
    const der = decodePkcs7Input(await rsa2048(sim));
    const truncated = der.subarray(0, der.length - 300).toString('base64');
    // A definite SEQUENCE of 5 bytes that claims 9, inside an indefinite SEQUENCE closed properly.
    const pastContainer = Buffer.from([0x30, 0x80, 0x30, 0x09, 0x06, 0x03, 0x2a, 0x03, 0x04, 0x00, 0x00]).toString('base64');
    const noEnd = Buffer.from([0x30, 0x80, 0x06, 0x03, 0x2a, 0x03, 0x04]).toString('base64');
    for (const bad of [truncated, pastContainer, noEnd]) {
      expect(() => verifyPkcs7(bad, trusting(sim), { allowSha1: false })).toThrow(SignatureError);
      expect(() => verifyPkcs7(bad, trusting(sim), { allowSha1: false })).toThrow(/not valid BER/);
    }
  });
});

describe('signers', () => {
  it('tells two signers apart, whichever was seen first, and refuses each against the other one alone', async () => {
    const [mine, theirs] = [await rsa2048(sim), await rsa2048(otherSim)];
    for (let round = 0; round < 2; round++) {
      expect(verifyPkcs7(mine, trusting(sim, otherSim), { allowSha1: false }).signer.raw).toEqual(indexCertificates([sim.certificates.rsa2048])[0].cert.raw);
      expect(verifyPkcs7(theirs, trusting(otherSim, sim), { allowSha1: false }).signer.raw).toEqual(indexCertificates([otherSim.certificates.rsa2048])[0].cert.raw);
      expect(() => verifyPkcs7(mine, trusting(otherSim), { allowSha1: false })).toThrow(/no trusted certificate matches the signer/);
      expect(() => verifyPkcs7(theirs, trusting(sim), { allowSha1: false })).toThrow(/no trusted certificate matches the signer/);
    }
  });
});
