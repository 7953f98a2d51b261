/**
 * The headers of an iam login's signed request: the X-Amz-* allow-list (only on a mount with a client
 * configuration; allowed_sts_header_values adds to it), and the server-ID header that binds a signed
 * request to one server (iam_server_id_header_value), under our name or Vault's.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimUser } from '../../../../../src/cloudsim/index.js';
import { b64, mountCloud, presignedCallerIdentity, requestHeaders, signedCallerIdentity, startLoginWorld, type LoginWorld } from './login-support.js';

let w: LoginWorld;
let alice: SimUser;

const root = () => w.srv.client();
const asAlice = (opts: Parameters<typeof signedCallerIdentity>[1] = {}) => signedCallerIdentity(alice, opts);
const callsSince = (from: number) => w.sim.requests.slice(from);

beforeAll(async () => {
  w = await startLoginWorld();
  alice = w.sim.addUser({ name: 'alice' });
  await w.writeRole('dev', { bound_iam_principal_arn: alice.arn });
});
afterAll(async () => w?.close());

describe('the X-Amz-* header allow-list', () => {
  it('an extra X-Amz-Foo header is refused by name, before anything is sent', async () => {
    const from = w.sim.requests.length;
    const r = await w.loginError({ role: 'dev', ...asAlice({ unsignedHeaders: { 'X-Amz-Foo': 'bar' } }) });
    expect(r).toEqual({ status: 400, message: expect.stringMatching(/^invalid request header: X-Amz-Foo/) });
    // also when it is signed: what counts is the name
    const signed = await w.loginError({ role: 'dev', ...asAlice({ headers: { 'x-amz-foo': 'bar' } }) });
    expect(signed).toEqual({ status: 400, message: expect.stringMatching(/^invalid request header: X-Amz-Foo/) });
    expect(callsSince(from)).toEqual([]);
  });

  it('the default headers (security token, content sha256, user agent) are allowed', async () => {
    const deployer = w.sim.addRole({ name: 'builder' });
    await w.writeRole('builder', { bound_iam_principal_arn: deployer.arn });
    const session = w.sim.assumeRole(deployer.arn, 'b1');
    const bodyHash = createHash('sha256').update('Action=GetCallerIdentity&Version=2011-06-15').digest('hex');
    const signed = signedCallerIdentity(session, { headers: { 'X-Amz-Content-Sha256': bodyHash, 'X-Amz-User-Agent': 'aws-sdk-js/3' } });
    expect(Object.keys(requestHeaders(signed))).toContain('X-Amz-Security-Token');
    expect((await w.login({ role: 'builder', ...signed })).auth.metadata?.auth_type).toBe('iam');
  });

  it('a presigned GET of a session carries X-Amz-Security-Token in its query, which is allowed', async () => {
    const role = w.sim.addRole({ name: 'getter' });
    await w.writeRole('getter', { bound_iam_principal_arn: role.arn });
    const fields = presignedCallerIdentity(w.sim.assumeRole(role.arn, 'g1'));
    expect(Buffer.from(fields.iam_request_url, 'base64').toString()).toContain('X-Amz-Security-Token=');
    expect((await w.login({ role: 'getter', ...fields })).auth.metadata?.auth_type).toBe('iam');
  });

  it('a presigned GET with an extra X-Amz-* query parameter is refused by name', async () => {
    const r = await w.loginError({ role: 'dev', ...presignedCallerIdentity(alice, { query: 'Action=GetCallerIdentity&Version=2011-06-15&X-Amz-Foo=1' }) });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^invalid request query param: X-Amz-Foo/);
  });

  it('allowed_sts_header_values admits it, stored canonicalised (given lower case, sent in any case)', async () => {
    await mountCloud(w.srv, 'extra-headers', w.sim, { allowed_sts_header_values: 'x-amz-foo' });
    expect((await root().secrets('GET', 'auth/extra-headers/config/client'))!.data!.allowed_sts_header_values).toEqual(['X-Amz-Foo']);
    await w.writeRole('dev', { bound_iam_principal_arn: alice.arn }, 'extra-headers');
    const { auth } = await w.login({ role: 'dev', ...asAlice({ headers: { 'x-AMZ-foo': 'bar' } }) }, 'extra-headers');
    expect(auth.metadata?.auth_type).toBe('iam');
    // another X-Amz-* header is still refused there
    const r = await w.loginError({ role: 'dev', ...asAlice({ unsignedHeaders: { 'X-Amz-Bar': '1' } }) }, 'extra-headers');
    expect(r.message).toMatch(/^invalid request header: X-Amz-Bar/);
  });

  it('a mount without config/client does not apply the allow-list: the request goes on to the global endpoint', async () => {
    await root().secrets('POST', 'sys/auth/bare', { body: { type: 'cloud' } });
    // No client configuration, so nothing to resolve ARNs with: bind the canonical ARN.
    await w.writeRole('dev', { bound_iam_principal_arn: alice.arn, resolve_cloud_unique_ids: false }, 'bare');
    const r = await w.loginError({ role: 'dev', ...asAlice({ unsignedHeaders: { 'X-Amz-Foo': 'bar' } }) }, 'bare');
    expect(r.status).toBe(400);
    expect(r.message).not.toContain('invalid request header');
    // the default global endpoint, which cannot be reached from here
    expect(r.message).toMatch(/^error making upstream request to https:\/\/sts\.amazonaws\.com: /);
  });
});

describe('the server-ID header (iam_server_id_header_value)', () => {
  const HEADER = 'X-Svc-Cloud-IAM-Server-ID';
  beforeAll(async () => {
    await mountCloud(w.srv, 'sid', w.sim, { iam_server_id_header_value: 'svc.example.com' });
    await w.writeRole('dev', { bound_iam_principal_arn: alice.arn }, 'sid');
  });

  it('present, equal and signed: the login succeeds, and the provider saw it signed', async () => {
    const from = w.sim.requests.length;
    const { auth } = await w.login({ role: 'dev', ...asAlice({ headers: { [HEADER]: 'svc.example.com' } }) }, 'sid');
    expect(auth.metadata?.auth_type).toBe('iam');
    expect(callsSince(from)[0].signedHeaders).toContain('x-svc-cloud-iam-server-id');
  });

  it('the header name is matched in any case', async () => {
    const { auth } = await w.login({ role: 'dev', ...asAlice({ headers: { 'x-svc-cloud-iam-server-id': 'svc.example.com' } }) }, 'sid');
    expect(auth.metadata?.auth_type).toBe('iam');
  });

  it('a presigned GET carries it among X-Amz-SignedHeaders', async () => {
    const { auth } = await w.login({ role: 'dev', ...presignedCallerIdentity(alice, { headers: { [HEADER]: 'svc.example.com' } }) }, 'sid');
    expect(auth.metadata?.auth_type).toBe('iam');
  });

  it('missing, different, or not signed: 400 naming the header, and nothing is sent', async () => {
    const from = w.sim.requests.length;
    const missing = await w.loginError({ role: 'dev', ...asAlice() }, 'sid');
    expect(missing).toEqual({ status: 400, message: `error validating ${HEADER} header: missing header "${HEADER}"` });
    const other = await w.loginError({ role: 'dev', ...asAlice({ headers: { [HEADER]: 'other.example.com' } }) }, 'sid');
    expect(other.status).toBe(400);
    expect(other.message).toBe(`error validating ${HEADER} header: expected "svc.example.com" but got "other.example.com"`);
    const unsigned = await w.loginError({ role: 'dev', ...asAlice({ unsignedHeaders: { [HEADER]: 'svc.example.com' } }) }, 'sid');
    expect(unsigned.status).toBe(400);
    expect(unsigned.message).toMatch(new RegExp(`^error validating ${HEADER} header: .*(not|n't) signed`));
    const unsignedGet = await w.loginError({ role: 'dev', ...presignedCallerIdentity(alice), iam_request_headers: b64(JSON.stringify({ [HEADER]: ['svc.example.com'] })) }, 'sid');
    expect(unsignedGet.status).toBe(400);
    expect(unsignedGet.message).toMatch(new RegExp(`^error validating ${HEADER} header: .*(not|n't) signed`));
    expect(callsSince(from)).toEqual([]);
  });

  describe("Vault's name for it, X-Vault-AWS-IAM-Server-ID", () => {
    const VAULT = 'X-Vault-AWS-IAM-Server-ID';

    it('signed with the configured value: the login succeeds, POST or presigned GET, in any case', async () => {
      const from = w.sim.requests.length;
      expect((await w.login({ role: 'dev', ...asAlice({ headers: { [VAULT]: 'svc.example.com' } }) }, 'sid')).auth.metadata?.auth_type).toBe('iam');
      expect(callsSince(from)[0].signedHeaders).toContain('x-vault-aws-iam-server-id');
      expect((await w.login({ role: 'dev', ...asAlice({ headers: { 'x-vault-aws-iam-server-id': 'svc.example.com' } }) }, 'sid')).auth.metadata?.auth_type).toBe('iam');
      expect((await w.login({ role: 'dev', ...presignedCallerIdentity(alice, { headers: { [VAULT]: 'svc.example.com' } }) }, 'sid')).auth.metadata?.auth_type).toBe('iam');
    });

    it('different or unsigned: 400 naming the header that was sent, and nothing is sent on', async () => {
      const from = w.sim.requests.length;
      const other = await w.loginError({ role: 'dev', ...asAlice({ headers: { [VAULT]: 'other.example.com' } }) }, 'sid');
      expect(other).toEqual({ status: 400, message: `error validating ${VAULT} header: expected "svc.example.com" but got "other.example.com"` });
      const unsigned = await w.loginError({ role: 'dev', ...asAlice({ unsignedHeaders: { [VAULT]: 'svc.example.com' } }) }, 'sid');
      expect(unsigned.status).toBe(400);
      expect(unsigned.message).toMatch(new RegExp(`^error validating ${VAULT} header: .*(not|n't) signed`));
      expect(callsSince(from)).toEqual([]);
    });

    it('when both names are sent, ours is the one checked', async () => {
      const oursRight = await w.login({ role: 'dev', ...asAlice({ headers: { [HEADER]: 'svc.example.com', [VAULT]: 'other.example.com' } }) }, 'sid');
      expect(oursRight.auth.metadata?.auth_type).toBe('iam');
      const oursWrong = await w.loginError({ role: 'dev', ...asAlice({ headers: { [HEADER]: 'other.example.com', [VAULT]: 'svc.example.com' } }) }, 'sid');
      expect(oursWrong).toEqual({ status: 400, message: `error validating ${HEADER} header: expected "svc.example.com" but got "other.example.com"` });
      // Vault's signed and right does not stand in for ours sent unsigned.
      const oursUnsigned = await w.loginError({ role: 'dev', ...asAlice({ headers: { [VAULT]: 'svc.example.com' }, unsignedHeaders: { [HEADER]: 'svc.example.com' } }) }, 'sid');
      expect(oursUnsigned.message).toMatch(new RegExp(`^error validating ${HEADER} header: .*(not|n't) signed`));
    });

    it('allowed_sts_header_values takes either name, stored canonicalised, and the login still checks the value', async () => {
      await mountCloud(w.srv, 'sid-allowed', w.sim, { iam_server_id_header_value: 'svc.example.com', allowed_sts_header_values: [VAULT, HEADER, 'x-amz-foo'] });
      expect((await root().secrets('GET', 'auth/sid-allowed/config/client'))!.data!.allowed_sts_header_values).toEqual(['X-Vault-Aws-Iam-Server-Id', 'X-Svc-Cloud-Iam-Server-Id', 'X-Amz-Foo']);
      await w.writeRole('dev', { bound_iam_principal_arn: alice.arn }, 'sid-allowed');
      const { auth } = await w.login({ role: 'dev', ...asAlice({ headers: { [VAULT]: 'svc.example.com', 'X-Amz-Foo': 'bar' } }) }, 'sid-allowed');
      expect(auth.metadata?.auth_type).toBe('iam');
      expect((await w.loginError({ role: 'dev', ...asAlice({ headers: { [VAULT]: 'nope' } }) }, 'sid-allowed')).status).toBe(400);
    });
  });

  it('without the setting no header is needed, and one that is sent is not checked', async () => {
    expect((await w.login({ role: 'dev', ...asAlice() })).auth.metadata?.auth_type).toBe('iam');
    expect((await w.login({ role: 'dev', ...asAlice({ headers: { [HEADER]: 'anything' } }) })).auth.metadata?.auth_type).toBe('iam');
  });
});

