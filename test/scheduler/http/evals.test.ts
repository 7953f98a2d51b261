import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/shared/errors.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

interface Eval {
  ID: string;
  JobID: string;
  TriggeredBy: string;
  Status: string;
  Priority: number;
  Namespace: string;
  CreateIndex: number;
}

const job = (id: string, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Type: 'service',
  TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sleep' } }] }],
  ...extra,
});

describe('evaluations', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    // No node: every evaluation ends complete with a blocked follow-up, deterministically.
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  const status = async (p: Promise<unknown>) => {
    try {
      await p;
      return 200;
    } catch (err) {
      return (err as ApiError).statusCode;
    }
  };

  it('register creates a job-register evaluation, returned and readable', async () => {
    const reg = await srv.client().scheduler<{ EvalID: string; EvalCreateIndex: number }>('POST', '/v1/jobs', { body: { Job: job('ev1'), EvalPriority: 80 } });
    expect(reg.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    expect(reg.body.EvalCreateIndex).toBe(reg.index);
    let read = await srv.client().scheduler<Eval & { BlockedEval?: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`);
    expect(read.body).toMatchObject({ JobID: 'ev1', TriggeredBy: 'job-register', Priority: 80, Namespace: 'default' });
    for (let i = 0; i < 200 && read.body.Status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      read = await srv.client().scheduler<Eval & { BlockedEval?: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`);
    }
    // The broker ran it: nothing could be placed (there is no node), so a blocked evaluation waits for capacity.
    expect(read.body.Status).toBe('complete');
    const blocked = await srv.client().scheduler<Eval>('GET', `/v1/evaluation/${read.body.BlockedEval}`);
    expect(blocked.body).toMatchObject({ JobID: 'ev1', Status: 'blocked' });
  });

  it('an unchanged re-register is evaluated again; a stop is evaluated as job-deregister', async () => {
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job('ev2') } });
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job('ev2') } });
    const stop = await srv.client().scheduler<{ EvalID: string }>('DELETE', '/v1/job/ev2');
    const evals = await srv.client().scheduler<Eval[]>('GET', '/v1/job/ev2/evaluations');
    // Newest first; the broker may already have added blocked evaluations (queued-allocs) in between.
    const requested = evals.body.filter((e) => e.TriggeredBy !== 'queued-allocs');
    expect(requested.map((e) => e.TriggeredBy)).toEqual(['job-deregister', 'job-register', 'job-register']);
    expect(requested[0].ID).toBe(stop.body.EvalID);
  });

  it('stopping a job whose evaluation waits for capacity cancels that evaluation, and the job is dead', async () => {
    const reg = await srv.client().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job('waiting') } });
    const evals = () => srv.client().scheduler<Eval[]>('GET', '/v1/job/waiting/evaluations').then((r) => r.body);
    for (let i = 0; i < 400 && !(await evals()).some((e) => e.Status === 'blocked'); i++) await new Promise((r) => setTimeout(r, 25));
    const blocked = (await evals()).find((e) => e.Status === 'blocked')!;
    expect(blocked).toBeDefined();
    const stop = await srv.client().scheduler<{ EvalID: string }>('DELETE', '/v1/job/waiting');
    const settled = async () => {
      const [jobNow, all] = await Promise.all([srv.client().scheduler<{ Status: string }>('GET', '/v1/job/waiting'), evals()]);
      return { status: jobNow.body.Status, evals: all };
    };
    let now = await settled();
    for (let i = 0; i < 400 && (now.status !== 'dead' || now.evals.some((e) => e.Status === 'blocked' || e.Status === 'pending')); i++) {
      await new Promise((r) => setTimeout(r, 25));
      now = await settled();
    }
    expect(now.status).toBe('dead');
    expect(now.evals.find((e) => e.ID === blocked.ID)?.Status).toBe('canceled');
    expect(now.evals.find((e) => e.ID === stop.body.EvalID)?.Status).toBe('complete');
    expect(reg.body.EvalID).not.toBe(stop.body.EvalID);
  });

  it("evaluations run at the job's priority unless EvalPriority, or eval_priority on a stop, overrides it", async () => {
    const priorityOf = async (id: string) => (await srv.client().scheduler<Eval>('GET', `/v1/evaluation/${id}`)).body.Priority;
    const plain = await srv.client().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job('prio', { Priority: 70 }) } });
    expect(await priorityOf(plain.body.EvalID)).toBe(70);
    const stop = await srv.client().scheduler<{ EvalID: string }>('DELETE', '/v1/job/prio');
    expect(await priorityOf(stop.body.EvalID)).toBe(70);
    const overridden = await srv.client().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job('prio', { Priority: 70 }), EvalPriority: 20 } });
    expect(await priorityOf(overridden.body.EvalID)).toBe(20);
    // global only matters for a multi-region job; here it is accepted and changes nothing.
    const stopped = await srv.client().scheduler<{ EvalID: string }>('DELETE', '/v1/job/prio', { query: { eval_priority: 90, global: true } });
    expect(await priorityOf(stopped.body.EvalID)).toBe(90);
    expect(await status(srv.client().scheduler('DELETE', '/v1/job/prio', { query: { eval_priority: 101 } }))).toBe(400);
  });

  it('forcing an evaluation takes a body naming the job, or no body at all as older clients send', async () => {
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job('forced') } });
    const bare = await srv.client().request('POST', '/v1/job/forced/evaluate');
    expect(bare.status).toBe(200);
    const bareId = (JSON.parse(bare.body.toString('utf8')) as { EvalID: string }).EvalID;
    expect((await srv.client().scheduler<Eval>('GET', `/v1/evaluation/${bareId}`)).body).toMatchObject({ JobID: 'forced', TriggeredBy: 'job-register' });
    const named = await srv.client().scheduler<{ EvalID: string }>('POST', '/v1/job/forced/evaluate', { body: { JobID: 'forced' } });
    expect(named.body.EvalID).toMatch(/^[0-9a-f-]{36}$/);
    const refused = async (body: unknown) => {
      try {
        await srv.client().scheduler('POST', '/v1/job/forced/evaluate', { body });
        return 'accepted';
      } catch (err) {
        return `${(err as ApiError).statusCode} ${(err as ApiError).errors[0]}`;
      }
    };
    expect(await refused({})).toBe('400 Job ID must be specified');
    expect(await refused({ EvalOptions: { ForceReschedule: true } })).toBe('400 Job ID must be specified');
    expect(await refused({ JobID: 'other' })).toMatch(/^400 .*JobID/);
    expect(await refused({ JobID: 'forced', EvalOptions: { ForceReschedule: 1 } })).toMatch(/^400 .*ForceReschedule/);
  });

  it('periodic and parameterized jobs get no evaluation', async () => {
    const periodic = await srv.client().scheduler<{ EvalID: string; EvalCreateIndex: number }>('POST', '/v1/jobs', {
      body: { Job: job('cron', { Type: 'batch', Periodic: { Spec: '*/5 * * * *', SpecType: 'cron' } }) },
    });
    expect(periodic.body).toMatchObject({ EvalID: '', EvalCreateIndex: 0 });
    const evals = await srv.client().scheduler<Eval[]>('GET', '/v1/job/cron/evaluations');
    expect(evals.body).toEqual([]);
  });

  it('lists evaluations oldest first, by prefix, by job, with paging', async () => {
    const all = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations');
    expect(all.body.length).toBeGreaterThanOrEqual(4);
    const indexes = all.body.map((e) => e.CreateIndex);
    expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
    const byJob = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations', { query: { job: 'ev1' } });
    expect(byJob.body.length).toBeGreaterThan(0);
    expect(byJob.body.every((e) => e.JobID === 'ev1')).toBe(true);
    expect(byJob.body.length).toBeLessThan(all.body.length);
    const target = all.body[0].ID;
    const byPrefix = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations', { query: { prefix: target.slice(0, 4) } });
    expect(byPrefix.body.map((e) => e.ID)).toContain(target);
    expect(await status(srv.client().scheduler('GET', '/v1/evaluations', { query: { prefix: 'abc' } }))).toBe(400);
    const page = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations', { query: { per_page: 2 } });
    expect(page.body).toHaveLength(2);
    expect(page.nextToken).toBe(`${all.body[2].CreateIndex}.${all.body[2].ID}`);
    const next = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations', { query: { per_page: 2, next_token: page.nextToken } });
    expect(next.body[0].ID).toBe(all.body[2].ID);
    const filtered = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations', { query: { filter: 'TriggeredBy == "job-deregister"' } });
    expect(filtered.body.every((e) => e.TriggeredBy === 'job-deregister')).toBe(true);
    expect(filtered.body.length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown evaluation and 403 without read-job', async () => {
    expect(await status(srv.client().scheduler('GET', '/v1/evaluation/00000000-0000-0000-0000-000000000000'))).toBe(404);
    await srv.client().secrets('PUT', 'sys/policies/acl/other-ns', { body: { policy: 'namespace "other" { policy = "read" }' } });
    const token = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['other-ns'] } }))?.auth?.client_token);
    const all = await srv.client().scheduler<Eval[]>('GET', '/v1/evaluations');
    expect(await status(srv.client(token).scheduler('GET', `/v1/evaluation/${all.body[0].ID}`))).toBe(403);
    expect(await status(srv.client(token).scheduler('GET', '/v1/evaluations'))).toBe(403);
    const star = await srv.client(token).scheduler<Eval[]>('GET', '/v1/evaluations', { query: { namespace: '*' } });
    expect(star.body).toEqual([]);
  });
});
