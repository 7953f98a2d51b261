/**
 * Deployments with real processes on the server's own node: a service job's first version rolls out and
 * becomes stable; a new version replaces allocations max_parallel at a time, each after the previous
 * proved healthy; a version whose tasks fail is rolled back to the last stable one (auto_revert); a stop
 * cancels the running deployment; and the deployment endpoints answer as Nomad's do.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';

interface Deployment {
  ID: string;
  JobID: string;
  JobVersion: number;
  Status: string;
  StatusDescription: string;
  CreateIndex: number;
  TaskGroups: Record<string, { DesiredTotal: number; PlacedAllocs: number; HealthyAllocs: number; UnhealthyAllocs: number; AutoRevert: boolean }>;
}

interface Stub {
  ID: string;
  JobVersion: number;
  DeploymentStatus: { Healthy: boolean | null } | null;
  DesiredStatus: string;
  ClientStatus: string;
}

let srv: TestServer;
let dir: string;
const c = () => srv.client();
const MS = 1_000_000;

function web(id: string, opts: { count?: number; command?: string; autoRevert?: boolean; minHealthy?: number } = {}) {
  return {
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'web',
        Count: opts.count ?? 2,
        Update: { MaxParallel: 1, MinHealthyTime: (opts.minHealthy ?? 300) * MS, HealthyDeadline: 8000 * MS, ProgressDeadline: 20_000 * MS, AutoRevert: opts.autoRevert ?? false },
        RestartPolicy: { Attempts: 0, Mode: 'fail', Interval: 60_000 * MS, Delay: 100 * MS },
        ReschedulePolicy: { Attempts: 0, Unlimited: false },
        Tasks: [
          {
            Name: 'server',
            Driver: 'raw_exec',
            Config: { command: '/bin/sh', args: ['-c', opts.command ?? 'exec sleep 300'] },
            KillTimeout: 1000 * MS,
            Resources: { CPU: 20, MemoryMB: 16 },
          },
        ],
      },
    ],
  };
}

const latest = (job: string) => c().scheduler<Deployment | null>('GET', `/v1/job/${job}/deployment`).then((r) => r.body);
const allocs = (job: string) => c().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`).then((r) => r.body);

beforeAll(async () => {
  srv = await startTestServer();
  dir = await makeTempDir('svc-deploy-');
});
afterAll(async () => {
  await srv?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('deployments', () => {
  it('the first version rolls out, its allocations prove healthy, and the version becomes stable', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: web('site') } });
    const first = await until(() => latest('site'), (d) => d !== null, 'a deployment');
    expect(first).toMatchObject({ JobID: 'site', JobVersion: 0, Status: 'running', StatusDescription: 'Deployment is running' });
    expect(first!.TaskGroups.web).toMatchObject({ DesiredTotal: 2, PlacedAllocs: 2 });
    const done = await until(() => latest('site'), (d) => d?.Status === 'successful', 'the deployment to succeed');
    expect(done).toMatchObject({ StatusDescription: 'Deployment completed successfully' });
    expect(done!.TaskGroups.web).toMatchObject({ HealthyAllocs: 2, UnhealthyAllocs: 0 });
    const list = await allocs('site');
    expect(list.every((a) => a.DeploymentStatus?.Healthy === true)).toBe(true);
    expect((await c().scheduler<{ Stable: boolean }>('GET', '/v1/job/site')).body.Stable).toBe(true);
    const alloc = (await c().scheduler<Stub[]>('GET', `/v1/deployment/allocations/${done!.ID}`)).body;
    expect(alloc.length).toBe(2);
  });

  it('a new version replaces one allocation at a time, each after the last proved healthy', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: web('site', { command: 'echo v1; exec sleep 300', minHealthy: 2500 }) } });
    const rolling = await until(() => latest('site'), (d) => d?.JobVersion === 1, 'the version 1 deployment');
    expect(rolling!.Status).toBe('running');
    // While the first replacement proves healthy, the second old allocation keeps running.
    const midway = await until(() => allocs('site'), (l) => l.some((a) => a.JobVersion === 1 && a.DesiredStatus === 'run'), 'the first replacement');
    const live = midway.filter((a) => a.DesiredStatus === 'run');
    expect(live.filter((a) => a.JobVersion === 1).length).toBe(1);
    expect(live.filter((a) => a.JobVersion === 0).length).toBe(1);
    const done = await until(() => latest('site'), (d) => d?.JobVersion === 1 && d.Status === 'successful', 'the rollout to finish');
    expect(done!.TaskGroups.web).toMatchObject({ PlacedAllocs: 2, HealthyAllocs: 2 });
    const after = (await allocs('site')).filter((a) => a.DesiredStatus === 'run');
    expect(after.map((a) => a.JobVersion)).toEqual([1, 1]);
  });

  it('a version whose tasks fail is rolled back to the last stable version (auto_revert)', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: web('site', { command: 'exit 7', autoRevert: true }) } });
    const failed = await until(() => c().scheduler<Deployment[]>('GET', '/v1/job/site/deployments').then((r) => r.body.find((d) => d.JobVersion === 2)), (d) => d?.Status === 'failed', 'the version 2 deployment to fail');
    expect(failed!.StatusDescription).toBe('Failed due to unhealthy allocations - rolling back to job version 1');
    const job = await until(() => c().scheduler<{ Version: number; TaskGroups: Array<{ Tasks: Array<{ Config: { args: string[] } }> }> }>('GET', '/v1/job/site').then((r) => r.body), (j) => j.Version === 3, 'the revert');
    expect(job.TaskGroups[0].Tasks[0].Config.args).toEqual(['-c', 'echo v1; exec sleep 300']);
    const back = await until(() => latest('site'), (d) => d?.JobVersion === 3 && d.Status === 'successful', 'the reverted version to roll out');
    expect(back!.TaskGroups.web.HealthyAllocs).toBe(2);
  });

  it('stopping the job cancels its running deployment', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: web('slow', { count: 1, minHealthy: 5000 }) } });
    const running = await until(() => latest('slow'), (d) => d?.Status === 'running', 'a running deployment');
    await c().scheduler('DELETE', '/v1/job/slow');
    const cancelled = (await c().scheduler<Deployment>('GET', `/v1/deployment/${running!.ID}`)).body;
    expect(cancelled).toMatchObject({ Status: 'cancelled', StatusDescription: 'Cancelled because job is stopped' });
  });

  it('fails, pauses and resumes deployments on request; there are no canaries to promote', async () => {
    await c().scheduler('POST', '/v1/jobs', { body: { Job: web('manual', { count: 1, minHealthy: 5000 }) } });
    const d = await until(() => latest('manual'), (x) => x?.Status === 'running', 'a running deployment');
    const paused = await c().scheduler<{ DeploymentModifyIndex: number }>('POST', `/v1/deployment/pause/${d!.ID}`, { body: { DeploymentID: d!.ID, Pause: true } });
    expect(paused.body.DeploymentModifyIndex).toBeGreaterThan(0);
    // Nomad's DeploymentUpdateResponse: WriteMeta is the index alone.
    expect(Object.keys(paused.body).sort()).toEqual(['DeploymentModifyIndex', 'EvalCreateIndex', 'EvalID', 'Index']);
    expect((await c().scheduler<Deployment>('GET', `/v1/deployment/${d!.ID}`)).body).toMatchObject({ Status: 'paused', StatusDescription: 'Deployment is paused' });
    const resumed = await c().scheduler<{ EvalID: string }>('POST', `/v1/deployment/pause/${d!.ID}`, { body: { Pause: false } });
    expect(resumed.body.EvalID).toBeTruthy();
    expect((await c().scheduler<Deployment>('GET', `/v1/deployment/${d!.ID}`)).body.Status).toBe('running');
    expect((await statusOf(c().scheduler('POST', `/v1/deployment/promote/${d!.ID}`, { body: { All: true } }))).message).toMatch(/no canaries/);
    expect((await statusOf(c().scheduler('POST', `/v1/deployment/pause/${d!.ID}`, { body: { Pause: 'yes' } }))).code).toBe(400);
    await c().scheduler('POST', `/v1/deployment/fail/${d!.ID}`, { body: {} });
    expect((await c().scheduler<Deployment>('GET', `/v1/deployment/${d!.ID}`)).body).toMatchObject({ Status: 'failed', StatusDescription: 'Deployment marked as failed' });
    expect((await statusOf(c().scheduler('POST', `/v1/deployment/fail/${d!.ID}`, { body: {} }))).code).toBe(400);
    expect((await statusOf(c().scheduler('GET', '/v1/deployment/00000000-0000-0000-0000-000000000000'))).code).toBe(404);
  });

  it('lists deployments by namespace, prefix and job, and marks versions stable on request', async () => {
    const all = (await c().scheduler<Deployment[]>('GET', '/v1/deployments')).body;
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect([...all].sort((a, b) => a.CreateIndex - b.CreateIndex).map((d) => d.ID)).toEqual(all.map((d) => d.ID));
    const byPrefix = (await c().scheduler<Deployment[]>('GET', '/v1/deployments', { query: { prefix: all[0].ID.slice(0, 4) } })).body;
    expect(byPrefix.map((d) => d.ID)).toContain(all[0].ID);
    expect((await statusOf(c().scheduler('GET', '/v1/deployments', { query: { prefix: 'abc' } }))).code).toBe(400);
    const page = await c().scheduler<Deployment[]>('GET', '/v1/deployments', { query: { per_page: 2 } });
    expect(page.body.length).toBe(2);
    expect(page.nextToken).toBe(`${all[2].CreateIndex}.${all[2].ID}`);
    const ofSite = (await c().scheduler<Deployment[]>('GET', '/v1/job/site/deployments')).body;
    expect(ofSite.map((d) => d.JobVersion)).toEqual([3, 2, 1, 0]);
    expect((await c().scheduler<unknown>('GET', '/v1/job/nothing-here/deployment')).body).toBeNull();

    await c().scheduler('POST', '/v1/job/site/stable', { body: { JobID: 'site', JobVersion: 2, Stable: true } });
    const versions = (await c().scheduler<{ Versions: Array<{ Version: number; Stable: boolean }> }>('GET', '/v1/job/site/versions')).body.Versions;
    expect(versions.find((v) => v.Version === 2)?.Stable).toBe(true);
    expect((await statusOf(c().scheduler('POST', '/v1/job/site/stable', { body: { JobID: 'site', JobVersion: 99, Stable: true } }))).code).toBe(404);
    expect((await statusOf(c().scheduler('POST', '/v1/job/site/stable', { body: { JobID: 'site', JobVersion: 1, Stable: 'yes' } }))).code).toBe(400);
  });
});
