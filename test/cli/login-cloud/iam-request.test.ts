/**
 * The signed GetCallerIdentity request `svc login -method=cloud` builds for an iam login, sent exactly as
 * built (Host header included) to the simulator's STS, which verifies Signature V4 as the provider does:
 * when the simulator answers with the caller's ARN, a server forwarding the request gets the same answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../../../src/cloud/http.js';
import { metadataClient } from '../../../src/cloud/metadata.js';
import { callerIdentityRequest, iamLoginFields, loginCredentials, SERVER_ID_HEADER, type LoginCredentials, type SignedRequest } from '../../../src/cli/login-methods/cloud-iam-request.js';
import { UsageError } from '../../../src/shared/errors.js';
import { startCloudSim, type CloudSim, type SimUser } from '../../../src/cloudsim/index.js';

let sim: CloudSim;
let user: SimUser;
beforeAll(async () => {
  sim = await startCloudSim({ account: '123456789012' });
  user = sim.addUser({ name: 'ci-runner', path: '/build/' });
});
afterAll(async () => {
  await sim?.close();
});

const keysOf = (u: SimUser): LoginCredentials => ({ accessKeyId: u.accessKeyId, secretAccessKey: u.secretAccessKey });

/** What a server does with the login fields: the same method, path, headers and body, to its STS endpoint. */
async function sendToSim(req: SignedRequest): Promise<{ status: number; body: string }> {
  const answer = await httpCall({ url: new URL(new URL(req.url).pathname, sim.url), method: req.method, headers: req.headers, body: req.body, timeoutMs: 5_000 });
  return { status: answer.status, body: answer.body.toString('utf8') };
}

const arnIn = (xml: string) => /<Arn>([^<]+)<\/Arn>/.exec(xml)?.[1];
const lastRequest = () => sim.requests[sim.requests.length - 1];

describe('the signed GetCallerIdentity request of an iam login', () => {
  it('is accepted by STS with static keys, for the global endpoint in us-east-1', async () => {
    const req = callerIdentityRequest(keysOf(user), { region: 'us-east-1' });
    expect(req.url).toBe('https://sts.amazonaws.com/');
    expect(req.method).toBe('POST');
    expect(req.body).toBe('Action=GetCallerIdentity&Version=2011-06-15');
    expect(req.headers).toMatchObject({
      Host: 'sts.amazonaws.com',
      'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
      'Content-Length': String(req.body.length),
    });
    expect(req.headers['X-Amz-Date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(req.headers.Authorization).toContain(`Credential=${user.accessKeyId}/`);
    expect(req.headers).not.toHaveProperty('X-Amz-Security-Token');
    expect(req.headers).not.toHaveProperty(SERVER_ID_HEADER);

    const answer = await sendToSim(req);
    expect(answer.status, answer.body).toBe(200);
    expect(arnIn(answer.body)).toBe(user.arn);
    expect(lastRequest()).toMatchObject({ service: 'sts', action: 'GetCallerIdentity', region: 'us-east-1', host: 'sts.amazonaws.com', status: 200 });
  });

  it('carries and signs the session token of temporary credentials', async () => {
    const role = sim.addRole({ name: 'deployer' });
    const session = sim.assumeRole(role.arn, 'pipeline-42');
    const req = callerIdentityRequest(session, { region: 'us-east-1' });
    expect(req.headers['X-Amz-Security-Token']).toBe(session.sessionToken);

    const answer = await sendToSim(req);
    expect(answer.status, answer.body).toBe(200);
    expect(arnIn(answer.body)).toBe(session.arn);
    expect(lastRequest().signedHeaders).toContain('x-amz-security-token');
  });

  it('signs the server-ID header, so that the server can tell it was not added later', async () => {
    const req = callerIdentityRequest(keysOf(user), { region: 'us-east-1', serverId: 'vault.example.com' });
    expect(req.headers[SERVER_ID_HEADER]).toBe('vault.example.com');
    expect(/SignedHeaders=([^,]+)/.exec(req.headers.Authorization)?.[1].split(';')).toContain('x-svc-cloud-iam-server-id');

    const answer = await sendToSim(req);
    expect(answer.status, answer.body).toBe(200);
    expect(arnIn(answer.body)).toBe(user.arn);
    expect(lastRequest().signedHeaders).toEqual(expect.arrayContaining(['host', 'content-type', 'content-length', 'x-amz-date', 'x-svc-cloud-iam-server-id']));
  });

  it('uses the regional endpoint and credential scope for another region', async () => {
    const req = callerIdentityRequest(keysOf(user), { region: 'eu-west-1' });
    expect(req.url).toBe('https://sts.eu-west-1.amazonaws.com/');
    expect(req.headers.Host).toBe('sts.eu-west-1.amazonaws.com');
    expect(req.headers.Authorization).toMatch(/Credential=\w+\/\d{8}\/eu-west-1\/sts\/aws4_request/);

    const answer = await sendToSim(req);
    expect(answer.status, answer.body).toBe(200);
    expect(arnIn(answer.body)).toBe(user.arn);
    expect(lastRequest()).toMatchObject({ region: 'eu-west-1', host: 'sts.eu-west-1.amazonaws.com' });
  });

  it('is refused by STS when anything signed changes on the way', async () => {
    const req = callerIdentityRequest(keysOf(user), { region: 'us-east-1', serverId: 'a' });
    const answer = await sendToSim({ ...req, headers: { ...req.headers, [SERVER_ID_HEADER]: 'b' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('SignatureDoesNotMatch');
  });

  it('becomes the login fields: the URL and body in base64, the headers as a base64 JSON map of value lists', () => {
    const req = callerIdentityRequest(keysOf(user), { region: 'us-east-1', serverId: 'x' });
    const fields = iamLoginFields(req);
    const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
    expect(fields.iam_http_request_method).toBe('POST');
    expect(unb64(fields.iam_request_url)).toBe('https://sts.amazonaws.com/');
    expect(unb64(fields.iam_request_body)).toBe('Action=GetCallerIdentity&Version=2011-06-15');
    const headers = JSON.parse(unb64(fields.iam_request_headers)) as Record<string, string[]>;
    expect(headers).toEqual(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, [v]])));
    expect(Object.keys(fields).sort()).toEqual(['iam_http_request_method', 'iam_request_body', 'iam_request_headers', 'iam_request_url']);
  });
});

describe('the credentials of an iam login', () => {
  const noMetadata = () => {
    throw new Error('the metadata service must not be asked when the environment has keys');
  };

  it('come from CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY and CLOUD_SESSION_TOKEN first', async () => {
    const env = { CLOUD_ACCESS_KEY: 'AKIAEXAMPLE', CLOUD_SECRET_KEY: 'secret', CLOUD_SESSION_TOKEN: 'tok' };
    await expect(loginCredentials(env, noMetadata)).resolves.toEqual({ accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'tok' });
    await expect(loginCredentials({ CLOUD_ACCESS_KEY: 'AKIAEXAMPLE', CLOUD_SECRET_KEY: 'secret' }, noMetadata)).resolves.toEqual({
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: undefined,
    });
  });

  it('refuse half a key pair', async () => {
    await expect(loginCredentials({ CLOUD_ACCESS_KEY: 'AKIAEXAMPLE' }, noMetadata)).rejects.toThrow(new UsageError('CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY must be set together'));
  });

  it('come from the instance role through the metadata service otherwise, and sign a request STS accepts', async () => {
    const role = sim.addRole({ name: 'app-role' });
    sim.addInstanceProfile({ name: 'app-profile', roleName: role.name });
    const inst = sim.addInstance({ instanceProfile: 'app-profile' });
    sim.useInstance(inst.instanceId);
    try {
      const creds = await loginCredentials({}, () => metadataClient({ endpoint: sim.metadataUrl }));
      expect(creds.accessKeyId).toMatch(/^ASIA/);
      expect(creds.sessionToken).toBeTruthy();

      const answer = await sendToSim(callerIdentityRequest(creds, { region: 'us-east-1' }));
      expect(answer.status, answer.body).toBe(200);
      // Instance-role sessions are named after the instance.
      expect(arnIn(answer.body)).toBe(`arn:aws:sts::${sim.account}:assumed-role/app-role/${inst.instanceId}`);
    } finally {
      sim.useInstance(undefined);
    }
  });

  it('are a usage error naming the variables when the metadata service has none', async () => {
    const inst = sim.addInstance();
    sim.useInstance(inst.instanceId);
    try {
      const err = await loginCredentials({}, () => metadataClient({ endpoint: sim.metadataUrl })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(/^No cloud credentials: set CLOUD_ACCESS_KEY and CLOUD_SECRET_KEY \(and CLOUD_SESSION_TOKEN/);
      expect((err as Error).message).toContain(`The metadata service at ${sim.metadataUrl} gave none: the instance has no IAM role attached`);
    } finally {
      sim.useInstance(undefined);
    }
  });
});
