/**
 * Forcing a periodic launch on a real server (POST|PUT /v1/job/:job_id/periodic/force): the child and
 * its evaluation, prohibit_overlap ignored, Nomad's errors, ACL; and the launcher started with the server.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';
import { statusOf, until } from '../../support/wait.js';

interface JobStub {
  ID: string;
  ParentID: string;
  Status: string;
  Periodic: boolean;
}

const periodic = (id: string, p: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Type: 'batch',
  Datacenters: ['dc1'],
  Periodic: p,
  TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 16 } }] }],
  ...extra,
});

describe('periodic force', () => {
  let srv: TestServer;
  const c = () => srv.client();
  const force = (id: string, token?: string, method = 'POST') =>
    srv.client(token).scheduler<{ EvalID: string; EvalCreateIndex: number; Index: number }>(method, `/v1/job/${encodeURIComponent(id)}/periodic/force`);
  const children = async (id: string) => (await c().scheduler<JobStub[]>('GET', '/v1/jobs', { query: { prefix: `${id}/periodic-` } })).body.filter((j) => j.ParentID === id);
  const register = (job: Record<string, unknown>) => c().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job } });

  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    // Far in the future: nothing launches unless forced.
    await register(periodic('report', { Specs: ['0 0 1 1 * 2099'], ProhibitOverlap: true }));
  });
  afterAll(async () => srv?.close());

  it('registering a periodic job creates no evaluation, and the job runs until stopped', async () => {
    const resp = await register(periodic('quiet', { Specs: ['@daily'] }));
    expect(resp.body.EvalID).toBe('');
    expect((await c().scheduler<{ Status: string }>('GET', '/v1/job/quiet')).body.Status).toBe('running');
  });

  it('launches a child now with its evaluation, even while an earlier child runs under prohibit_overlap', async () => {
    const first = await force('report');
    expect(first.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.Index).toBe(first.index);
    expect(first.body.EvalCreateIndex).toBe(first.index);
    // Nomad's PeriodicForceResponse: WriteMeta is the index alone.
    expect(Object.keys(first.body).sort()).toEqual(['EvalCreateIndex', 'EvalID', 'Index']);
    const evaluation = (await c().scheduler<{ JobID: string; TriggeredBy: string }>('GET', `/v1/evaluation/${first.body.EvalID}`)).body;
    expect(evaluation.JobID).toMatch(/^report\/periodic-\d+$/);
    expect(evaluation.TriggeredBy).toBe('periodic-job');
    // No node here: the first child's evaluation stays open, so it is still running; force launches anyway.
    await new Promise((r) => setTimeout(r, 1100));
    const second = await force('report', undefined, 'PUT');
    expect(second.body.EvalID).not.toBe(first.body.EvalID);
    const launched = await children('report');
    expect(launched).toHaveLength(2);
    const child = (await c().scheduler<{ ParentID: string; Periodic: unknown; Name: string; ID: string }>('GET', `/v1/job/${encodeURIComponent(launched[0].ID)}`)).body;
    expect(child).toMatchObject({ ParentID: 'report', Periodic: null, Name: child.ID });
  });

  it("errors as Nomad: not periodic (400), unknown (404), stopped or disabled (400)", async () => {
    await register({ ...periodic('plain', {}), Periodic: undefined });
    expect(await statusOf(force('plain'))).toEqual({ code: 400, message: "can't force launch non-periodic job" });
    expect(await statusOf(force('ghost'))).toEqual({ code: 404, message: 'job not found' });
    await register(periodic('off', { Specs: ['@daily'], Enabled: false }));
    expect((await statusOf(force('off'))).message).toMatch(/^can't force run non-tracked job off \(default\)/);
    await register(periodic('halted', { Specs: ['@daily'] }));
    await c().scheduler('DELETE', '/v1/job/halted');
    expect((await statusOf(force('halted'))).code).toBe(400);
    expect(await children('halted')).toHaveLength(0);
  });

  it('needs dispatch-job or submit-job', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await c().request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return String((await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))!.auth!.client_token);
    };
    expect((await statusOf(force('report', await tokenWith('reader', ['read-job'])))).code).toBe(403);
    expect((await force('report', await tokenWith('dispatcher', ['dispatch-job']))).body.EvalID).not.toBe('');
    expect((await force('report', await tokenWith('submitter', ['submit-job']))).body.EvalID).not.toBe('');
  });

  it("the server's launcher launches on a seconds cron, and stops when the job is stopped", async () => {
    await register(periodic('ticker', { Specs: ['*/1 * * * * * *'] }));
    await until(() => children('ticker'), (l) => l.length >= 2, 'two launches');
    await c().scheduler('DELETE', '/v1/job/ticker');
    const settled = (await children('ticker')).length;
    await new Promise((r) => setTimeout(r, 2200));
    // At most one launch was already under way when the stop landed.
    expect((await children('ticker')).length).toBeLessThanOrEqual(settled + 1);
    const later = (await children('ticker')).length;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await children('ticker')).length).toBe(later);
  });
});

describe('a launch missed while the server was down', () => {
  it('is launched once when the server starts again on the same data dir', async () => {
    const dataDir = await makeTempDir();
    let srv = await startTestServer({ client: false, dataDir });
    try {
      // One instant, three seconds from now (cronexpr's 7 fields: sec min hour dom mon dow year).
      const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000);
      const spec = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} * ${at.getUTCFullYear()}`;
      // The root token is made at the first start only.
      const root = srv.rootToken;
      await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: periodic('once', { Specs: [spec] }) } });
      await srv.close();
      while (Date.now() < at.getTime() + 500) await new Promise((r) => setTimeout(r, 100));
      const restarted = Date.now();
      srv = await startTestServer({ client: false, dataDir });
      const list = async () => (await srv.client(root).scheduler<JobStub[]>('GET', '/v1/jobs', { query: { prefix: 'once/periodic-' } })).body;
      const [child] = await until(list, (l) => l.length === 1, 'the missed launch');
      // Launched at start, not back-dated to the missed instant.
      expect(Number(child.ID.split('-').pop())).toBeGreaterThanOrEqual(Math.floor(restarted / 1000));
      expect(child.ParentID).toBe('once');
      // A second restart finds nothing missed: the launch is recorded.
      await srv.close();
      srv = await startTestServer({ client: false, dataDir });
      await srv.server.services.scheduler.periodic.settled();
      expect(await list()).toHaveLength(1);
    } finally {
      await srv.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
