/** sendQuery against cloudsim: real Signature V4 checking, both error formats, retries with injected failures. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staticCredentials } from '../../src/cloud/credentials.js';
import { CloudApiError } from '../../src/cloud/errors.js';
import { effectiveMaxRetries, sendQuery, type QueryCall, type TransportOptions } from '../../src/cloud/signed-request.js';
import { startCloudSim, type CloudSim } from '../../src/cloudsim/index.js';

let sim: CloudSim;
beforeEach(async () => {
  sim = await startCloudSim();
});
afterEach(() => sim.close());

const root = () => ({ accessKeyId: sim.rootCredentials.accessKeyId, secretAccessKey: sim.rootCredentials.secretAccessKey });

const call = (over: Partial<QueryCall> = {}): QueryCall => ({
  endpoint: sim.url,
  service: 'sts',
  region: 'us-east-1',
  action: 'GetCallerIdentity',
  version: '2011-06-15',
  credentials: staticCredentials(root()),
  ...over,
});

/** DescribeInstances of the whole region: an EC2 call that always succeeds (error documents in EC2 format). */
const ec2Call = (over: Partial<QueryCall> = {}) => call({ service: 'ec2', action: 'DescribeInstances', version: '2016-11-15', ...over });

/** Records sleeps instead of sleeping; random() = 1 makes the jitter ceiling observable. */
function clock(): TransportOptions & { slept: number[] } {
  const slept: number[] = [];
  return { slept, sleep: async (ms) => void slept.push(ms), random: () => 1 };
}

describe('sendQuery signing', () => {
  it('signs for the given service and region, and the server accepts the signature', async () => {
    const inst = sim.addInstance({ region: 'eu-west-3' });
    const answer = await sendQuery(ec2Call({ region: 'eu-west-3', params: { 'InstanceId.1': inst.instanceId } }));
    expect(sim.requests).toHaveLength(1);
    const seen = sim.requests[0];
    expect(seen).toMatchObject({ service: 'ec2', region: 'eu-west-3', action: 'DescribeInstances', accessKeyId: sim.rootCredentials.accessKeyId, status: 200 });
    expect(seen.params).toEqual({ Action: 'DescribeInstances', Version: '2016-11-15', 'InstanceId.1': inst.instanceId });
    expect(seen.signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'content-type']));
    // EC2 carries the request ID in a top-level requestId element.
    expect(answer.requestId).toBe(seen.requestId);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the signing region must be the one the service accepts (IAM: us-east-1 only)', async () => {
    const err = await sendQuery(call({ service: 'iam', region: 'eu-west-1', action: 'GetUser', version: '2010-05-08' }), { maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(sim.requests[0]).toMatchObject({ service: 'iam', region: 'eu-west-1' });
    const ok = await sendQuery(call({ service: 'iam', region: 'us-east-1', action: 'GetUser', version: '2010-05-08' }));
    expect(ok.requestId).toBe(sim.requests[1].requestId);
  });

  it('sends and signs the session token of temporary credentials', async () => {
    const role = sim.addRole({ name: 'temp-role' });
    const temp = sim.assumeRole(role.arn, 'sess');
    const answer = await sendQuery(call({ credentials: staticCredentials(temp) }));
    // The simulator refuses an ASIA key whose token is missing or is not the one issued with it.
    expect(sim.requests[0]).toMatchObject({ accessKeyId: temp.accessKeyId, status: 200 });
    expect(sim.requests[0].signedHeaders).toContain('x-amz-security-token');
    expect((answer.doc.GetCallerIdentityResponse as Record<string, Record<string, string>>).GetCallerIdentityResult.Arn).toBe(temp.arn);

    const err = await sendQuery(call({ credentials: staticCredentials({ ...temp, sessionToken: 'not-the-token' }) }), { maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 403, code: 'InvalidClientTokenId' });
  });

  it('a wrong secret is rejected by the server and surfaces as a typed error without the secret', async () => {
    const err = await sendQuery(call({ credentials: staticCredentials({ accessKeyId: root().accessKeyId, secretAccessKey: 'wrong-secret-xyz' }) }), { maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CloudApiError);
    expect(err).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch', requestId: sim.requests[0].requestId, action: 'sts:GetCallerIdentity' });
    expect(String((err as Error).message)).not.toContain('wrong-secret-xyz');
    expect(String((err as Error).message)).not.toContain('Action=');
  });
});

describe('sendQuery error mapping', () => {
  it('maps the IAM/STS error document', async () => {
    const err = (await sendQuery(call({ service: 'iam', action: 'GetRole', version: '2010-05-08', params: { RoleName: 'x' } })).catch((e: unknown) => e)) as CloudApiError;
    expect(err).toBeInstanceOf(CloudApiError);
    expect(err).toMatchObject({ status: 404, code: 'NoSuchEntity', requestId: sim.requests[0].requestId, action: 'iam:GetRole' });
    expect(err.message).toContain('The role with name x cannot be found.');
    expect(err.statusCode).toBe(502);
  });

  it('maps the EC2 error document', async () => {
    const err = (await sendQuery(ec2Call({ params: { 'InstanceId.1': 'i-0123456789abcdef0' } })).catch((e: unknown) => e)) as CloudApiError;
    expect(err).toMatchObject({ status: 400, code: 'InvalidInstanceID.NotFound', requestId: sim.requests[0].requestId });
    expect(err.message).toContain("The instance ID 'i-0123456789abcdef0' does not exist");
  });

  it('an error without a document still gets a code from the status', async () => {
    sim.respondNext('GetCallerIdentity', { status: 418, body: 'teapot', contentType: 'text/plain' });
    const err = (await sendQuery(call()).catch((e: unknown) => e)) as CloudApiError;
    expect(err).toMatchObject({ status: 418, code: 'HTTP418' });
    expect(sim.requests).toHaveLength(1);
  });

  it('a success that is not XML is an InvalidResponse error', async () => {
    sim.respondNext('GetCallerIdentity', { body: '<<not xml' });
    const err = (await sendQuery(call()).catch((e: unknown) => e)) as CloudApiError;
    expect(err).toBeInstanceOf(CloudApiError);
    expect(err).toMatchObject({ code: 'InvalidResponse', status: 200 });
  });
});

describe('sendQuery retries', () => {
  it('throttled twice then OK: succeeds after 3 calls with growing backoff', async () => {
    sim.failNext('GetCallerIdentity', { code: 'Throttling', times: 2 });
    const c = clock();
    const retries: string[] = [];
    const answer = await sendQuery(call(), { ...c, onRetry: (i) => retries.push(`${i.attempt}:${i.code}`) });
    expect(sim.requests.map((r) => `${r.action}:${r.status}`)).toEqual(['GetCallerIdentity:400', 'GetCallerIdentity:400', 'GetCallerIdentity:200']);
    expect(c.slept).toEqual([100, 200]);
    expect(retries).toEqual(['1:Throttling', '2:Throttling']);
    expect(answer.doc.GetCallerIdentityResponse).toBeDefined();
  });

  it.each(['ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException'])('retries %s (EC2 error format)', async (code) => {
    sim.failNext('DescribeInstances', { status: 400, code });
    const retries: string[] = [];
    await sendQuery(ec2Call(), { ...clock(), onRetry: (i) => retries.push(i.code) });
    expect(sim.requests.map((r) => r.status)).toEqual([400, 200]);
    expect(retries).toEqual([code]);
  });

  it('retries 5xx', async () => {
    sim.failNext('GetCallerIdentity', { status: 503, code: 'ServiceUnavailable' });
    await sendQuery(call(), clock());
    expect(sim.requests.map((r) => r.status)).toEqual([503, 200]);
  });

  it('never retries other 4xx', async () => {
    const c = clock();
    // AssumeRole without RoleArn: the provider's own validation error.
    await expect(sendQuery(call({ action: 'AssumeRole', params: { RoleSessionName: 'x1' } }), c)).rejects.toMatchObject({ status: 400, code: 'ValidationError' });
    expect(sim.requests).toHaveLength(1);
    expect(c.slept).toEqual([]);
  });

  it.each([
    [0, 1],
    [1, 2],
    [-1, 4],
    [undefined, 4],
  ])('maxRetries %s → %s attempts, then the last error', async (maxRetries, attempts) => {
    sim.failNext('GetCallerIdentity', { status: 500, code: 'InternalFailure', times: 10 });
    await expect(sendQuery(call(), { ...clock(), maxRetries })).rejects.toMatchObject({ status: 500, code: 'InternalFailure' });
    expect(sim.requests).toHaveLength(attempts);
  });

  it('effectiveMaxRetries: -1 and undefined mean the default', () => {
    expect(effectiveMaxRetries(undefined)).toBe(3);
    expect(effectiveMaxRetries(-1)).toBe(3);
    expect(effectiveMaxRetries(0)).toBe(0);
    expect(effectiveMaxRetries(7)).toBe(7);
  });

  it('jitter scales the delay and the cap bounds it', async () => {
    sim.failNext('GetCallerIdentity', { status: 500, times: 4 });
    const slept: number[] = [];
    await expect(
      sendQuery(call(), { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 2500, random: () => 0.5, sleep: async (ms) => void slept.push(ms) }),
    ).rejects.toBeInstanceOf(CloudApiError);
    expect(slept).toEqual([500, 1000, 1250]);
    expect(sim.requests).toHaveLength(4);
  });

  it('an unreachable endpoint is status 0, retried, and names no secret', async () => {
    const gone = await startCloudSim();
    const url = gone.url;
    await gone.close();
    const c = clock();
    const err = (await sendQuery(call({ endpoint: url }), { ...c, maxRetries: 2 }).catch((e: unknown) => e)) as CloudApiError;
    expect(err).toMatchObject({ status: 0, code: 'ECONNREFUSED' });
    expect(c.slept).toHaveLength(2);
    expect(err.message).not.toContain(root().secretAccessKey);
  });

  it('times out a provider that does not answer in time, and retries the timeout', async () => {
    sim.delayNext('GetCallerIdentity', 2_000);
    const err = await sendQuery(call(), { timeoutMs: 100, maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, code: 'RequestTimeout' });

    sim.delayNext('GetCallerIdentity', 2_000);
    const c = clock();
    const ok = await sendQuery(call(), { ...c, timeoutMs: 300, maxRetries: 1 });
    expect(ok.status).toBe(200);
    expect(c.slept).toHaveLength(1);
  });
});
