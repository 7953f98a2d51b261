import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, verify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { startCloudSim, type CloudSim, type SimInstance } from '../../src/cloudsim/index.js';
import { call, imds, imdsToken, raw } from './helpers.js';

let sim: CloudSim;
let inst: SimInstance;
let token: string;
beforeAll(async () => {
  sim = await startCloudSim({ region: 'eu-west-1' });
  sim.addRole({ name: 'app-role' });
  sim.addInstanceProfile({ name: 'app-profile', roleName: 'app-role' });
  inst = sim.addInstance({ imageId: 'ami-00000000000000abc', instanceProfile: 'app-profile', pendingTime: '2024-01-02T03:04:05Z' });
  sim.useInstance(inst.instanceId);
  token = await imdsToken(sim);
});
afterAll(async () => {
  await sim.close();
});

const ID = '/latest/dynamic/instance-identity';

// ---- minimal PKCS#7 walker (asn1js) ----------------------------------------------------------

interface Parsed {
  content: Buffer;
  certDer: Buffer;
  digestOid: string;
  sigAlgOid: string;
  signature: Buffer;
  signedAttrsDer: Buffer; // re-tagged as SET (0x31)
  attrs: Map<string, asn1js.AsnType>;
  issuerDer: Buffer;
  serial: Buffer;
}

function kids(n: asn1js.AsnType): asn1js.AsnType[] {
  return (n as asn1js.Constructed).valueBlock.value;
}
function bytes(n: asn1js.AsnType): Buffer {
  return Buffer.from((n as asn1js.OctetString).valueBlock.valueHexView);
}
function rawOf(n: asn1js.AsnType): Buffer {
  return Buffer.from(n.valueBeforeDecodeView);
}
const oid = (n: asn1js.AsnType) => (n as asn1js.ObjectIdentifier).valueBlock.toString();

function parsePkcs7(der: Buffer): Parsed {
  const r = asn1js.fromBER(new Uint8Array(der));
  expect(r.offset).not.toBe(-1);
  const ci = kids(r.result);
  expect(oid(ci[0])).toBe('1.2.840.113549.1.7.2');
  const sd = kids(kids(ci[1])[0]);
  expect((sd[0] as asn1js.Integer).valueBlock.valueDec).toBe(1);
  const encap = kids(sd[2]);
  expect(oid(encap[0])).toBe('1.2.840.113549.1.7.1');
  const content = bytes(kids(encap[1])[0]);
  const certs = sd[3];
  expect(certs.idBlock.tagClass).toBe(3);
  const certDer = rawOf(kids(certs)[0]);
  const si = kids(kids(sd[4])[0]);
  const sid = kids(si[1]);
  const signedAttrs = si[3];
  const attrsRaw = rawOf(signedAttrs);
  expect(attrsRaw[0]).toBe(0xa0);
  const attrs = new Map<string, asn1js.AsnType>();
  for (const a of kids(signedAttrs)) attrs.set(oid(kids(a)[0]), kids(kids(a)[1])[0]);
  return {
    content,
    certDer,
    digestOid: oid(kids(si[2])[0]),
    sigAlgOid: oid(kids(si[4])[0]),
    signature: bytes(si[5]),
    signedAttrsDer: Buffer.concat([Buffer.from([0x31]), attrsRaw.subarray(1)]),
    attrs,
    issuerDer: rawOf(sid[0]),
    serial: Buffer.from((sid[1] as asn1js.Integer).valueBlock.valueHexView),
  };
}

function pemToDer(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

describe('IMDSv2 token flow', () => {
  it('requires a session token (401 without or with a bad one)', async () => {
    expect((await imds(sim, `${ID}/document`)).status).toBe(401);
    expect((await imds(sim, `${ID}/document`, 'not-a-token')).status).toBe(401);
    expect((await imds(sim, `${ID}/document`, token)).status).toBe(200);
  });

  it('validates the TTL header and refuses forwarded token requests', async () => {
    expect((await raw(sim, { method: 'PUT', path: '/latest/api/token', headers: {} })).status).toBe(400);
    expect((await raw(sim, { method: 'PUT', path: '/latest/api/token', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '0' } })).status).toBe(400);
    expect((await raw(sim, { method: 'PUT', path: '/latest/api/token', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '21601' } })).status).toBe(400);
    const fwd = await raw(sim, { method: 'PUT', path: '/latest/api/token', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60', 'X-Forwarded-For': '1.2.3.4' } });
    expect(fwd.status).toBe(403);
    const ok = await raw(sim, { method: 'PUT', path: '/latest/api/token', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '60' } });
    expect(ok.headers['x-aws-ec2-metadata-token-ttl-seconds']).toBe('60');
  });

  it('expires tokens after their TTL', async () => {
    const t = await imdsToken(sim, 1);
    sim.advanceClock(2000);
    try {
      expect((await imds(sim, `${ID}/document`, t)).status).toBe(401);
    } finally {
      sim.advanceClock(-2000);
    }
  });
});

describe('instance identity document', () => {
  it('serves the current instance document with the real field set', async () => {
    const a = await imds(sim, `${ID}/document`, token);
    expect(a.text).toContain('"accountId" : "');
    const doc = JSON.parse(a.text);
    expect(Object.keys(doc).sort()).toEqual(
      ['accountId', 'architecture', 'availabilityZone', 'billingProducts', 'devpayProductCodes', 'marketplaceProductCodes', 'imageId', 'instanceId', 'instanceType', 'kernelId', 'pendingTime', 'privateIp', 'ramdiskId', 'region', 'version'].sort(),
    );
    expect(doc).toMatchObject({ accountId: sim.account, instanceId: inst.instanceId, imageId: 'ami-00000000000000abc', region: 'eu-west-1', availabilityZone: 'eu-west-1a', pendingTime: '2024-01-02T03:04:05Z', version: '2017-09-30' });
    expect(Buffer.from(a.text)).toEqual(sim.identityDocument());
  });

  it('follows useInstance and setPendingTime', async () => {
    const other = sim.addInstance({});
    sim.useInstance(other.instanceId);
    try {
      expect(JSON.parse((await imds(sim, `${ID}/document`, token)).text).instanceId).toBe(other.instanceId);
      sim.setPendingTime(other.instanceId, '2030-01-01T00:00:00Z');
      expect(JSON.parse((await imds(sim, `${ID}/document`, token)).text).pendingTime).toBe('2030-01-01T00:00:00Z');
    } finally {
      sim.useInstance(inst.instanceId);
    }
    sim.useInstance(undefined);
    try {
      expect((await imds(sim, `${ID}/document`, token)).status).toBe(404);
    } finally {
      sim.useInstance(inst.instanceId);
    }
  });

  it('signature: RSA PKCS#1 v1.5 SHA-256 over the exact document bytes, base64 with line breaks', async () => {
    const doc = Buffer.from((await imds(sim, `${ID}/document`, token)).text);
    const sigText = (await imds(sim, `${ID}/signature`, token)).text;
    expect(sigText).toContain('\n');
    const sig = Buffer.from(sigText, 'base64');
    const cert = new X509Certificate(sim.certificates.signature);
    expect(verify('sha256', doc, cert.publicKey, sig)).toBe(true);
    const forged = Buffer.from(doc.toString().replace(sim.account, '000000000000'));
    expect(verify('sha256', forged, cert.publicKey, sig)).toBe(false);
    // signed by the identity cert, not by the pkcs7 ones
    expect(verify('sha256', doc, new X509Certificate(sim.certificates.rsa2048).publicKey, sig)).toBe(false);
  });

  for (const kind of ['pkcs7', 'rsa2048'] as const) {
    it(`${kind}: BER SignedData whose messageDigest and signed attributes verify against the exposed certificate`, async () => {
      const doc = Buffer.from((await imds(sim, `${ID}/document`, token)).text);
      const text = (await imds(sim, `${ID}/${kind}`, token)).text;
      expect(text).not.toContain('-----BEGIN');
      for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(64);
      const der = Buffer.from(text.replace(/\n/g, ''), 'base64');
      expect(der.subarray(0, 2).toString('hex')).toBe('3080'); // indefinite length, like the real service
      const p = parsePkcs7(der);
      expect(p.content).toEqual(doc);

      const pem = sim.certificates[kind];
      const cert = new X509Certificate(pem);
      expect(p.certDer).toEqual(pemToDer(pem));
      expect(p.serial.toString('hex').toUpperCase()).toBe(cert.serialNumber.replace(/^0+/, ''));
      // issuer in SignerInfo = issuer Name of the certificate (self-signed: subject)
      expect(cert.issuer).toBe(cert.subject);
      expect(cert.checkIssued(cert)).toBe(true);

      const hash = kind === 'pkcs7' ? 'sha1' : 'sha256';
      expect(p.digestOid).toBe(kind === 'pkcs7' ? '1.3.14.3.2.26' : '2.16.840.1.101.3.4.2.1');
      expect(p.sigAlgOid).toBe(kind === 'pkcs7' ? '1.2.840.10040.4.3' : '1.2.840.113549.1.1.11');
      expect(cert.publicKey.asymmetricKeyType).toBe(kind === 'pkcs7' ? 'dsa' : 'rsa');
      expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(kind === 'pkcs7' ? 1024 : 2048);

      const md = bytes(p.attrs.get('1.2.840.113549.1.9.4')!);
      expect(md).toEqual(createHash(hash).update(doc).digest());
      expect(oid(p.attrs.get('1.2.840.113549.1.9.3')!)).toBe('1.2.840.113549.1.7.1');
      const signingTime = (p.attrs.get('1.2.840.113549.1.9.5') as asn1js.UTCTime).toDate();
      expect(Math.abs(signingTime.getTime() - Date.now())).toBeLessThan(60_000);
      expect(signingTime.getTime()).toBeGreaterThan(Date.parse(cert.validFrom));
      expect(signingTime.getTime()).toBeLessThan(Date.parse(cert.validTo));

      expect(verify(hash, p.signedAttrsDer, cert.publicKey, p.signature)).toBe(true);
      // the signature covers the attributes: flipping a byte of the SET breaks it
      const bad = Buffer.from(p.signedAttrsDer);
      bad[bad.length - 1] ^= 1;
      expect(verify(hash, bad, cert.publicKey, p.signature)).toBe(false);
      // and it is not valid under the other certificate
      const other = new X509Certificate(sim.certificates[kind === 'pkcs7' ? 'rsa2048' : 'pkcs7']);
      expect((() => { try { return verify(hash, p.signedAttrsDer, other.publicKey, p.signature); } catch { return false; } })()).toBe(false);
    });
  }

  it('rsa2048 with the older rsaEncryption signature algorithm and DER output on request', async () => {
    const old = await startCloudSim({ rsa2048SignatureAlgorithm: 'rsaEncryption', berPkcs7: false });
    try {
      const i = old.addInstance({});
      old.useInstance(i.instanceId);
      const t = await imdsToken(old);
      const der = Buffer.from((await imds(old, `${ID}/rsa2048`, t)).text.replace(/\n/g, ''), 'base64');
      expect(der[1]).not.toBe(0x80);
      const p = parsePkcs7(der);
      expect(p.sigAlgOid).toBe('1.2.840.113549.1.1.1');
      expect(p.attrs.has('1.2.840.113549.1.9.52')).toBe(false);
      expect(verify('sha256', p.signedAttrsDer, new X509Certificate(old.certificates.rsa2048).publicKey, p.signature)).toBe(true);
    } finally {
      await old.close();
    }
  });

  it('the default rsa2048 carries the CMS algorithm-protection attribute', async () => {
    const der = Buffer.from((await imds(sim, `${ID}/rsa2048`, token)).text.replace(/\n/g, ''), 'base64');
    expect(parsePkcs7(der).attrs.has('1.2.840.113549.1.9.52')).toBe(true);
  });
});

describe('certificates', () => {
  it('are self-signed X.509 v3 certificates, one per algorithm', () => {
    const seen = new Set<string>();
    for (const [k, pem] of Object.entries(sim.certificates)) {
      expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
      const c = new X509Certificate(pem);
      expect(c.verify(c.publicKey)).toBe(true);
      expect(c.ca).toBe(false);
      seen.add(c.fingerprint256);
      expect(k).toMatch(/^(pkcs7|rsa2048|signature)$/);
    }
    expect(seen.size).toBe(3);
  });
});

describe('instance role credentials', () => {
  it('lists the role and serves temporary credentials the sim accepts', async () => {
    const list = await imds(sim, '/latest/meta-data/iam/security-credentials/', token);
    expect(list.text).toBe('app-role');
    const a = await imds(sim, '/latest/meta-data/iam/security-credentials/app-role', token);
    const c = JSON.parse(a.text);
    expect(c).toMatchObject({ Code: 'Success', Type: 'AWS-HMAC' });
    expect(c.AccessKeyId).toMatch(/^ASIA/);
    expect(Date.parse(c.Expiration)).toBeGreaterThan(Date.now() + 3600_000);
    const who = await call(sim, 'sts', { Action: 'GetCallerIdentity' }, { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.Token }, { region: 'eu-west-1' });
    expect(who.status).toBe(200);
    expect(who.xml.GetCallerIdentityResponse.GetCallerIdentityResult.Arn).toBe(`arn:aws:sts::${sim.account}:assumed-role/app-role/${inst.instanceId}`);
    // the same credentials can describe the instance in its region (inferred ec2 login path)
    const d = await call(sim, 'ec2', { Action: 'DescribeInstances', 'InstanceId.1': inst.instanceId }, { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.Token }, { region: 'eu-west-1' });
    expect(d.status).toBe(200);
    expect((await imds(sim, '/latest/meta-data/iam/security-credentials/other-role', token)).status).toBe(404);
    expect((await imds(sim, '/latest/meta-data/instance-id', token)).text).toBe(inst.instanceId);
    expect((await imds(sim, '/latest/meta-data/placement/region', token)).text).toBe('eu-west-1');
  });

  it('404 for an instance without a profile', async () => {
    const bare = sim.addInstance({});
    sim.useInstance(bare.instanceId);
    try {
      expect((await imds(sim, '/latest/meta-data/iam/security-credentials/', token)).status).toBe(404);
    } finally {
      sim.useInstance(inst.instanceId);
    }
  });
});
