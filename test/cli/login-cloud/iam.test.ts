/**
 * `svc login -method=cloud` with type=iam (the default), run as the built bin/svc against the real server,
 * which forwards the signed GetCallerIdentity request to cloudsim's STS and binds the caller it names.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimRole, SimUser } from '../../../src/cloudsim/index.js';
import { configureMount, jsonOf, startLoginEnv, type LoginEnv } from './setup.js';

let env: LoginEnv;
let user: SimUser;
let appRole: SimRole;
beforeAll(async () => {
  env = await startLoginEnv();
  await configureMount(env, 'cloud');
  user = env.sim.addUser({ name: 'ci-user' });
  appRole = env.sim.addRole({ name: 'app-role' });
  env.sim.addInstanceProfile({ name: 'app-profile', roleName: appRole.name });
  const api = env.srv.client();
  await api.secrets('POST', 'auth/cloud/role/iam-user', { body: { auth_type: 'iam', bound_iam_principal_arn: user.arn, token_policies: 'default' } });
  await api.secrets('POST', 'auth/cloud/role/iam-app', { body: { auth_type: 'iam', bound_iam_principal_arn: appRole.arn } });
});
afterAll(async () => {
  await env?.close();
});

const keysOf = (u: SimUser) => ({ CLOUD_ACCESS_KEY: u.accessKeyId, CLOUD_SECRET_KEY: u.secretAccessKey });
const lastCallerIdentity = () => env.sim.requests.filter((r) => r.action === 'GetCallerIdentity').at(-1);

describe('svc login -method=cloud type=iam', () => {
  it('signs with CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY, stores a working token and keeps no nonce', async () => {
    const res = await env.login('keys', ['role=iam-user'], keysOf(user));
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^token_meta_auth_type +iam$/m);
    expect(lastCallerIdentity()).toMatchObject({ accessKeyId: user.accessKeyId, region: 'us-east-1', host: 'sts.amazonaws.com', status: 200 });

    const token = await readFile(env.tokenFile('keys'), 'utf8');
    const lookup = await env.withStoredToken('keys', ['token', 'lookup', '-format=json']);
    expect(lookup.code, lookup.stderr).toBe(0);
    expect(JSON.parse(lookup.stdout).data).toMatchObject({ id: token, path: 'auth/cloud/login', policies: ['default'], meta: { account_id: env.sim.account, auth_type: 'iam' } });
    expect(await env.nonces('keys')).toEqual({});
  });

  it('prints the whole response with -format=json', async () => {
    const res = await env.login('json', ['role=iam-user', 'type=iam', '-format=json'], keysOf(user));
    expect(res.code, res.stderr).toBe(0);
    const out = jsonOf(res);
    const role = await env.srv.client().secrets('GET', 'auth/cloud/role/iam-user');
    expect(out).toMatchObject({ request_id: expect.any(String), auth: { client_token: expect.any(String), metadata: { role_id: role?.data?.role_id } } });
    expect(await readFile(env.tokenFile('json'), 'utf8')).toBe(out.auth.client_token);
  });

  it('signs with the session token of temporary credentials', async () => {
    const session = env.sim.assumeRole(appRole.arn, 'deploy-7');
    const res = await env.login('session', ['role=iam-app'], {
      CLOUD_ACCESS_KEY: session.accessKeyId,
      CLOUD_SECRET_KEY: session.secretAccessKey,
      CLOUD_SESSION_TOKEN: session.sessionToken!,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(lastCallerIdentity()).toMatchObject({ accessKeyId: session.accessKeyId, status: 200 });
    expect(lastCallerIdentity()?.signedHeaders).toContain('x-amz-security-token');
  });

  it('signs with the instance role\'s credentials from the metadata service when the environment has none', async () => {
    const inst = env.sim.addInstance({ instanceProfile: 'app-profile' });
    env.sim.useInstance(inst.instanceId);
    const res = await env.login('instance', ['role=iam-app']);
    expect(res.code, res.stderr).toBe(0);
    expect(lastCallerIdentity()?.accessKeyId).toMatch(/^ASIA/);
    expect(env.sim.metadataRequests.at(-1)?.path).toBe('/latest/meta-data/iam/security-credentials/app-role');
  });

  it('sends no role when none is given, so that the server takes the role named like the principal', async () => {
    await env.srv.client().secrets('POST', 'auth/cloud/role/ci-user', { body: { auth_type: 'iam', bound_iam_principal_arn: user.arn } });
    const role = await env.srv.client().secrets('GET', 'auth/cloud/role/ci-user');
    const res = await env.login('implied', ['-format=json'], keysOf(user));
    expect(res.code, res.stderr).toBe(0);
    expect(jsonOf(res).auth.metadata).toMatchObject({ role_id: role?.data?.role_id });
  });

  it('signs for region= (or CLOUD_REGION) and its regional endpoint', async () => {
    const res = await env.login('region', ['role=iam-user', 'region=eu-west-1'], keysOf(user));
    expect(res.code, res.stderr).toBe(0);
    expect(lastCallerIdentity()).toMatchObject({ region: 'eu-west-1', host: 'sts.eu-west-1.amazonaws.com', status: 200 });

    const fromEnv = await env.login('region', ['role=iam-user'], { ...keysOf(user), CLOUD_REGION: 'ap-southeast-2' });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(lastCallerIdentity()).toMatchObject({ region: 'ap-southeast-2', host: 'sts.ap-southeast-2.amazonaws.com' });
  });

  it('passes on the server\'s refusal of a principal the role does not bind (exit 2)', async () => {
    const other = env.sim.addUser({ name: 'intruder' });
    const res = await env.login('refused', ['role=iam-user'], keysOf(other));
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`IAM Principal "${other.arn}" does not belong to the role "iam-user"`);
    expect(res.code).toBe(2);
  });

  describe('on a mount that requires the server-ID header (-path)', () => {
    beforeAll(async () => {
      await configureMount(env, 'cloud-hdr', { iam_server_id_header_value: 'svc.example.com' });
      await env.srv.client().secrets('POST', 'auth/cloud-hdr/role/iam-user', { body: { auth_type: 'iam', bound_iam_principal_arn: user.arn } });
    });

    it('logs in with header_value= set to the mount\'s value, signed', async () => {
      const res = await env.login('hdr', ['-path=cloud-hdr', 'role=iam-user', 'header_value=svc.example.com'], keysOf(user));
      expect(res.code, res.stderr).toBe(0);
      expect(lastCallerIdentity()?.signedHeaders).toContain('x-svc-cloud-iam-server-id');
    });

    it('is refused with another header value, or none', async () => {
      const other = await env.login('hdr', ['-path=cloud-hdr', 'role=iam-user', 'header_value=other.example.com'], keysOf(user));
      expect(other.stderr).toContain('error validating X-Svc-Cloud-IAM-Server-ID header: expected "svc.example.com" but got "other.example.com"');
      expect(other.code).toBe(2);

      const none = await env.login('hdr', ['-path=cloud-hdr', 'role=iam-user'], keysOf(user));
      expect(none.stderr).toContain('error validating X-Svc-Cloud-IAM-Server-ID header: missing header "X-Svc-Cloud-IAM-Server-ID"');
      expect(none.code).toBe(2);
    });
  });
});
