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
import { LruCache } from '../../../../shared/lru-cache.js';

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
  /** where decoded elements are remembered between documents; without it each document decodes its own */
  decoded?: DecodeMemo;
}

/** Thrown for any document that does not verify; the message says which check failed. */
export class SignatureError extends UserError {}

const fail = (why: string) => new SignatureError(`failed to verify the signature: ${why}`);

/** The document as the metadata service gives it: base64, with or without newlines or PEM armour. */
export function decodePkcs7Input(input: string): Buffer {
  const body = input.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  const der = Buffer.from(body, 'base64');
  // The decoder skips what is not base64, so a body that encodes back to itself was base64 throughout:
  // the metadata service's documents are, and this costs a fifth of the pattern's scan of some 3 KB.
  if (body !== '' && der.toString('base64') === body) return der;
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new SignatureError('failed to decode the PKCS#7 signature: it is not base64');
  return der;
}

function parse(der: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(der, { copyInput: false, parseEmbedded: false });
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

/** DER of a parsed element, as the signer hashed it: definite lengths throughout. */
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

const serialHex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').replace(/^(00)+(?=.)/, '');

export interface TrustedCertificate {
  cert: X509Certificate;
  key: string;
}

/**
 * Issuer + serial of each trusted certificate, the way a SignerInfo names its signer. Only the issuer
 * is decoded by asn1js: decoding whole certificates made parsing the 42 built-in ones cost a fresh
 * server's first login some 100 ms.
 */
export function indexCertificates(pems: readonly string[]): TrustedCertificate[] {
  return pems.map((pem) => {
    const cert = new X509Certificate(pem);
    const reader = new DocumentReader(new Uint8Array(cert.raw.buffer, cert.raw.byteOffset, cert.raw.byteLength), undefined);
    const what = 'the certificate';
    const tbs = reader.inside(reader.inside(reader.at(0, cert.raw.byteLength, what), what)[0], what);
    // tbsCertificate: [0] version (optional), serialNumber, signature, issuer, ...
    const offset = isTag(tbs[0], CONTEXT, 0) ? 1 : 0;
    const [serial, , issuer] = tbs.slice(offset);
    if (!isTag(serial, UNIVERSAL, 2) || serial!.constructed) throw fail('the certificate serial number is not an integer');
    if (!issuer) throw fail('the certificate has no issuer');
    const name = nameKey(reader.parsed(issuer, 'the certificate issuer'), 'the certificate issuer');
    return { cert, key: `${name}#${serialHex(reader.buf.subarray(serial!.valueStart, serial!.valueEnd))}` };
  });
}

function signingTime(attrValue: asn1js.AsnType | undefined): Date {
  if (attrValue instanceof asn1js.UTCTime || attrValue instanceof asn1js.GeneralizedTime) return attrValue.toDate();
  throw fail('the signing time attribute is not a time');
}

/**
 * Decoded forms of the small elements every document of a signer repeats (object identifiers, the
 * signer's issuer), by their exact bytes: asn1js decodes each once, not once per document. A value that
 * fails to decode is not kept. Bounded, since a caller chooses the bytes.
 */
export type DecodeMemo = LruCache<string, string>;

const MAX_DECODED = 1024;

export const createDecodeMemo = (): DecodeMemo => new LruCache(MAX_DECODED);

function decodedOnce(memo: DecodeMemo | undefined, bytes: Uint8Array, decode: () => string): string {
  if (!memo) return decode();
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let value = memo.get(key);
  if (value === undefined) {
    value = decode();
    memo.set(key, value);
  }
  return value;
}

/** Where one element of a BER encoding lies, from its identifier and length octets as asn1js reads them. */
interface Extent {
  start: number;
  valueStart: number;
  /** the end of the value; for the indefinite form, where its end-of-contents octets start */
  valueEnd: number;
  /** just past the element, end-of-contents octets included */
  end: number;
  constructed: boolean;
  tagClass: number;
  tagNumber: number;
  /** its length octets are DER's: definite, in the shortest form */
  derLength: boolean;
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;
const UNIVERSAL = 1;
const CONTEXT = 3;
const isEndOfContents = (buf: Uint8Array, at: number) => buf[at] === 0 && buf[at + 1] === 0;
const isTag = (e: Extent | undefined, tagClass: number, tagNumber: number) => e?.tagClass === tagClass && e.tagNumber === tagNumber;

/** Octets past the first in a length this reader accepts: beyond 2^48 no input is that long. */
const MAX_LENGTH_OCTETS = 6;

/** How many octets DER's shortest long form gives `length` (≥ 0x80). */
function octetsOf(length: number): number {
  let n = 0;
  for (let v = length; v > 0; v = Math.floor(v / 256)) n++;
  return n;
}

/**
 * Reads a document by its elements' identifier and length octets alone, and has asn1js decode only the
 * few leaves the checks use, once per distinct encoding where they repeat (DecodeMemo). asn1js builds
 * four objects for every node it decodes, and most of a document's nodes are in the embedded certificate
 * (never used, see the note at the top) or repeat in every document; decoding the whole message was
 * most of a login's cost, and even asn1js's header reader cost more than the signature check. One reader
 * per document: it remembers each extent it found.
 */
class DocumentReader {
  private readonly found = new Map<number, Extent>();

  constructor(
    readonly buf: Uint8Array,
    private readonly memo: DecodeMemo | undefined,
  ) {}

  at(start: number, limit: number, what: string): Extent {
    const known = this.found.get(start);
    if (known && known.end <= limit) return known;
    const { buf } = this;
    const invalid = (why: string) => fail(`${what} is not valid BER: ${why}`);
    if (start >= limit) throw invalid('truncated');
    const first = buf[start];
    // X.690: the class in the top two bits (asn1js numbers them from 1: universal, application, context, private).
    const tagClass = (first >> 6) + 1;
    const constructed = (first & 0x20) !== 0;
    let tagNumber = first & 0x1f;
    let p = start + 1;
    if (tagNumber === 0x1f) {
      tagNumber = 0;
      for (let more = true; more; ) {
        if (p >= limit) throw invalid('truncated');
        const octet = buf[p++];
        if (tagNumber > 0xffffff) throw invalid('a tag number is too large');
        tagNumber = tagNumber * 128 + (octet & 0x7f);
        more = (octet & 0x80) !== 0;
      }
    }
    if (p >= limit) throw invalid('truncated');
    const lengthOctet = buf[p++];
    let length = lengthOctet;
    let lengthOctets = 1;
    if (lengthOctet > 0x80) {
      const n = lengthOctet & 0x7f;
      if (n === 0x7f) throw invalid('the length octet 0xFF is reserved');
      if (n > MAX_LENGTH_OCTETS) throw invalid('a length is too large');
      if (p + n > limit) throw invalid('truncated');
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + buf[p++];
      lengthOctets = 1 + n;
    }
    const valueStart = p;
    let extent: Extent;
    if (lengthOctet !== 0x80) {
      const end = valueStart + length;
      if (end > limit) throw invalid('a length runs past the end of the input');
      const derLength = lengthOctets === (length < 0x80 ? 1 : 1 + octetsOf(length));
      extent = { start, valueStart, valueEnd: end, end, constructed, tagClass, tagNumber, derLength };
    } else {
      if (!constructed) throw invalid('indefinite length form used for primitive encoding form');
      let next = valueStart;
      for (;;) {
        if (next + 2 > limit) throw invalid('an indefinite length has no end-of-contents');
        if (isEndOfContents(buf, next)) break;
        next = this.at(next, limit, what).end;
      }
      extent = { start, valueStart, valueEnd: next, end: next + 2, constructed, tagClass, tagNumber, derLength: false };
    }
    this.found.set(start, extent);
    return extent;
  }

  /** The elements inside a constructed one. */
  inside(outer: Extent | undefined, what: string): Extent[] {
    if (!outer?.constructed) throw fail(`${what} is malformed`);
    const out: Extent[] = [];
    for (let at = outer.valueStart; at < outer.valueEnd; ) {
      const child = this.at(at, outer.valueEnd, what);
      out.push(child);
      at = child.end;
    }
    return out;
  }

  bytes(e: Extent): Uint8Array {
    return this.buf.subarray(e.start, e.end);
  }

  /** One element, decoded by asn1js. */
  parsed(e: Extent, what: string): asn1js.AsnType {
    return parse(this.bytes(e), what);
  }

  oid(e: Extent | undefined, what: string): string {
    if (!e) throw fail(`${what} is not an object identifier`);
    return decodedOnce(this.memo, this.bytes(e), () => oidOf(this.parsed(e, what), what));
  }

  /** The OID of an AlgorithmIdentifier. */
  algorithm(e: Extent | undefined, what: string): string {
    return this.oid(this.inside(e, what)[0], what);
  }

  /** An OCTET STRING's bytes; BER may split one into constructed chunks. */
  octets(e: Extent | undefined, what: string): Buffer {
    if (!isTag(e, UNIVERSAL, 4)) throw fail(`${what} is not an octet string`);
    if (!e!.constructed) return Buffer.from(this.buf.subarray(e!.valueStart, e!.valueEnd));
    return Buffer.concat(this.inside(e, what).map((c) => this.octets(c, what)));
  }

  /** DER throughout: every length definite and shortest. */
  isDer(e: Extent): boolean {
    return e.derLength && (!e.constructed || this.inside(e, 'a signed attribute').every((c) => this.isDer(c)));
  }

  /**
   * A signing time. The provider's is a UTCTime in its one DER form, YYMMDDHHMMSSZ, read here as asn1js
   * reads it (a year below 50 is 20YY); any other encoding is left to asn1js.
   */
  signingTime(e: Extent | undefined): Date {
    if (isTag(e, UNIVERSAL, 23) && !e!.constructed && e!.valueEnd - e!.valueStart === 13) {
      const time = UTC_TIME.exec(Buffer.from(this.buf.buffer, this.buf.byteOffset + e!.valueStart, 13).toString('latin1'));
      if (time) {
        const [yy, month, day, hour, minute, second] = time.slice(1).map(Number);
        return new Date(Date.UTC(yy >= 50 ? 1900 + yy : 2000 + yy, month - 1, day, hour, minute, second));
      }
    }
    return signingTime(e && this.parsed(e, 'the signing time attribute'));
  }

  /** How a SignerInfo names its signer, as indexCertificates keys a trusted certificate. */
  signerKey(sid: Extent | undefined): string {
    const [issuer, serial] = this.inside(sid, 'the signer identifier');
    if (!issuer) throw fail('the signer identifier is malformed');
    const name = decodedOnce(this.memo, this.bytes(issuer), () => nameKey(this.parsed(issuer, 'the signer issuer'), 'the signer issuer'));
    if (!isTag(serial, UNIVERSAL, 2) || serial!.constructed) throw fail('the signer serial number is not an integer');
    return `${name}#${serialHex(this.buf.subarray(serial!.valueStart, serial!.valueEnd))}`;
  }
}

/**
 * Verifies a document against the trusted certificates (built-in + registered of type pkcs7) and returns
 * its content. Every failure is a SignatureError naming the check.
 */
export function verifyPkcs7(input: string, trusted: readonly TrustedCertificate[], opts: Pkcs7Options): VerifiedDocument {
  const der = new Uint8Array(decodePkcs7Input(input));
  const what = 'the PKCS#7 signature';
  const doc = new DocumentReader(der, opts.decoded);
  const contentInfo = doc.inside(doc.at(0, der.length, what), 'the PKCS#7 content info');
  if (doc.oid(contentInfo[0], 'the content type') !== OID.signedData) throw fail('the document is not PKCS#7 signed data');
  if (!isTag(contentInfo[1], CONTEXT, 0)) throw fail('the signed data is missing');
  // SignedData: version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls, signerInfos
  const signedData = doc.inside(doc.inside(contentInfo[1], 'the signed data')[0], 'the signed data');
  const encap = doc.inside(signedData[2], 'the encapsulated content');
  if (!isTag(encap[1], CONTEXT, 0)) throw fail('the instance identity document could not be found in the signature');
  const content = Buffer.concat(doc.inside(encap[1], 'the encapsulated content').map((c) => doc.octets(c, 'the encapsulated content')));
  if (content.length === 0) throw fail('the instance identity document could not be found in the signature');

  const signerInfos = doc.inside(signedData.length > 3 ? signedData[signedData.length - 1] : undefined, 'the signer infos');
  if (signerInfos.length === 0) throw fail('the document has no signer');
  let signer: X509Certificate | undefined;
  let digest: 'sha1' | 'sha256' = 'sha256';
  for (const info of signerInfos) {
    ({ signer, digest } = verifySigner(doc, doc.inside(info, 'the signer info'), content, trusted, opts));
  }
  return { content, digest, signer: signer! };
}

function verifySigner(
  doc: DocumentReader,
  fields: Extent[],
  content: Buffer,
  trusted: readonly TrustedCertificate[],
  opts: Pkcs7Options,
): { signer: X509Certificate; digest: 'sha1' | 'sha256' } {
  // SignerInfo: version, sid (issuerAndSerialNumber), digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature, [1] unsignedAttrs
  const [, sid, digestAlg] = fields;
  const attrsField = isTag(fields[3], CONTEXT, 0) ? fields[3] : undefined;
  const signatureAlg = fields[attrsField ? 4 : 3];
  const signature = doc.octets(fields[attrsField ? 5 : 4], 'the signature');

  const key = doc.signerKey(sid);
  const match = trusted.find((t) => t.key === key);
  if (!match) throw fail('no trusted certificate matches the signer (issuer and serial number)');

  const digestOid = doc.algorithm(digestAlg, 'the digest algorithm');
  const digest = DIGESTS[digestOid];
  if (!digest) throw fail(`unsupported digest algorithm ${digestOid}`);
  const sigOid = doc.algorithm(signatureAlg, 'the signature algorithm');
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
  if (attrsField) {
    let messageDigest: Buffer | undefined;
    for (const attr of doc.inside(attrsField, 'the signed attributes')) {
      const [type, values] = doc.inside(attr, 'a signed attribute');
      const oid = doc.oid(type, 'a signed attribute');
      if (oid !== OID.messageDigest && oid !== OID.signingTime) continue;
      const value = doc.inside(values, 'a signed attribute')[0];
      if (oid === OID.messageDigest) messageDigest = doc.octets(value, 'the message digest');
      if (oid === OID.signingTime) {
        const at = doc.signingTime(value);
        if (at < new Date(match.cert.validFrom) || at > new Date(match.cert.validTo)) {
          throw fail(`the signing time ${at.toISOString()} is outside the validity of the signer certificate`);
        }
      }
    }
    if (!messageDigest) throw fail('the message digest attribute is missing');
    const actual = createHash(digest).update(content).digest();
    if (actual.length !== messageDigest.length || !timingSafeEqual(actual, messageDigest)) throw fail('the message digest does not match the document');
    // What was signed is the attributes' DER as a SET (tag 0x31), not as the [0] IMPLICIT they travel in:
    // the bytes received when they are DER already (the provider's are), else re-encoded.
    const der = doc.isDer(attrsField) ? Buffer.from(doc.bytes(attrsField)) : derOf(doc.parsed(attrsField, 'the signed attributes'));
    der[0] = 0x31;
    signed = der;
  }
  const ok = verify(digest, signed, kind === 'dsa' ? { key: match.cert.publicKey, dsaEncoding: 'der' } : match.cert.publicKey, signature);
  if (!ok) throw fail('the signature does not verify with the signer certificate');
  return { signer: match.cert, digest };
}
