/**
 * Verifies the provider's PKCS#7 (CMS SignedData) instance identity documents: the `pkcs7` one (DSA over
 * SHA-1) and the `rsa2048` one (RSA-2048 over SHA-256, with either signature algorithm identifier). The
 * provider encodes them as BER with indefinite lengths, so parsing is asn1js's BER reader; every
 * signature and digest check is node:crypto.
 *
 * As the established implementation does, certificates embedded in the message are ignored: the signer
 * is looked up by issuer and serial number among the trusted certificates only, with no chain building
 * (the provider's certificates are self-signed), and a signing time must fall inside its validity.
 */
import { createHash, timingSafeEqual, verify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { UserError } from '../../../../shared/errors.js';

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  dsa: '1.2.840.10040.4.1',
  dsaWithSHA1: '1.2.840.10040.4.3',
  dsaWithSHA256: '2.16.840.1.101.3.4.3.2',
} as const;

const DIGESTS: Record<string, 'sha1' | 'sha256'> = { [OID.sha1]: 'sha1', [OID.sha256]: 'sha256' };
const SIGNATURE_KINDS: Record<string, 'rsa' | 'dsa'> = {
  [OID.rsaEncryption]: 'rsa',
  [OID.sha256WithRSAEncryption]: 'rsa',
  [OID.dsa]: 'dsa',
  [OID.dsaWithSHA1]: 'dsa',
  [OID.dsaWithSHA256]: 'dsa',
};

export interface VerifiedDocument {
  /** the signed content: the identity document's JSON bytes */
  content: Buffer;
  digest: 'sha1' | 'sha256';
  signer: X509Certificate;
}

export interface Pkcs7Options {
  /** SHA-1 based signatures (the DSA `pkcs7` document) are refused unless an operator turned them on. */
  allowSha1: boolean;
}

/** Thrown for any document that does not verify; the message says which check failed. */
export class SignatureError extends UserError {}

const fail = (why: string) => new SignatureError(`failed to verify the signature: ${why}`);

/** The document as the metadata service gives it: base64, with or without newlines or PEM armour. */
export function decodePkcs7Input(input: string): Buffer {
  const body = input.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new SignatureError('failed to decode the PKCS#7 signature: it is not base64');
  return Buffer.from(body, 'base64');
}

function parse(der: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || parsed.result.error) throw fail(`${what} is not valid BER: ${parsed.result.error || 'unparseable'}`);
  return parsed.result;
}

function children(block: asn1js.AsnType | undefined, what: string): asn1js.AsnType[] {
  const value = (block as asn1js.Constructed | undefined)?.valueBlock?.value;
  if (!Array.isArray(value)) throw fail(`${what} is malformed`);
  return value as asn1js.AsnType[];
}

function oidOf(block: asn1js.AsnType | undefined, what: string): string {
  if (!(block instanceof asn1js.ObjectIdentifier)) throw fail(`${what} is not an object identifier`);
  return block.valueBlock.toString();
}

function isContext(block: asn1js.AsnType | undefined, tag: number): boolean {
  return block?.idBlock.tagClass === 3 && block.idBlock.tagNumber === tag;
}

/** An OCTET STRING's bytes; BER may split one into constructed chunks. */
function octets(block: asn1js.AsnType, what: string): Buffer {
  if (!(block instanceof asn1js.OctetString)) throw fail(`${what} is not an octet string`);
  if (!block.idBlock.isConstructed) return Buffer.from(block.valueBlock.valueHexView);
  return Buffer.concat(children(block, what).map((c) => octets(c, what)));
}

/** DER of a parsed element: definite lengths throughout, as the signer hashed it. */
function derOf(block: asn1js.AsnType): Buffer {
  const definite = (b: asn1js.AsnType) => {
    b.lenBlock.isIndefiniteForm = false;
    if (b.idBlock.isConstructed) for (const c of (b as asn1js.Constructed).valueBlock.value) definite(c);
  };
  definite(block);
  return Buffer.from(block.toBER(false));
}

/** A Name as comparable text: RDNs in order, each `oid=value`. */
function nameKey(name: asn1js.AsnType, what: string): string {
  return children(name, what)
    .map((rdn) =>
      children(rdn, what)
        .map((atv) => {
          const [type, value] = children(atv, what);
          const text = (value as asn1js.BaseStringBlock | undefined)?.valueBlock?.value;
          return `${oidOf(type, what)}=${typeof text === 'string' ? text : Buffer.from((value as asn1js.AsnType).toBER(false)).toString('hex')}`;
        })
        .join('+'),
    )
    .join(',');
}

function serialKey(serial: asn1js.AsnType, what: string): string {
  if (!(serial instanceof asn1js.Integer)) throw fail(`${what} serial number is not an integer`);
  return Buffer.from(serial.valueBlock.valueHexView).toString('hex').replace(/^(00)+(?=.)/, '');
}

export interface TrustedCertificate {
  cert: X509Certificate;
  key: string;
}

/** Issuer + serial of each trusted certificate, the way a SignerInfo names its signer. */
export function indexCertificates(pems: readonly string[]): TrustedCertificate[] {
  return pems.map((pem) => {
    const cert = new X509Certificate(pem);
    const tbs = children(children(parse(cert.raw, 'certificate'), 'certificate')[0], 'certificate');
    // tbsCertificate: [0] version (optional), serialNumber, signature, issuer, ...
    const offset = isContext(tbs[0], 0) ? 1 : 0;
    return { cert, key: `${nameKey(tbs[offset + 2], 'certificate issuer')}#${serialKey(tbs[offset], 'certificate')}` };
  });
}

function signingTime(attrValue: asn1js.AsnType): Date {
  if (attrValue instanceof asn1js.UTCTime || attrValue instanceof asn1js.GeneralizedTime) return attrValue.toDate();
  throw fail('the signing time attribute is not a time');
}

/**
 * Verifies a document against the trusted certificates (built-in + registered of type pkcs7) and returns
 * its content. Every failure is a SignatureError naming the check.
 */
export function verifyPkcs7(input: string, trusted: readonly TrustedCertificate[], opts: Pkcs7Options): VerifiedDocument {
  const contentInfo = children(parse(decodePkcs7Input(input), 'the PKCS#7 signature'), 'the PKCS#7 content info');
  if (oidOf(contentInfo[0], 'the content type') !== OID.signedData) throw fail('the document is not PKCS#7 signed data');
  if (!isContext(contentInfo[1], 0)) throw fail('the signed data is missing');
  const signedData = children(children(contentInfo[1], 'the signed data')[0], 'the signed data');

  // SignedData: version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls, signerInfos
  const encap = children(signedData[2], 'the encapsulated content');
  if (!isContext(encap[1], 0)) throw fail('the instance identity document could not be found in the signature');
  const content = Buffer.concat(children(encap[1], 'the encapsulated content').map((c) => octets(c, 'the encapsulated content')));
  if (content.length === 0) throw fail('the instance identity document could not be found in the signature');

  const signerInfos = children(signedData[signedData.length - 1], 'the signer infos');
  if (signerInfos.length === 0) throw fail('the document has no signer');
  let signer: X509Certificate | undefined;
  let digest: 'sha1' | 'sha256' = 'sha256';
  for (const info of signerInfos) {
    ({ signer, digest } = verifySigner(children(info, 'the signer info'), content, trusted, opts));
  }
  return { content, digest, signer: signer! };
}

function verifySigner(
  fields: asn1js.AsnType[],
  content: Buffer,
  trusted: readonly TrustedCertificate[],
  opts: Pkcs7Options,
): { signer: X509Certificate; digest: 'sha1' | 'sha256' } {
  // SignerInfo: version, sid (issuerAndSerialNumber), digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature, [1] unsignedAttrs
  const [, sid, digestAlg] = fields;
  const hasAttrs = isContext(fields[3], 0);
  const signatureAlg = fields[hasAttrs ? 4 : 3];
  const signature = octets(fields[hasAttrs ? 5 : 4], 'the signature');

  const [issuer, serial] = children(sid, 'the signer identifier');
  const key = `${nameKey(issuer, 'the signer issuer')}#${serialKey(serial, 'the signer')}`;
  const match = trusted.find((t) => t.key === key);
  if (!match) throw fail('no trusted certificate matches the signer (issuer and serial number)');

  const digestOid = oidOf(children(digestAlg, 'the digest algorithm')[0], 'the digest algorithm');
  const digest = DIGESTS[digestOid];
  if (!digest) throw fail(`unsupported digest algorithm ${digestOid}`);
  const sigOid = oidOf(children(signatureAlg, 'the signature algorithm')[0], 'the signature algorithm');
  const kind = SIGNATURE_KINDS[sigOid];
  if (!kind) throw fail(`unsupported signature algorithm ${sigOid}`);
  if (digest === 'sha1' && !opts.allowSha1) {
    throw fail(
      'the document is signed with SHA-1 (the DSA "pkcs7" document), which is disabled by default; use the ' +
        '"rsa2048" document, or start the server with -cloud-allow-sha1 to accept SHA-1 signatures',
    );
  }
  if (match.cert.publicKey.asymmetricKeyType !== kind) throw fail(`the signer certificate holds a ${match.cert.publicKey.asymmetricKeyType} key, not ${kind}`);

  let signed = content;
  if (hasAttrs) {
    const attrs = children(fields[3], 'the signed attributes');
    let messageDigest: Buffer | undefined;
    for (const attr of attrs) {
      const [type, values] = children(attr, 'a signed attribute');
      const oid = oidOf(type, 'a signed attribute');
      const value = children(values, 'a signed attribute')[0];
      if (oid === OID.messageDigest) messageDigest = octets(value, 'the message digest');
      if (oid === OID.signingTime) {
        const at = signingTime(value);
        if (at < new Date(match.cert.validFrom) || at > new Date(match.cert.validTo)) {
          throw fail(`the signing time ${at.toISOString()} is outside the validity of the signer certificate`);
        }
      }
    }
    if (!messageDigest) throw fail('the message digest attribute is missing');
    const actual = createHash(digest).update(content).digest();
    if (actual.length !== messageDigest.length || !timingSafeEqual(actual, messageDigest)) throw fail('the message digest does not match the document');
    // What was signed is the attributes' DER as a SET (tag 0x31), not as the [0] IMPLICIT they travel in.
    const der = derOf(fields[3]);
    der[0] = 0x31;
    signed = der;
  }
  const ok = verify(digest, signed, kind === 'dsa' ? { key: match.cert.publicKey, dsaEncoding: 'der' } : match.cert.publicKey, signature);
  if (!ok) throw fail('the signature does not verify with the signer certificate');
  return { signer: match.cert, digest };
}
