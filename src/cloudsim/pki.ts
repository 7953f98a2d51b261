/**
 * Signer certificates and PKCS#7 SignedData for the simulated instance identity documents.
 *
 * Like the real provider there is no CA: each signing algorithm has one self-signed certificate
 * (DSA-1024/SHA-1 for `pkcs7`, RSA-2048/SHA-256 for `rsa2048`, RSA for the raw `signature`).
 * Certificates and SignedData are assembled with asn1js; every signature is made with node:crypto.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  cmsAlgorithmProtection: '1.2.840.113549.1.9.52',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  dsa: '1.2.840.10040.4.1',
  dsaWithSHA1: '1.2.840.10040.4.3',
  countryName: '2.5.4.6',
  stateOrProvinceName: '2.5.4.8',
  localityName: '2.5.4.7',
  organizationName: '2.5.4.10',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

export interface Signer {
  kind: 'dsa' | 'rsa';
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** DER of the self-signed certificate. */
  certDer: Buffer;
  pem: string;
  /** DER of the certificate's issuer Name (equal to its subject) and its serial number (DER INTEGER content). */
  issuerDer: Buffer;
  serial: Buffer;
}

export function algId(oid: string, nullParams: boolean): asn1js.Sequence {
  const value: asn1js.AsnType[] = [new asn1js.ObjectIdentifier({ value: oid })];
  if (nullParams) value.push(new asn1js.Null());
  return new asn1js.Sequence({ value });
}

export function fromDer(der: ArrayBuffer | Buffer): asn1js.AsnType {
  const ab = der instanceof Buffer ? der.buffer.slice(der.byteOffset, der.byteOffset + der.byteLength) : der;
  const parsed = asn1js.fromBER(ab);
  if (parsed.offset === -1) throw new Error(`cloudsim: bad DER: ${parsed.result.error}`);
  return parsed.result;
}

export function toBuf(ab: ArrayBuffer): Buffer {
  return Buffer.from(new Uint8Array(ab));
}

function name(cn: string): asn1js.Sequence {
  const rdn = (oid: string, v: string, printable = false) =>
    new asn1js.Set({
      value: [
        new asn1js.Sequence({
          value: [
            new asn1js.ObjectIdentifier({ value: oid }),
            printable ? new asn1js.PrintableString({ value: v }) : new asn1js.Utf8String({ value: v }),
          ],
        }),
      ],
    });
  return new asn1js.Sequence({
    value: [
      rdn(OID.countryName, 'US', true),
      rdn(OID.stateOrProvinceName, 'Washington State'),
      rdn(OID.localityName, 'Seattle'),
      rdn(OID.organizationName, 'Cloud Simulator'),
      rdn(OID.commonName, cn),
    ],
  });
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
export function x509Time(d: Date): asn1js.AsnType {
  return d.getUTCFullYear() < 2050 ? new asn1js.UTCTime({ valueDate: d }) : new asn1js.GeneralizedTime({ valueDate: d });
}

export function toPem(der: Buffer, label: string): string {
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

export function makeSigner(kind: 'dsa' | 'rsa', opts: { bits: number; cn: string; notBefore: Date; notAfter: Date }): Signer {
  const { privateKey, publicKey } =
    kind === 'dsa'
      ? generateKeyPairSync('dsa', { modulusLength: opts.bits, divisorLength: 160 })
      : generateKeyPairSync('rsa', { modulusLength: opts.bits });
  const spkiDer = publicKey.export({ type: 'spki', format: 'der' });
  const serial = randomBytes(8);
  serial[0] = (serial[0] & 0x7f) | 0x40; // positive, 8 bytes, no leading zero needed
  const sigAlg = kind === 'dsa' ? algId(OID.dsaWithSHA1, false) : algId(OID.sha256WithRSAEncryption, true);
  const skid = createHash('sha1').update(spkiDer).digest();
  const extensions = new asn1js.Constructed({
    idBlock: { tagClass: 3, tagNumber: 3 },
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [
              new asn1js.ObjectIdentifier({ value: OID.subjectKeyIdentifier }),
              new asn1js.OctetString({ valueHex: new asn1js.OctetString({ valueHex: new Uint8Array(skid) }).toBER() }),
            ],
          }),
          new asn1js.Sequence({
            value: [
              new asn1js.ObjectIdentifier({ value: OID.basicConstraints }),
              new asn1js.Boolean({ value: true }),
              new asn1js.OctetString({ valueHex: new asn1js.Sequence({ value: [] }).toBER() }),
            ],
          }),
        ],
      }),
    ],
  });
  const issuer = name(opts.cn);
  const tbs = new asn1js.Sequence({
    value: [
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Integer({ value: 2 })] }),
      new asn1js.Integer({ valueHex: new Uint8Array(serial) }),
      sigAlg,
      issuer,
      new asn1js.Sequence({ value: [x509Time(opts.notBefore), x509Time(opts.notAfter)] }),
      name(opts.cn),
      fromDer(spkiDer),
      extensions,
    ],
  });
  const tbsDer = toBuf(tbs.toBER());
  const signature = sign(kind === 'dsa' ? 'sha1' : 'sha256', tbsDer, privateKey);
  const cert = new asn1js.Sequence({
    value: [fromDer(tbsDer), kind === 'dsa' ? algId(OID.dsaWithSHA1, false) : algId(OID.sha256WithRSAEncryption, true), new asn1js.BitString({ valueHex: new Uint8Array(signature) })],
  });
  const certDer = toBuf(cert.toBER());
  return { kind, privateKey, publicKey, certDer, pem: toPem(certDer, 'CERTIFICATE'), issuerDer: toBuf(issuer.toBER()), serial };
}

export interface Pkcs7Options {
  digest: 'sha1' | 'sha256';
  /** OID put in SignerInfo.signatureAlgorithm (rsaEncryption = older documents, sha256WithRSAEncryption = newer). */
  signatureAlgorithm: string;
  /** Add the CMS algorithm-protection signed attribute (newer RSA documents). */
  algorithmProtection: boolean;
  /** Emit BER with indefinite lengths for the outer structures (as the real metadata service does). */
  ber: boolean;
  signingTime: Date;
}

function indef<T extends asn1js.Sequence | asn1js.Constructed>(node: T, on: boolean): T {
  if (on) {
    node.lenBlock.isIndefiniteForm = true;
    (node.valueBlock as unknown as { isIndefiniteForm: boolean }).isIndefiniteForm = true;
  }
  return node;
}

/** ContentInfo(SignedData) over `content`, signed by `signer` with signed attributes. Returns the (BER or DER) bytes. */
export function buildSignedData(content: Buffer, signer: Signer, o: Pkcs7Options): Buffer {
  const digestOid = o.digest === 'sha1' ? OID.sha1 : OID.sha256;
  const digestAlg = () => algId(digestOid, o.digest === 'sha256');
  const messageDigest = createHash(o.digest).update(content).digest();
  const attr = (oid: string, value: asn1js.AsnType) =>
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: oid }), new asn1js.Set({ value: [value] })] });
  const attrs: asn1js.Sequence[] = [
    attr(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    attr(OID.signingTime, new asn1js.UTCTime({ valueDate: o.signingTime })),
    attr(OID.messageDigest, new asn1js.OctetString({ valueHex: new Uint8Array(messageDigest) })),
  ];
  const sigAlgIsNull = o.signatureAlgorithm !== OID.dsaWithSHA1 && o.signatureAlgorithm !== OID.dsa;
  if (o.algorithmProtection) {
    // CMSAlgorithmProtection ::= SEQUENCE { digestAlgorithm, signatureAlgorithm [1] IMPLICIT AlgorithmIdentifier }
    const sa = algId(o.signatureAlgorithm, sigAlgIsNull);
    attrs.push(
      attr(
        OID.cmsAlgorithmProtection,
        new asn1js.Sequence({
          value: [digestAlg(), new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: sa.valueBlock.value })],
        }),
      ),
    );
  }
  // DER SET OF: elements sorted by their encodings.
  const attrDers = attrs.map((a) => toBuf(a.toBER())).sort(Buffer.compare);
  const signedAttrsSet = new asn1js.Set({ value: attrDers.map((d) => fromDer(d)) });
  const toSign = toBuf(signedAttrsSet.toBER()); // tag 0x31: what is actually signed
  const signature = sign(o.digest, toSign, signer.privateKey);
  const signedAttrsImplicit = new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: attrDers.map((d) => fromDer(d)) });

  const signerInfo = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Sequence({ value: [fromDer(signer.issuerDer), new asn1js.Integer({ valueHex: new Uint8Array(signer.serial) })] }),
      digestAlg(),
      signedAttrsImplicit,
      algId(o.signatureAlgorithm, sigAlgIsNull),
      new asn1js.OctetString({ valueHex: new Uint8Array(signature) }),
    ],
  });
  const encap = indef(
    new asn1js.Sequence({
      value: [
        new asn1js.ObjectIdentifier({ value: OID.data }),
        indef(
          new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.OctetString({ valueHex: new Uint8Array(content) })] }),
          o.ber,
        ),
      ],
    }),
    o.ber,
  );
  const signedData = indef(
    new asn1js.Sequence({
      value: [
        new asn1js.Integer({ value: 1 }),
        new asn1js.Set({ value: [digestAlg()] }),
        encap,
        new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [fromDer(signer.certDer)] }),
        new asn1js.Set({ value: [signerInfo] }),
      ],
    }),
    o.ber,
  );
  const contentInfo = indef(
    new asn1js.Sequence({
      value: [
        new asn1js.ObjectIdentifier({ value: OID.signedData }),
        indef(new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [signedData] }), o.ber),
      ],
    }),
    o.ber,
  );
  return toBuf(contentInfo.toBER());
}

/** Base64 wrapped at 64 columns with `\n`, no PEM armour — the shape the metadata service returns. */
export function wrap64(b64: string): string {
  return b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
}
