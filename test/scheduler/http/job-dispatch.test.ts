/**
 * Dispatching parameterized jobs on a real server: the child and its evaluation, payload and meta rules
 * with Nomad's messages, the 16 KiB payload limit, ID templates, priority, idempotency tokens (also under
 * concurrent calls), ACL, and a dispatched instance of a periodic parameterized job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { statusOf } from '../../support/wait.js';
import type { DispatchResponse } from '../../../src/api/jobs.js';

interface JobView {
  ID: string;
  ParentID: string;
  Name: string;
  Dispatched: boolean;
  DispatchIdempotencyToken: string;
  Payload: string | null;
  Meta: Record<string, string> | null;
  Priority: number;
  Status: string;
  Periodic: unknown;
}

const parameterized = (id: string, block: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Type: 'batch',
  Datacenters: ['dc1'],
  Meta: { team: 'media', keep: 'yes' },
  ParameterizedJob: block,
  TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1ms' }, Resources: { CPU: 10, MemoryMB: 16 } }] }],
  ...extra,
});

describe('POST /v1/job/:job_id/dispatch', () => {
  let srv: InProcessServer;
  const c = () => srv.client();
  const dispatch = (id: string, body: Record<string, unknown> = {}, query: Record<string, string> = {}, token?: string) =>
    srv.client(token).scheduler<DispatchResponse>('POST', `/v1/job/${encodeURIComponent(id)}/dispatch`, { body, query });
  const read = async (id: string) => (await c().scheduler<JobView>('GET', `/v1/job/${encodeURIComponent(id)}`)).body;
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

  beforeAll(async () => {
    srv = await startInProcessServer();
    const register = (job: Record<string, unknown>) => c().scheduler('POST', '/v1/jobs', { body: { Job: job } });
    await register(parameterized('encode', { Payload: 'optional', MetaRequired: ['input'], MetaOptional: ['quality'] }));
    await register(parameterized('needs', { Payload: 'required' }));
    await register(parameterized('never', { Payload: 'forbidden' }));
    await register(parameterized('plain', {}));
    await register({ ...parameterized('batchy', {}), ParameterizedJob: undefined });
  });
  afterAll(async () => srv?.close());

  it('creates the child with its evaluation: ID, ParentID, Dispatched, meta merged, payload stored', async () => {
    const before = Math.floor(Date.now() / 1000);
    const resp = await dispatch('encode', { Payload: b64('movie.mp4'), Meta: { input: 's3://a', quality: 'hd' } });
    const body = resp.body;
    expect(body.DispatchedJobID).toMatch(/^encode\/dispatch-\d+-[0-9a-f]{8}$/);
    const seconds = Number(body.DispatchedJobID.split('-')[1]);
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.EvalCreateIndex).toBe(body.JobCreateIndex);
    expect(body.Index).toBe(resp.index);
    // Nomad's JobDispatchResponse: WriteMeta is the index alone.
    expect(Object.keys(body).sort()).toEqual(['DispatchedJobID', 'EvalCreateIndex', 'EvalID', 'Index', 'JobCreateIndex']);
    const child = await read(body.DispatchedJobID);
    expect(child).toMatchObject({ ParentID: 'encode', Name: body.DispatchedJobID, Dispatched: true, Payload: b64('movie.mp4'), Meta: { team: 'media', keep: 'yes', input: 's3://a', quality: 'hd' } });
    const evaluation = (await c().scheduler<{ JobID: string; TriggeredBy: string }>('GET', `/v1/evaluation/${body.EvalID}`)).body;
    expect(evaluation).toMatchObject({ JobID: body.DispatchedJobID, TriggeredBy: 'job-register' });
    // In the list, the instance is not itself parameterized; the parent is.
    const stubs = (await c().scheduler<Array<{ ID: string; ParameterizedJob: boolean }>>('GET', '/v1/jobs', { query: { prefix: 'encode' } })).body;
    expect(stubs.find((j) => j.ID === body.DispatchedJobID)?.ParameterizedJob).toBe(false);
    expect(stubs.find((j) => j.ID === 'encode')?.ParameterizedJob).toBe(true);
    // The parent stays a parameterized job that is never evaluated itself.
    expect((await c().scheduler<unknown[]>('GET', '/v1/job/encode/evaluations')).body).toEqual([]);
  });

  it('IdPrefixTemplate goes into the ID, Priority onto the child', async () => {
    const { body } = await dispatch('plain', { IdPrefixTemplate: 'nightly', Priority: 80 });
    expect(body.DispatchedJobID).toMatch(/^plain\/dispatch-nightly-\d+-[0-9a-f]{8}$/);
    expect((await read(body.DispatchedJobID)).Priority).toBe(80);
    expect(await statusOf(dispatch('plain', { Priority: 101 }))).toEqual({ code: 400, message: 'job priority must be between [1, 100]' });
  });

  it('payload: required, forbidden, optional', async () => {
    expect(await statusOf(dispatch('needs'))).toEqual({ code: 400, message: 'Payload is not provided but required by parameterized job' });
    expect(await statusOf(dispatch('never', { Payload: b64('x') }))).toEqual({ code: 400, message: 'Payload provided but forbidden by parameterized job' });
    expect((await dispatch('needs', { Payload: b64('x') })).body.DispatchedJobID).toMatch(/^needs\//);
    expect((await dispatch('never')).body.DispatchedJobID).toMatch(/^never\//);
    const none = await dispatch('plain');
    expect((await read(none.body.DispatchedJobID)).Payload).toBeNull();
  });

  it('payload limit: 16384 decoded bytes pass, 16385 are refused and nothing is written', async () => {
    const ok = await dispatch('plain', { Payload: b64(Buffer.alloc(16384, 7)) });
    expect((await read(ok.body.DispatchedJobID)).Payload).toBe(b64(Buffer.alloc(16384, 7)));
    const jobsBefore = (await c().scheduler<unknown[]>('GET', '/v1/jobs', { query: { prefix: 'plain/' } })).body.length;
    expect(await statusOf(dispatch('plain', { Payload: b64(Buffer.alloc(16385, 7)) }))).toEqual({ code: 400, message: 'Payload exceeds maximum size; 16385 > 16384' });
    expect((await c().scheduler<unknown[]>('GET', '/v1/jobs', { query: { prefix: 'plain/' } })).body.length).toBe(jobsBefore);
  });

  it('meta: a missing required key and an unexpected key are refused with Nomad\'s messages', async () => {
    expect(await statusOf(dispatch('encode', { Meta: { quality: 'hd' } }))).toEqual({ code: 400, message: 'Dispatch did not provide required meta keys: [input]' });
    expect(await statusOf(dispatch('encode', { Meta: { input: 'a', zzz: '1', aaa: '2' } }))).toEqual({ code: 400, message: 'Dispatch request included unpermitted metadata keys: [aaa zzz]' });
    expect(await statusOf(dispatch('plain', { Meta: { any: 'x' } }))).toEqual({ code: 400, message: 'Dispatch request included unpermitted metadata keys: [any]' });
  });

  it('refuses a job that is not parameterized, a stopped one, an unknown one, and malformed bodies', async () => {
    expect(await statusOf(dispatch('batchy'))).toEqual({ code: 400, message: 'Specified job "batchy" is not a parameterized job' });
    await c().scheduler('POST', '/v1/jobs', { body: { Job: parameterized('halted', {}) } });
    await c().scheduler('DELETE', '/v1/job/halted');
    expect(await statusOf(dispatch('halted'))).toEqual({ code: 400, message: 'Specified job "halted" is stopped' });
    expect(await statusOf(dispatch('ghost'))).toEqual({ code: 404, message: 'job not found' });
    expect(await statusOf(dispatch('plain', { JobID: 'other' }))).toEqual({ code: 400, message: 'Job ID does not match' });
    expect((await statusOf(dispatch('plain', { Payload: 'not base64!' }))).code).toBe(400);
    expect((await statusOf(dispatch('plain', { Meta: { n: 1 } }))).code).toBe(400);
    expect((await statusOf(dispatch('plain', { Priority: 'high' }))).code).toBe(400);
    expect((await statusOf(dispatch('plain', { Bogus: 1 }))).code).toBe(400);
    // A dispatched child is not itself parameterized.
    const child = (await dispatch('plain')).body.DispatchedJobID;
    expect(await statusOf(dispatch(child))).toEqual({ code: 400, message: `Specified job "${child}" is not a parameterized job` });
  });

  it('an idempotency token (query, or the body) returns the existing child while it is not dead', async () => {
    const first = await dispatch('plain', {}, { idempotency_token: 'tok-1' });
    const again = await dispatch('plain', {}, { idempotency_token: 'tok-1' });
    expect(again.body.DispatchedJobID).toBe(first.body.DispatchedJobID);
    expect(again.body.EvalID).toBe('');
    expect(again.body.JobCreateIndex).toBe(first.body.JobCreateIndex);
    expect((await read(first.body.DispatchedJobID)).DispatchIdempotencyToken).toBe('tok-1');
    const viaBody = await dispatch('plain', { IdempotencyToken: 'tok-1' });
    expect(viaBody.body.DispatchedJobID).toBe(first.body.DispatchedJobID);
    const viaFieldName = await dispatch('plain', {}, { IdempotencyToken: 'tok-1' });
    expect(viaFieldName.body.DispatchedJobID).toBe(first.body.DispatchedJobID);
    const other = await dispatch('plain', {}, { idempotency_token: 'tok-2' });
    expect(other.body.DispatchedJobID).not.toBe(first.body.DispatchedJobID);
    // Once the child is dead, the token dispatches a new one.
    await c().scheduler('DELETE', `/v1/job/${encodeURIComponent(first.body.DispatchedJobID)}`);
    const after = await dispatch('plain', {}, { idempotency_token: 'tok-1' });
    expect(after.body.DispatchedJobID).not.toBe(first.body.DispatchedJobID);
    expect(after.body.EvalID).not.toBe('');
  });

  it('ten concurrent dispatches with one token make one child', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => dispatch('plain', {}, { idempotency_token: 'race' })));
    const ids = new Set(answers.map((a) => a.body.DispatchedJobID));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.body.EvalID !== '')).toHaveLength(1);
    const children = (await c().scheduler<JobView[]>('GET', '/v1/jobs', { query: { prefix: 'plain/dispatch-' } })).body;
    expect(children.filter((j) => [...ids][0] === j.ID)).toHaveLength(1);
    const withToken = await Promise.all(children.map((j) => read(j.ID)));
    expect(withToken.filter((j) => j.DispatchIdempotencyToken === 'race')).toHaveLength(1);
  });

  it("the parent's summary counts its children by status, and forgets a purged one", async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: parameterized('counted', {}) } });
    const children = async () => (await c().scheduler<{ Children: Record<string, number> }>('GET', '/v1/job/counted/summary')).body.Children;
    expect(await children()).toEqual({ Pending: 0, Running: 0, Dead: 0 });
    const a = (await dispatch('counted')).body.DispatchedJobID;
    await dispatch('counted');
    // No node here: both children wait for capacity.
    expect(await children()).toEqual({ Pending: 2, Running: 0, Dead: 0 });
    await c().scheduler('DELETE', `/v1/job/${encodeURIComponent(a)}`, { query: { purge: 'true' } });
    expect(await children()).toEqual({ Pending: 1, Running: 0, Dead: 0 });
  });

  it('needs dispatch-job on the namespace', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await c().request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return String((await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))!.auth!.client_token);
    };
    const submitter = await tokenWith('submit-only', ['submit-job', 'read-job']);
    const dispatcher = await tokenWith('dispatch-only', ['dispatch-job']);
    expect((await statusOf(dispatch('plain', {}, {}, submitter))).code).toBe(403);
    expect((await dispatch('plain', {}, {}, dispatcher)).body.DispatchedJobID).toMatch(/^plain\//);
  });

  it('a periodic parameterized job: the dispatched instance has no evaluation and launches on its own schedule', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: parameterized('cronned', {}, { Periodic: { Specs: ['0 0 1 1 * 2099'] } }) } });
    const { body } = await dispatch('cronned');
    expect(body.EvalID).toBe('');
    const child = await read(body.DispatchedJobID);
    expect(child.Periodic).not.toBeNull();
    expect(child.Status).toBe('running');
    // The parameterized parent does not launch; its dispatched instance does, and can be forced.
    expect(await statusOf(c().scheduler('POST', '/v1/job/cronned/periodic/force'))).toMatchObject({ code: 400 });
    const forced = await c().scheduler<{ EvalID: string }>('POST', `/v1/job/${encodeURIComponent(body.DispatchedJobID)}/periodic/force`);
    expect(forced.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const launched = (await c().scheduler<JobView[]>('GET', '/v1/jobs', { query: { prefix: `${body.DispatchedJobID}/periodic-` } })).body;
    expect(launched).toHaveLength(1);
    expect(launched[0].ParentID).toBe(body.DispatchedJobID);
  });
});
