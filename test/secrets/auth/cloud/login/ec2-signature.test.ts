/**
 * ec2 logins, the signed document: PKCS#7 rsa2048 (both signature algorithm identifiers, with or without
 * newlines and PEM armour), identity + signature, the SHA-1 pkcs7 document (both SHA-1 flows refused
 * unless the server allows SHA-1), trust only in built-in and registered certificates of the matching
 * type, and the dispatch rules for which fields make an ec2 login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../../../../src/cloudsim/index.js';
import { startInProcessServer, type InProcessServer } from '../../../../support/in-process.js';
import { metadataClient } from '../../../../../src/cloud/metadata.js';
import { ApiError } from '../../../../../src/shared/errors.js';
import { mountCloud, startLoginWorld, type InstanceDocuments, type LoginWorld } from './login-support.js';

let w: LoginWorld;
let docs: InstanceDocuments;
let instanceId: string;

beforeAll(async () => {
  // SHA-1 allowed, so that identity + signature logins get as far as their signature check; the
  // default's refusals have a server of their own below.
  w = await startLoginWorld({ server: { cloud: { allowSha1: true } } });
  const inst = w.sim.addInstance();
  instanceId = inst.instanceId;
  docs = await w.documents(instanceId);
  await w.writeRole('web', { auth_type: 'ec2', bound_account_id: w.sim.account, token_policies: 'web', disallow_reauthentication: true });
});
afterAll(async () => w?.close());

/** disallow_reauthentication lets every test log the same instance in without a nonce; it is cleared first. */
async function loginOk(body: Record<string, unknown>) {
  await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${instanceId}`);
  return w.login({ role: 'web', ...body });
}

describe('accepted documents', () => {
  it('the rsa2048 PKCS#7 document (sha256WithRSAEncryption) logs in and the token carries the role policies', async () => {
    const answer = await loginOk({ pkcs7: docs.rsa2048 });
    expect(answer.auth.token_policies).toEqual(['default', 'web']);
    expect(answer.auth.metadata).toMatchObject({ account_id: w.sim.account, auth_type: 'ec2', role: 'web', role_tag_max_ttl: '0s' });
  });

  it('the document as the metadata service serves it (wrapped at 64 columns) and with PEM armour both work', async () => {
    const wrapped = docs.rsa2048.replace(/(.{64})/g, '$1\n');
    await loginOk({ pkcs7: wrapped });
    await loginOk({ pkcs7: `-----BEGIN PKCS7-----\n${wrapped}\n-----END PKCS7-----\n` });
  });

  it('identity + signature logs in', async () => {
    const answer = await loginOk({ identity: docs.identity, signature: docs.signature });
    expect(answer.auth.metadata).toMatchObject({ auth_type: 'ec2', role: 'web' });
  });

  it('an older rsa2048 document with the rsaEncryption algorithm identifier logs in too', async () => {
    const old = await startCloudSim({ account: w.sim.account, rsa2048SignatureAlgorithm: 'rsaEncryption' });
    try {
      await w.srv.client().secrets('POST', 'auth/cloud/config/certificate/old-rsa2048', { body: { cloud_public_cert: old.certificates.rsa2048, type: 'pkcs7' } });
      // The document is signed by the old-style simulator; the instance it names must still be running where the mount looks.
      old.addInstance({ instanceId });
      const rsa2048 = (await metadataClient({ endpoint: old.metadataUrl }).rsa2048()).replace(/\n/g, '');
      await loginOk({ pkcs7: rsa2048 });
    } finally {
      await w.srv.client().secrets('DELETE', 'auth/cloud/config/certificate/old-rsa2048');
      await old.close();
    }
  });
});

describe('the SHA-1 flows, off unless the server allows SHA-1', () => {
  let plain: InProcessServer;
  beforeAll(async () => {
    plain = await startInProcessServer();
    await mountCloud(plain, 'cloud', w.sim);
    await plain.client().secrets('POST', 'auth/cloud/role/web', { body: { auth_type: 'ec2', bound_account_id: w.sim.account } });
  });
  afterAll(async () => plain?.close());

  /** The refusal of a login to the server started without -cloud-allow-sha1. */
  async function refusedByDefault(body: Record<string, unknown>) {
    const err = await plain.client('').secrets('POST', 'auth/cloud/login', { body: { role: 'web', ...body } }).then(
      () => undefined,
      (e: ApiError) => e,
    );
    expect(err, 'the login succeeded').toBeInstanceOf(ApiError);
    return { status: err!.statusCode, message: err!.errors[0] };
  }

  it('the DSA pkcs7 document is refused by default, and the message says how to allow it', async () => {
    const { status, message } = await refusedByDefault({ pkcs7: docs.pkcs7 });
    expect(status).toBe(400);
    expect(message).toContain('SHA-1');
    expect(message).toContain('-cloud-allow-sha1');
    expect(message).toContain('rsa2048');
  });

  it('identity + signature is refused by default: what is disabled, the rsa2048 document instead, and the flag', async () => {
    const { status, message } = await refusedByDefault({ identity: docs.identity, signature: docs.signature });
    expect(status).toBe(400);
    expect(message).toBe(
      'failed to verify the signature: the identity and signature login relies on the provider\'s SHA-1 signed ' +
        'certificate, which is disabled by default; send the "rsa2048" document as pkcs7 instead, or start the server ' +
        'with -cloud-allow-sha1 to accept SHA-1 signatures',
    );
    // The rsa2048 document it points to does log in there.
    const answer = await plain.client('').secrets('POST', 'auth/cloud/login', { body: { role: 'web', pkcs7: docs.rsa2048 } });
    expect(answer?.auth?.client_token).toMatch(/^svc\./);
  });

  it('a server started with SHA-1 allowed accepts both: the DSA pkcs7 document, and identity + signature', async () => {
    expect((await loginOk({ pkcs7: docs.pkcs7 })).auth.client_token).toMatch(/^svc\./);
    expect((await loginOk({ identity: docs.identity, signature: docs.signature })).auth.client_token).toMatch(/^svc\./);
  });
});

describe('refused documents', () => {

  it('a document signed by a certificate that is neither built in nor registered is refused', async () => {
    const other: CloudSim = await startCloudSim({ account: w.sim.account });
    try {
      other.addInstance({ instanceId });
      const imds = metadataClient({ endpoint: other.metadataUrl });
      const rsa2048 = (await imds.rsa2048()).replace(/\n/g, '');
      const identity = (await imds.identityDocumentRaw()).toString('base64');
      const signature = (await imds.signature()).replace(/\n/g, '');
      const pkcs7Refusal = await w.loginError({ role: 'web', pkcs7: rsa2048 });
      expect(pkcs7Refusal.status).toBe(400);
      expect(pkcs7Refusal.message).toContain('no trusted certificate matches the signer');
      const identityRefusal = await w.loginError({ role: 'web', identity, signature });
      expect(identityRefusal.status).toBe(400);
      expect(identityRefusal.message).toContain('instance identity verification using SHA256 RSA signature is unsuccessful');
    } finally {
      await other.close();
    }
  });

  it('a certificate counts only for its registered type', async () => {
    const c = w.srv.client();
    await c.secrets('POST', 'auth/cloud/config/certificate/sim-identity', { body: { cloud_public_cert: w.sim.certificates.signature, type: 'pkcs7' } });
    try {
      const { status, message } = await w.loginError({ role: 'web', identity: docs.identity, signature: docs.signature });
      expect(status).toBe(400);
      expect(message).toContain('unsuccessful');
    } finally {
      await c.secrets('POST', 'auth/cloud/config/certificate/sim-identity', { body: { cloud_public_cert: w.sim.certificates.signature, type: 'identity' } });
    }
  });

  it('a document changed after signing is refused: the identity bytes and the PKCS#7 content', async () => {
    const doc = Buffer.from(docs.identity, 'base64').toString('utf8').replace(w.sim.account, '999999999999');
    const tampered = await w.loginError({ role: 'web', identity: Buffer.from(doc).toString('base64'), signature: docs.signature });
    expect(tampered.status).toBe(400);
    const der = Buffer.from(docs.rsa2048, 'base64');
    const at = der.indexOf(Buffer.from(`"accountId" : "${w.sim.account}"`));
    expect(at).toBeGreaterThan(0);
    der.write('9', at + 16);
    const pkcs7 = await w.loginError({ role: 'web', pkcs7: der.toString('base64') });
    expect(pkcs7.status).toBe(400);
    expect(pkcs7.message).toContain('failed to verify the signature');
  });

  it('text that is not base64 or not PKCS#7 is refused with a 400', async () => {
    expect(await w.loginError({ role: 'web', pkcs7: 'not base64!' })).toMatchObject({ status: 400 });
    expect(await w.loginError({ role: 'web', pkcs7: Buffer.from('hello').toString('base64') })).toMatchObject({ status: 400 });
    expect(await w.loginError({ role: 'web', identity: '%%%', signature: docs.signature })).toMatchObject({ status: 400, message: expect.stringContaining('base64') });
  });
});

describe('which fields make an ec2 login', () => {
  it('nothing at all', async () => {
    expect(await w.loginError({ role: 'web' })).toEqual({ status: 400, message: expect.stringContaining("didn't supply required authentication values") });
  });

  it('identity without signature, or signature alone', async () => {
    for (const body of [{ identity: docs.identity }, { signature: docs.signature }]) {
      expect(await w.loginError({ role: 'web', ...body })).toEqual({ status: 400, message: expect.stringContaining('some of the auth values for the ec2 auth type but not all') });
    }
  });

  it('ec2 and iam fields together', async () => {
    expect(await w.loginError({ role: 'web', pkcs7: docs.rsa2048, iam_http_request_method: 'POST' })).toEqual({
      status: 400,
      message: expect.stringContaining('supplied auth values for both ec2 and iam auth types'),
    });
  });

  it('pkcs7 together with identity and signature', async () => {
    expect(await w.loginError({ role: 'web', pkcs7: docs.rsa2048, identity: docs.identity, signature: docs.signature })).toEqual({
      status: 400,
      message: expect.stringContaining('provide only one'),
    });
  });

  it('empty values present count as ec2 but verify nothing', async () => {
    expect(await w.loginError({ role: 'web', pkcs7: '' })).toEqual({ status: 400, message: expect.stringContaining('either pkcs7 or a tuple') });
  });

  it('pkcs7 with only one of identity and signature: pkcs7 is used', async () => {
    await loginOk({ pkcs7: docs.rsa2048, identity: docs.identity });
  });

  it('no token is needed, and a bad token sent along does not matter', async () => {
    await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${instanceId}`);
    const answer = await w.srv.client('svc.not-a-token').secrets('POST', 'auth/cloud/login', { body: { role: 'web', pkcs7: docs.rsa2048 } });
    expect(answer?.auth?.client_token).toMatch(/^svc\./);
  });
});
