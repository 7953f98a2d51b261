/**
 * The iam login through the real server and cloudsim: a signed GetCallerIdentity request becomes a token;
 * the request's fields are decoded and checked before anything is sent; the request only ever goes to
 * the configured token-service endpoint; the provider's answer decides who signed it; token_bound_cidrs;
 * and the token then works on both APIs as its policies say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimUser } from '../../../../../src/cloudsim/index.js';
import { startTestServer } from '../../../../support/server.js';
import { statusOf } from '../../../../support/wait.js';
import { b64, mountCloud, presignedCallerIdentity, signedCallerIdentity, startLoginWorld, withHeaders, type LoginWorld } from './login-support.js';

const ACCOUNT = '123456789012';
let w: LoginWorld;
let alice: SimUser;
let devRoleId: string;

const root = () => w.srv.client();
const asAlice = (opts: Parameters<typeof signedCallerIdentity>[1] = {}) => signedCallerIdentity(alice, opts);
/** The API calls cloudsim received since `from`. */
const callsSince = (from: number) => w.sim.requests.slice(from);
const roleId = async (name: string, mount = 'cloud') => (await root().secrets('GET', `auth/${mount}/role/${name}`))!.data!.role_id as string;

beforeAll(async () => {
  w = await startLoginWorld();
  alice = w.sim.addUser({ name: 'alice' });
  await w.writeRole('dev', { bound_iam_principal_arn: alice.arn, token_policies: 'dev', token_ttl: 600 });
  devRoleId = await roleId('dev');
});
afterAll(async () => w?.close());

describe('a successful login', () => {
  it("issues a token with the role's policies and TTL, the iam metadata and an entity", async () => {
    const from = w.sim.requests.length;
    const { auth } = await w.login({ role: 'dev', ...asAlice() });
    expect(auth.policies).toEqual(['default', 'dev']);
    expect(auth.token_policies).toEqual(['default', 'dev']);
    expect(auth.metadata).toEqual({ account_id: ACCOUNT, auth_type: 'iam', role_id: devRoleId });
    expect(auth).toMatchObject({ lease_duration: 600, renewable: true, token_type: 'service', orphan: true, num_uses: 0 });
    expect(auth.entity_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(auth).not.toHaveProperty('identity_policies');
    // The one call the login made: alice's own GetCallerIdentity, answered by the provider.
    expect(callsSince(from).map((r) => [r.service, r.action, r.accessKeyId, r.status])).toEqual([['sts', 'GetCallerIdentity', alice.accessKeyId, 200]]);
  });

  it('the token works: lookup-self shows its policies, metadata, display name, path and entity', async () => {
    const { auth } = await w.login({ role: 'dev', ...asAlice() });
    const self = (await w.srv.client(auth.client_token).secrets('GET', 'auth/token/lookup-self'))!.data!;
    expect(self).toMatchObject({
      policies: ['default', 'dev'],
      meta: { account_id: ACCOUNT, auth_type: 'iam', role_id: devRoleId },
      display_name: 'cloud-alice',
      path: 'auth/cloud/login',
      entity_id: auth.entity_id,
      renewable: true,
    });
    expect(self.ttl).toBeGreaterThan(590);
    expect(self.ttl).toBeLessThanOrEqual(600);
  });

  it("the entity's policies join the token's: policies and identity_policies, not token_policies", async () => {
    const first = await w.login({ role: 'dev', ...asAlice() });
    await root().secrets('POST', `identity/entity/id/${first.auth.entity_id}`, { body: { policies: ['from-entity'] } });
    const { auth } = await w.login({ role: 'dev', ...asAlice() });
    expect(auth.entity_id).toBe(first.auth.entity_id);
    expect(auth.policies).toEqual(['default', 'dev', 'from-entity']);
    expect(auth.token_policies).toEqual(['default', 'dev']);
    expect(auth.identity_policies).toEqual(['from-entity']);
    await root().secrets('POST', `identity/entity/id/${first.auth.entity_id}`, { body: { policies: [] } });
  });

  it("the role's other token settings apply: num_uses, period, explicit max TTL, batch type", async () => {
    await w.writeRole('limited', { bound_iam_principal_arn: alice.arn, token_num_uses: 3, token_period: 120, token_explicit_max_ttl: 3600 });
    const { auth } = await w.login({ role: 'limited', ...asAlice() });
    expect(auth).toMatchObject({ num_uses: 3, lease_duration: 120 });
    const self = (await w.srv.client(auth.client_token).secrets('GET', 'auth/token/lookup-self'))!.data!;
    expect(self).toMatchObject({ period: 120, explicit_max_ttl: 3600 });
    await w.writeRole('batchy', { bound_iam_principal_arn: alice.arn, token_type: 'batch' });
    expect((await w.login({ role: 'batchy', ...asAlice() })).auth).toMatchObject({ token_type: 'batch', renewable: false });
  });

  it("the mount's maximum TTL caps the token when the role has none or a longer one, at login and at renewal", async () => {
    await mountCloud(w.srv, 'iam-short', w.sim, {}, { max_lease_ttl: '1h' });
    await w.writeRole('long-ttl', { bound_iam_principal_arn: alice.arn, token_ttl: '3h' }, 'iam-short');
    const capped = await w.login({ role: 'long-ttl', ...asAlice() }, 'iam-short');
    expect(capped.auth.lease_duration).toBe(3600);
    expect(capped.warnings?.join(' ')).toContain('capped');
    await w.writeRole('long-max', { bound_iam_principal_arn: alice.arn, token_max_ttl: '2h' }, 'iam-short');
    const { auth } = await w.login({ role: 'long-max', ...asAlice() }, 'iam-short');
    const renewed = await w.srv.client(auth.client_token).secrets('POST', 'auth/token/renew-self', { body: { increment: '2h' } });
    expect(renewed?.auth?.lease_duration).toBeLessThanOrEqual(3600);
  });

  it('needs no provider credentials of the server when the role infers no instance: only the signed request is sent', async () => {
    // No keys in config/client, none in the environment; the metadata service could hand out some, but is not asked.
    const bare = await startTestServer({ client: false, cloud: { env: {}, metadataEndpoint: w.sim.metadataUrl } });
    try {
      await bare.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
      await bare.client().secrets('POST', 'auth/cloud/config/client', { body: { sts_endpoint: w.sim.url, sts_region: 'us-east-1' } });
      await bare.client().secrets('POST', 'auth/cloud/role/dev', { body: { bound_iam_principal_arn: alice.arn, resolve_cloud_unique_ids: false } });
      const from = w.sim.requests.length;
      const metadataFrom = w.sim.metadataRequests.length;
      const answer = await bare.client('').secrets('POST', 'auth/cloud/login', { body: { role: 'dev', ...asAlice() } });
      expect(answer?.auth?.metadata).toMatchObject({ auth_type: 'iam', account_id: ACCOUNT });
      expect(callsSince(from).map((r) => [r.action, r.accessKeyId])).toEqual([['GetCallerIdentity', alice.accessKeyId]]);
      expect(w.sim.metadataRequests.slice(metadataFrom)).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('token_no_default_policy leaves out default', async () => {
    await w.writeRole('nodefault', { bound_iam_principal_arn: alice.arn, token_policies: 'dev', token_no_default_policy: true });
    expect((await w.login({ role: 'nodefault', ...asAlice() })).auth.policies).toEqual(['dev']);
  });

  it('the role name is case-insensitive', async () => {
    const { auth } = await w.login({ role: 'DEV', ...asAlice() });
    expect(auth.metadata?.role_id).toBe(devRoleId);
  });

  it("without role, the role named like the user is used; for an assumed role, like the role; the display name says who", async () => {
    const carol = w.sim.addUser({ name: 'carol' });
    await w.writeRole('carol', { bound_iam_principal_arn: carol.arn, token_policies: 'carols' });
    const asCarol = await w.login(signedCallerIdentity(carol));
    expect(asCarol.auth.policies).toEqual(['carols', 'default']);
    expect(asCarol.auth.metadata?.role_id).toBe(await roleId('carol'));

    const deployer = w.sim.addRole({ name: 'deployer' });
    await w.writeRole('deployer', { bound_iam_principal_arn: deployer.arn, token_policies: 'deploy' });
    const session = w.sim.assumeRole(deployer.arn, 'build-42');
    const asSession = await w.login(signedCallerIdentity(session));
    expect(asSession.auth.policies).toEqual(['default', 'deploy']);
    const self = (await w.srv.client(asSession.auth.client_token).secrets('GET', 'auth/token/lookup-self'))!.data!;
    expect(self.display_name).toBe('cloud-deployer/build-42');
  });

  it('without role and no role named like the principal: 400 naming the role looked up', async () => {
    const dave = w.sim.addUser({ name: 'dave' });
    const r = await w.loginError(signedCallerIdentity(dave));
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/entry for role "?dave"? not found/);
  });

  it('a named role that does not exist: 400 naming it', async () => {
    const r = await w.loginError({ role: 'nosuchrole', ...asAlice() });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/entry for role "?nosuchrole"? not found/);
  });

  it('a role of auth_type ec2: 400 "auth method iam not allowed for role"', async () => {
    await w.writeRole('machines', { auth_type: 'ec2', bound_ami_id: 'ami-0123456789abcdef0' });
    const r = await w.loginError({ role: 'machines', ...asAlice() });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^auth method iam not allowed for role machines/);
  });
});

describe('which login: the dispatch on the fields sent', () => {
  it('ec2 and iam fields together: 400 "both" (a field counts when present, even empty)', async () => {
    for (const ec2 of [{ pkcs7: 'MIAGCSqGSIb3DQEHAqCAMIACAQE' }, { pkcs7: '' }, { identity: '', signature: '' }]) {
      const r = await w.loginError({ role: 'dev', ...ec2, ...asAlice() });
      expect(r).toEqual({ status: 400, message: expect.stringMatching(/^supplied auth values for both ec2 and iam auth types/) });
    }
  });

  it('some iam fields missing: 400 "some of the auth values" (the body is needed for POST only)', async () => {
    const { iam_http_request_method, iam_request_url, iam_request_headers } = asAlice();
    for (const body of [
      { iam_http_request_method, iam_request_url },
      { iam_http_request_method, iam_request_url, iam_request_headers },
      { iam_request_headers },
      { iam_request_body: '' },
    ]) {
      const r = await w.loginError({ role: 'dev', ...body });
      expect(r.status).toBe(400);
      expect(r.message).toMatch(/^supplied some of the auth values for the iam auth type but not all/);
    }
  });

  it('no proof at all: 400 "didn\'t supply required authentication values"', async () => {
    const r = await w.loginError({ role: 'dev' });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^didn't supply required authentication values/);
  });
});

describe('decoding the request fields', () => {
  it('a method other than GET or POST is refused, before anything is sent', async () => {
    const from = w.sim.requests.length;
    for (const method of ['PUT', 'post', 'DELETE']) {
      const r = await w.loginError({ role: 'dev', ...asAlice(), iam_http_request_method: method });
      expect(r.status).toBe(400);
      expect(r.message).toContain("currently only 'GET' and 'POST' are supported");
    }
    expect(callsSince(from)).toEqual([]);
  });

  it('bad base64 in the URL or the body, or a URL that is not one: 400 naming the field', async () => {
    const from = w.sim.requests.length;
    expect(await w.loginError({ role: 'dev', ...asAlice(), iam_request_url: 'not base64!' })).toEqual({ status: 400, message: expect.stringContaining('failed to base64 decode iam_request_url') });
    expect(await w.loginError({ role: 'dev', ...asAlice(), iam_request_body: '%%%%' })).toEqual({ status: 400, message: expect.stringContaining('failed to base64 decode iam_request_body') });
    expect(await w.loginError({ role: 'dev', ...asAlice(), iam_request_url: b64('sts.amazonaws.com') })).toEqual({ status: 400, message: expect.stringContaining('error parsing iam_request_url') });
    expect(callsSince(from)).toEqual([]);
  });

  it('headers are accepted as a JSON object, a JSON string and base64 JSON', async () => {
    const signed = asAlice();
    const headers = JSON.parse(Buffer.from(signed.iam_request_headers, 'base64').toString('utf8')) as Record<string, string[]>;
    // a JSON object, with plain string values this time
    const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v[0]]));
    for (const form of [flat, JSON.stringify(headers), signed.iam_request_headers]) {
      const { auth } = await w.login({ role: 'dev', ...signed, iam_request_headers: form });
      expect(auth.metadata?.role_id).toBe(devRoleId);
    }
  });

  it('headers that are no JSON object: 400', async () => {
    for (const bad of ['nonsense', b64('[1,2]'), '']) {
      const r = await w.loginError({ role: 'dev', ...asAlice(), iam_request_headers: bad });
      expect(r.status).toBe(400);
      expect(r.message).toMatch(/iam_request_headers/);
    }
  });
});

describe('only GetCallerIdentity can be asked for', () => {
  it('a POST body asking for another action, or more than GetCallerIdentity, is refused and never sent, though validly signed', async () => {
    const deployer = `arn:aws:iam::${ACCOUNT}:role/deployer`;
    const from = w.sim.requests.length;
    for (const body of [
      `Action=AssumeRole&RoleArn=${encodeURIComponent(deployer)}&RoleSessionName=x&Version=2011-06-15`,
      'Action=GetCallerIdentity&Action=GetCallerIdentity&Version=2011-06-15',
      'Action=GetCallerIdentity&Version=2011-06-15&UserName=svc-root',
      'Version=2011-06-15',
    ]) {
      const r = await w.loginError({ role: 'dev', ...asAlice({ body }) });
      expect(r.status).toBe(400);
      expect(r.message).toMatch(/^iam request body is invalid/);
    }
    expect(callsSince(from)).toEqual([]);
  });

  it('a POST whose URL has a query string is refused and never sent', async () => {
    const from = w.sim.requests.length;
    const r = await w.loginError({ role: 'dev', ...asAlice(), iam_request_url: b64('https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15') });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^invalid request/);
    expect(callsSince(from)).toEqual([]);
  });

  it('a presigned GET request logs in (no body, the signature in the query)', async () => {
    const from = w.sim.requests.length;
    const { auth } = await w.login({ role: 'dev', ...presignedCallerIdentity(alice) });
    expect(auth.metadata?.role_id).toBe(devRoleId);
    expect(callsSince(from).map((r) => [r.method, r.action, r.status])).toEqual([['GET', 'GetCallerIdentity', 200]]);
  });

  it('a GET with two actions, none, or another one is refused and never sent', async () => {
    const from = w.sim.requests.length;
    const cases: Array<[string, RegExp]> = [
      ['Action=GetCallerIdentity&Action=GetCallerIdentity&Version=2011-06-15', /^found multiple actions/],
      ['Version=2011-06-15', /^no action found in request/],
      ['Action=GetSessionToken&Version=2011-06-15', /^unexpected action parameter, GetSessionToken/],
    ];
    for (const [query, message] of cases) {
      const r = await w.loginError({ role: 'dev', ...presignedCallerIdentity(alice, { query }) });
      expect(r.status).toBe(400);
      expect(r.message).toMatch(message);
    }
    expect(callsSince(from)).toEqual([]);
  });
});

describe('where the request goes, and what the answer may be', () => {
  it('a URL naming another host is still sent to the configured endpoint only, with that Host (the signature covers it)', async () => {
    const from = w.sim.requests.length;
    const { auth } = await w.login({ role: 'dev', ...asAlice({ host: 'evil.example.com' }) });
    expect(auth.metadata?.role_id).toBe(devRoleId);
    expect(callsSince(from).map((r) => [r.host, r.path, r.action, r.status])).toEqual([['evil.example.com', '/', 'GetCallerIdentity', 200]]);
  });

  it("a signature that does not verify: 400 'error making upstream request' with the provider's code", async () => {
    const tampered = withHeaders(asAlice(), (h) => {
      h.Authorization = [h.Authorization[0].replace(/Signature=([0-9a-f])/, (_, c: string) => `Signature=${c === '0' ? '1' : '0'}`)];
    });
    const r = await w.loginError({ role: 'dev', ...tampered });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error making upstream request to \S+: received error code 403 from STS: .*SignatureDoesNotMatch/s);
  });

  it("credentials the provider does not know: 400 with the provider's InvalidClientTokenId", async () => {
    const gone = w.sim.addUser({ name: 'gone' });
    w.sim.revokeAccessKey(gone.accessKeyId);
    const r = await w.loginError({ role: 'dev', ...signedCallerIdentity(gone) });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error making upstream request to \S+: .*InvalidClientTokenId/s);
  });

  it("a changed body (not what was signed) does not verify at the provider", async () => {
    const signed = asAlice();
    const r = await w.loginError({ role: 'dev', ...signed, iam_request_body: b64('Version=2011-06-15&Action=GetCallerIdentity') });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^error making upstream request to \S+: .*SignatureDoesNotMatch/s);
  });

  it('the provider answering 500, a body that is not XML, or the wrong content type: 400 "error making upstream request"', async () => {
    const good = (await w.login({ role: 'dev', ...asAlice() })).auth; // a reference that the same request otherwise works
    expect(good.client_token).toBeTruthy();
    const answers = [
      { status: 500, body: '<html><body>Internal proxy error</body></html>', contentType: 'text/html', expect: /received error code 500 from STS: <html>/ },
      { status: 200, body: 'this is not xml', contentType: 'text/xml', expect: /body of GetCallerIdentity is invalid|error parsing STS response/ },
      {
        status: 200,
        body: `<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>${alice.arn}</Arn><UserId>${alice.userId}</UserId><Account>${ACCOUNT}</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`,
        contentType: 'application/json',
        expect: /not text\/xml/,
      },
      {
        status: 200,
        body: '<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>',
        contentType: 'text/xml',
        expect: /error parsing STS response/,
      },
    ];
    for (const a of answers) {
      w.sim.respondNext('GetCallerIdentity', { status: a.status, body: a.body, contentType: a.contentType });
      const r = await w.loginError({ role: 'dev', ...asAlice() });
      expect(r.status).toBe(400);
      expect(r.message).toMatch(/^error making upstream request to \S+: /);
      expect(r.message).toMatch(a.expect);
    }
  });

  it("the identity is the provider's answer: an answer starting <?xml is read, an ARN of no principal type is a 400", async () => {
    const xml = (arn: string, userId: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${arn}</Arn><UserId>${userId}</UserId><Account>${ACCOUNT}</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`;
    w.sim.respondNext('GetCallerIdentity', { body: xml(alice.arn, alice.userId) });
    expect((await w.login({ role: 'dev', ...asAlice() })).auth.metadata?.role_id).toBe(devRoleId);
    const group = `arn:aws:iam::${ACCOUNT}:group/devs`;
    w.sim.respondNext('GetCallerIdentity', { body: xml(group, 'AGPAEXAMPLE') });
    const r = await w.loginError({ role: 'dev', ...asAlice() });
    expect(r.status).toBe(400);
    expect(r.message).toMatch(new RegExp(`^error parsing arn "${group}": unrecognized principal type: "group"`));
  });

  it('a 5xx answer is retried up to max_retries', async () => {
    await mountCloud(w.srv, 'retrying', w.sim, { max_retries: 1 });
    await w.writeRole('dev', { bound_iam_principal_arn: alice.arn }, 'retrying');
    const from = w.sim.requests.length;
    w.sim.failNext('GetCallerIdentity', { status: 503, code: 'ServiceUnavailable' });
    const { auth } = await w.login({ role: 'dev', ...asAlice() }, 'retrying');
    expect(auth.metadata?.auth_type).toBe('iam');
    expect(callsSince(from).map((r) => r.status)).toEqual([503, 200]);
    // max_retries 1: a second failure in a row is the answer
    w.sim.failNext('GetCallerIdentity', { status: 503, code: 'ServiceUnavailable', times: 2 });
    const r = await w.loginError({ role: 'dev', ...asAlice() }, 'retrying');
    expect(r.message).toMatch(/^error making upstream request to \S+: received error code 503 from STS: .*ServiceUnavailable/s);
  });

  it('max_retries -1 (the default) retries three times', async () => {
    await mountCloud(w.srv, 'default-retries', w.sim, { max_retries: -1 });
    await w.writeRole('dev', { bound_iam_principal_arn: alice.arn }, 'default-retries');
    const from = w.sim.requests.length;
    w.sim.failNext('GetCallerIdentity', { status: 500, code: 'InternalFailure', times: 3 });
    expect((await w.login({ role: 'dev', ...asAlice() }, 'default-retries')).auth.metadata?.auth_type).toBe('iam');
    expect(callsSince(from).map((r) => r.status)).toEqual([500, 500, 500, 200]);
  });
});

describe('token_bound_cidrs', () => {
  it('a login from outside the CIDRs is refused with 403', async () => {
    await w.writeRole('office', { bound_iam_principal_arn: alice.arn, token_bound_cidrs: '10.0.0.0/8' });
    const r = await w.loginError({ role: 'office', ...asAlice() });
    expect(r.status).toBe(403);
    expect(r.message).toContain('permission denied');
  });

  it('the CIDR check comes before the auth type and principal checks', async () => {
    await w.writeRole('office-ec2', { auth_type: 'ec2', bound_ami_id: 'ami-0123456789abcdef0', token_bound_cidrs: '10.0.0.0/8' });
    expect((await w.loginError({ role: 'office-ec2', ...asAlice() })).status).toBe(403);
    const bob = w.sim.addUser({ name: 'bob' });
    await w.writeRole('office-bob', { bound_iam_principal_arn: bob.arn, token_bound_cidrs: '10.0.0.0/8' });
    expect((await w.loginError({ role: 'office-bob', ...asAlice() })).status).toBe(403);
  });

  it('a login from inside succeeds and the token is bound to them', async () => {
    await w.writeRole('local', { bound_iam_principal_arn: alice.arn, token_bound_cidrs: ['127.0.0.0/8'] });
    const { auth } = await w.login({ role: 'local', ...asAlice() });
    const self = (await w.srv.client(auth.client_token).secrets('GET', 'auth/token/lookup-self'))!.data!;
    expect(self.bound_cidrs).toEqual(['127.0.0.0/8']);
  });
});

describe("the token on the scheduler API: its policies decide", () => {
  it('can list jobs as its namespace policy allows, and is refused what it does not grant', async () => {
    await root().secrets('PUT', 'sys/policies/acl/jobs-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    await w.writeRole('reader', { bound_iam_principal_arn: alice.arn, token_policies: 'jobs-reader' });
    const { auth } = await w.login({ role: 'reader', ...asAlice() });
    const c = w.srv.client(auth.client_token);
    const list = await c.scheduler<unknown[]>('GET', '/v1/jobs');
    expect(Array.isArray(list.body)).toBe(true);
    const job = { ID: 'iam-job', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] };
    expect((await statusOf(c.scheduler('POST', '/v1/jobs', { body: { Job: job } }))).code).toBe(403);
    expect((await statusOf(c.scheduler('GET', '/v1/nodes'))).code).toBe(403);
    // the dev token (no scheduler policy) cannot list jobs at all
    const dev = (await w.login({ role: 'dev', ...asAlice() })).auth.client_token;
    expect((await statusOf(w.srv.client(dev).scheduler('GET', '/v1/jobs'))).code).toBe(403);
  });
});
