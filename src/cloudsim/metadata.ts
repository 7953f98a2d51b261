/**
 * The IMDSv2 instance metadata service of the current instance: session tokens, the identity document
 * and its three signatures, a few meta-data entries, and the instance role's rotating credentials.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes, sign } from 'node:crypto';
import { send } from './http.js';
import { buildSignedData, OID, wrap64 } from './pki.js';
import { isoNoMs, issueSession, now, type KeyRecord, type MetadataRequest, type SimInstance, type SimState } from './state.js';

/** The identity document bytes, as the metadata service serves and signs them. */
export function identityDocument(i: SimInstance): Buffer {
  const doc = {
    accountId: i.accountId,
    architecture: i.architecture,
    availabilityZone: i.availabilityZone,
    billingProducts: null,
    devpayProductCodes: null,
    marketplaceProductCodes: null,
    imageId: i.imageId,
    instanceId: i.instanceId,
    instanceType: i.instanceType,
    kernelId: null,
    pendingTime: i.pendingTime,
    privateIp: i.privateIp,
    ramdiskId: null,
    region: i.region,
    version: '2017-09-30',
  };
  // The real service pretty-prints with " : " between key and value.
  return Buffer.from(JSON.stringify(doc, null, 2).replace(/^(\s*"[^"]+"):/gm, '$1 :'), 'utf8');
}

function instanceCreds(s: SimState, i: SimInstance): { role: string; k: KeyRecord } | undefined {
  if (!i.instanceProfile) return undefined;
  const p = s.profiles.get(`${i.accountId}/${i.instanceProfile}`);
  const roleName = p?.roleNames[0];
  const role = roleName ? s.roles.get(`${i.accountId}/${roleName}`) : undefined;
  if (!p || !role) return undefined;
  let k = s.imdsCreds.get(i.instanceId);
  // Rotated ahead of expiry, like the real service (new keys well before the old ones expire).
  if (!k || !s.keys.has(k.accessKeyId) || k.roleName !== role.name || k.expiration!.getTime() - now(s).getTime() < 15 * 60_000) {
    k = issueSession(s, role, i.instanceId, 6 * 3600);
    s.imdsCreds.set(i.instanceId, k);
  }
  return { role: role.name, k };
}

export function handleMetadata(s: SimState, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0];
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i].toLowerCase()] ??= req.rawHeaders[i + 1];
  const entry: MetadataRequest = { time: now(s), method: req.method ?? 'GET', path, status: 200, headers };
  s.metadataRequests.push(entry);
  const reply = (status: number, body: string, ctype = 'text/plain', extra: Record<string, string> = {}) => {
    entry.status = status;
    send(res, status, body, ctype, extra);
  };
  if (path === '/latest/api/token') {
    if (req.method !== 'PUT') return reply(405, 'Method Not Allowed');
    if (req.headers['x-forwarded-for']) return reply(403, 'Forbidden');
    const ttlRaw = req.headers['x-aws-ec2-metadata-token-ttl-seconds'];
    const ttl = Number(ttlRaw);
    if (typeof ttlRaw !== 'string' || !/^\d+$/.test(ttlRaw) || ttl < 1 || ttl > 21600) return reply(400, 'Bad Request');
    const token = randomBytes(42).toString('base64').replace(/[+/=]/g, 'A');
    s.imdsTokens.set(token, now(s).getTime() + ttl * 1000);
    return reply(200, token, 'text/plain', { 'X-aws-ec2-metadata-token-ttl-seconds': String(ttl) });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'Method Not Allowed');
  const token = req.headers['x-aws-ec2-metadata-token'];
  const exp = typeof token === 'string' ? s.imdsTokens.get(token) : undefined;
  if (exp === undefined || exp <= now(s).getTime()) return reply(401, 'Unauthorized');
  const inst = s.currentInstance ? s.instances.get(s.currentInstance) : undefined;
  if (!inst) return reply(404, 'Not Found');
  const doc = identityDocument(inst);
  const { ber, rsa2048SignatureAlgorithm: rsaSigAlg } = s.documents;
  switch (path) {
    case '/latest/dynamic/instance-identity/':
      return reply(200, 'document\npkcs7\nrsa2048\nsignature');
    case '/latest/dynamic/instance-identity/document':
      return reply(200, doc.toString('utf8'));
    case '/latest/dynamic/instance-identity/signature':
      return reply(200, wrap64(sign('sha256', doc, s.signers.signature.privateKey).toString('base64')));
    case '/latest/dynamic/instance-identity/pkcs7':
      return reply(
        200,
        wrap64(buildSignedData(doc, s.signers.pkcs7, { digest: 'sha1', signatureAlgorithm: OID.dsaWithSHA1, algorithmProtection: false, ber, signingTime: now(s) }).toString('base64')),
      );
    case '/latest/dynamic/instance-identity/rsa2048':
      return reply(
        200,
        wrap64(
          buildSignedData(doc, s.signers.rsa2048, {
            digest: 'sha256',
            signatureAlgorithm: rsaSigAlg === 'rsaEncryption' ? OID.rsaEncryption : OID.sha256WithRSAEncryption,
            algorithmProtection: rsaSigAlg !== 'rsaEncryption',
            ber,
            signingTime: now(s),
          }).toString('base64'),
        ),
      );
    case '/latest/meta-data/instance-id':
      return reply(200, inst.instanceId);
    case '/latest/meta-data/ami-id':
      return reply(200, inst.imageId);
    case '/latest/meta-data/instance-type':
      return reply(200, inst.instanceType);
    case '/latest/meta-data/local-ipv4':
      return reply(200, inst.privateIp);
    case '/latest/meta-data/placement/region':
      return reply(200, inst.region);
    case '/latest/meta-data/placement/availability-zone':
      return reply(200, inst.availabilityZone);
  }
  if (path === '/latest/meta-data/iam/info') {
    const p = inst.instanceProfile ? s.profiles.get(`${inst.accountId}/${inst.instanceProfile}`) : undefined;
    if (!p) return reply(404, 'Not Found');
    return reply(200, JSON.stringify({ Code: 'Success', LastUpdated: isoNoMs(now(s)), InstanceProfileArn: p.arn, InstanceProfileId: p.id }, null, 2));
  }
  if (path === '/latest/meta-data/iam/security-credentials/' || path === '/latest/meta-data/iam/security-credentials') {
    const c = instanceCreds(s, inst);
    return c ? reply(200, c.role) : reply(404, 'Not Found');
  }
  const m = /^\/latest\/meta-data\/iam\/security-credentials\/([^/]+)$/.exec(path);
  if (m) {
    const c = instanceCreds(s, inst);
    if (!c || c.role !== decodeURIComponent(m[1])) return reply(404, 'Not Found');
    return reply(
      200,
      JSON.stringify(
        {
          Code: 'Success',
          LastUpdated: isoNoMs(c.k.createDate),
          Type: 'AWS-HMAC',
          AccessKeyId: c.k.accessKeyId,
          SecretAccessKey: c.k.secret,
          Token: c.k.sessionToken,
          Expiration: isoNoMs(c.k.expiration!),
        },
        null,
        2,
      ),
    );
  }
  return reply(404, 'Not Found');
}
