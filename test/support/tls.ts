/**
 * Certificates for the TLS tests, made at test time: a CA, a server certificate for 127.0.0.1 and
 * localhost, a client certificate from the same CA, and a second, unrelated CA with a client
 * certificate of its own. Built with asn1js (the DER helpers of the cloud simulator's PKI) and signed
 * with node:crypto, ECDSA P-256, valid from an hour ago for a day.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as asn1js from 'asn1js';
import { OID, algId, fromDer, toBuf, toPem, x509Time } from '../../src/cloudsim/pki.js';

const TLS_OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectAltName: '2.5.29.17',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

export interface Issued {
  cert: string;
  key: string;
}

export interface TestCa extends Issued {
  /**
   * A certificate signed by this CA: `names` become its subject alternative names (IPv4 addresses as
   * IP entries, the rest as DNS names); `usage` its extended key usage (default: server and client).
   */
  issue(cn: string, opts?: { names?: string[]; usage?: Array<'server' | 'client'> }): Issued;
}

function distinguishedName(cn: string): asn1js.Sequence {
  return new asn1js.Sequence({
    value: [new asn1js.Set({ value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.commonName }), new asn1js.Utf8String({ value: cn })] })] })],
  });
}

function extension(oid: string, critical: boolean, value: asn1js.AsnType): asn1js.Sequence {
  const parts: asn1js.AsnType[] = [new asn1js.ObjectIdentifier({ value: oid })];
  if (critical) parts.push(new asn1js.Boolean({ value: true }));
  parts.push(new asn1js.OctetString({ valueHex: value.toBER() }));
  return new asn1js.Sequence({ value: parts });
}

function generalName(name: string): asn1js.Primitive {
  // [7] iPAddress (the address's bytes) or [2] dNSName, both IMPLICIT.
  if (isIPv4(name)) return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 7 }, valueHex: new Uint8Array(name.split('.').map(Number)) });
  return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 }, valueHex: new Uint8Array(Buffer.from(name, 'ascii')) });
}

function certificate(o: { subject: string; issuer: string; publicKey: KeyObject; signingKey: KeyObject; extensions: asn1js.Sequence[] }): string {
  const now = Date.now();
  const serial = randomBytes(8);
  serial[0] = (serial[0] & 0x7f) | 0x40;
  const tbs = new asn1js.Sequence({
    value: [
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Integer({ value: 2 })] }),
      new asn1js.Integer({ valueHex: new Uint8Array(serial) }),
      algId(TLS_OID.ecdsaWithSha256, false),
      distinguishedName(o.issuer),
      new asn1js.Sequence({ value: [x509Time(new Date(now - 3_600_000)), x509Time(new Date(now + 86_400_000))] }),
      distinguishedName(o.subject),
      fromDer(o.publicKey.export({ type: 'spki', format: 'der' })),
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 3 }, value: [new asn1js.Sequence({ value: o.extensions })] }),
    ],
  });
  const tbsDer = toBuf(tbs.toBER());
  const cert = new asn1js.Sequence({
    value: [fromDer(tbsDer), algId(TLS_OID.ecdsaWithSha256, false), new asn1js.BitString({ valueHex: new Uint8Array(sign('sha256', tbsDer, o.signingKey)) })],
  });
  return toPem(toBuf(cert.toBER()), 'CERTIFICATE');
}

const keyPem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }) as string;

export function makeCa(cn: string): TestCa {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const basicConstraintsCa = extension(OID.basicConstraints, true, new asn1js.Sequence({ value: [new asn1js.Boolean({ value: true })] }));
  return {
    cert: certificate({ subject: cn, issuer: cn, publicKey, signingKey: privateKey, extensions: [basicConstraintsCa] }),
    key: keyPem(privateKey),
    issue(subject, opts = {}) {
      const leaf = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const usage = (opts.usage ?? ['server', 'client']).map((u) => new asn1js.ObjectIdentifier({ value: u === 'server' ? TLS_OID.serverAuth : TLS_OID.clientAuth }));
      const extensions = [extension(TLS_OID.extKeyUsage, false, new asn1js.Sequence({ value: usage }))];
      if (opts.names?.length) extensions.push(extension(TLS_OID.subjectAltName, false, new asn1js.Sequence({ value: opts.names.map(generalName) })));
      return { cert: certificate({ subject, issuer: cn, publicKey: leaf.publicKey, signingKey: privateKey, extensions }), key: keyPem(leaf.privateKey) };
    },
  };
}

/** The files the TLS tests hand to `svc server` and the CLI. */
export interface TestPkiFiles {
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** a CA unrelated to the server's, and a client certificate it signed */
  otherCaCert: string;
  otherClientCert: string;
  otherClientKey: string;
}

/** Makes both CAs and their certificates and writes them as PEM files into `dir`. */
export async function writeTestPki(dir: string): Promise<TestPkiFiles> {
  const ca = makeCa('svc test CA');
  const other = makeCa('unrelated CA');
  const server = ca.issue('svc server', { names: ['127.0.0.1', 'localhost'] });
  const client = ca.issue('svc client', { usage: ['client'] });
  const otherClient = other.issue('stranger', { usage: ['client'] });
  const files: TestPkiFiles = {
    caCert: path.join(dir, 'ca.pem'),
    serverCert: path.join(dir, 'server.pem'),
    serverKey: path.join(dir, 'server-key.pem'),
    clientCert: path.join(dir, 'client.pem'),
    clientKey: path.join(dir, 'client-key.pem'),
    otherCaCert: path.join(dir, 'other-ca.pem'),
    otherClientCert: path.join(dir, 'other-client.pem'),
    otherClientKey: path.join(dir, 'other-client-key.pem'),
  };
  const contents: Array<[string, string]> = [
    [files.caCert, ca.cert],
    [files.serverCert, server.cert],
    [files.serverKey, server.key],
    [files.clientCert, client.cert],
    [files.clientKey, client.key],
    [files.otherCaCert, other.cert],
    [files.otherClientCert, otherClient.cert],
    [files.otherClientKey, otherClient.key],
  ];
  await Promise.all(contents.map(([file, text]) => writeFile(file, text, { mode: 0o600 })));
  return files;
}
