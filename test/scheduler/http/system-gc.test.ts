/**
 * Garbage collection: `PUT /v1/system/gc` (every threshold at zero) and the thresholds of the periodic
 * collection (Nomad's: evaluations and deployments after 1 hour, dead jobs after 4 hours), on a real
 * server whose node runs the tasks, so that an allocation's directory is seen to go with it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../src/scheduler/state/gc.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { statusOf, until } from '../../support/wait.js';

let srv: TestServer;

interface Stub {
  ID: string;
  EvalID: string;
  ClientStatus: string;
}

const HOUR_NS = 3600 * 1e9;
const task = (script: string) => ({ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 1_000_000_000, Resources: { CPU: 20, MemoryMB: 16 } });

async function run(id: string, type: string, script: string, want: string): Promise<Stub> {
  const c = srv.client();
  await c.scheduler('POST', '/v1/jobs', { body: { Job: { ID: id, Type: type, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [task(script)] }] } } });
  const [alloc] = await until(() => allocs(id), (l) => l.length === 1 && l[0].ClientStatus === want, `${id} ${want}`);
  return alloc;
}

const allocs = async (job: string) => (await srv.client().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`)).body;
const evals = async (job: string) => (await srv.client().scheduler<Array<{ ID: string; Status: string }>>('GET', `/v1/job/${job}/evaluations`)).body;
const allocDir = (id: string) => path.join(srv.dataDir, 'client', 'allocs', id);
const gc = () => srv.client().scheduler('PUT', '/v1/system/gc');

async function jobDead(id: string): Promise<void> {
  await until(async () => (await srv.client().scheduler<{ Status: string }>('GET', `/v1/job/${id}`)).body.Status, (s) => s === 'dead', `${id} dead`);
}

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.close();
});

describe('PUT /v1/system/gc', () => {
  it('collects a dead batch job with its evaluations and allocations, and the node removes the allocation directory', async () => {
    const alloc = await run('done-batch', 'batch', 'echo finished', 'complete');
    await jobDead('done-batch');
    expect(existsSync(allocDir(alloc.ID))).toBe(true);
    await gc();
    expect((await statusOf(srv.client().scheduler('GET', '/v1/job/done-batch'))).code).toBe(404);
    expect((await statusOf(srv.client().scheduler('GET', `/v1/allocation/${alloc.ID}`))).code).toBe(404);
    expect((await statusOf(srv.client().scheduler('GET', `/v1/evaluation/${alloc.EvalID}`))).code).toBe(404);
    await until(async () => existsSync(allocDir(alloc.ID)), (exists) => !exists, 'the allocation directory to go');
  });

  it('keeps a batch job that still runs, with its whole history', async () => {
    const alloc = await run('long-batch', 'batch', 'exec sleep 300', 'running');
    await gc();
    expect((await allocs('long-batch')).map((a) => a.ID)).toEqual([alloc.ID]);
    expect((await evals('long-batch')).map((e) => e.ID)).toContain(alloc.EvalID);
    expect(existsSync(allocDir(alloc.ID))).toBe(true);
  });

  it('collects a stopped service job once its allocations have finished, and keeps a running one', async () => {
    const stopped = await run('stopped-svc', 'service', 'exec sleep 300', 'running');
    const running = await run('running-svc', 'service', 'exec sleep 300', 'running');
    await srv.client().scheduler('DELETE', '/v1/job/stopped-svc');
    await jobDead('stopped-svc');
    await until(() => allocs('stopped-svc'), (l) => l.every((a) => a.ClientStatus === 'complete'), 'the stopped allocation to finish');
    await gc();
    expect((await statusOf(srv.client().scheduler('GET', '/v1/job/stopped-svc'))).code).toBe(404);
    expect((await statusOf(srv.client().scheduler('GET', `/v1/allocation/${stopped.ID}`))).code).toBe(404);
    // A terminal evaluation stays while an allocation it placed still runs.
    expect((await evals('running-svc')).map((e) => e.ID)).toContain(running.EvalID);
    expect((await allocs('running-svc')).map((a) => a.ID)).toEqual([running.ID]);
  });

  it('collects what a purge leaves behind: the purged job\'s allocations and evaluations', async () => {
    const alloc = await run('purged-svc', 'service', 'exec sleep 300', 'running');
    await srv.client().scheduler('DELETE', '/v1/job/purged-svc', { query: { purge: true } });
    await until(async () => (await srv.client().scheduler<Stub>('GET', `/v1/allocation/${alloc.ID}`)).body.ClientStatus, (s) => s === 'complete', 'the purged job\'s allocation to stop');
    await gc();
    expect((await statusOf(srv.client().scheduler('GET', `/v1/allocation/${alloc.ID}`))).code).toBe(404);
    const all = (await srv.client().scheduler<Stub[]>('GET', '/v1/allocations')).body;
    expect(all.some((a) => a.ID === alloc.ID)).toBe(false);
    await until(async () => existsSync(allocDir(alloc.ID)), (exists) => !exists, 'the allocation directory to go');
  });

  it('needs a management token', async () => {
    const c = srv.client();
    await c.secrets('PUT', 'sys/policies/acl/gc-writer', { body: { policy: 'namespace "default" { policy = "write" }' } });
    const token = String((await c.secrets('POST', 'auth/token/create', { body: { policies: ['gc-writer'] } }))?.auth?.client_token);
    expect(await statusOf(srv.client(token).scheduler('PUT', '/v1/system/gc'))).toEqual({ code: 403, message: 'Permission denied' });
    expect((await statusOf(srv.client('').scheduler('PUT', '/v1/system/gc'))).code).toBe(403);
  });

  it('svc system gc collects and prints nothing', async () => {
    await run('cli-batch', 'batch', 'true', 'complete');
    await jobDead('cli-batch');
    const r = await srv.cli(['system', 'gc']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect((await statusOf(srv.client().scheduler('GET', '/v1/job/cli-batch'))).code).toBe(404);
  });
});

describe('thresholds of the periodic collection', () => {
  it('keeps a dead job for 4 hours after its last activity, then collects it', async () => {
    const alloc = await run('aging-batch', 'batch', 'true', 'complete');
    await jobDead('aging-batch');
    const { store } = srv.server.services;
    const now = Date.now() * 1e6;
    await collectGarbage(store, { now: now + 3.9 * HOUR_NS });
    expect((await allocs('aging-batch')).map((a) => a.ID)).toEqual([alloc.ID]);
    await collectGarbage(store, { now: now + 4.1 * HOUR_NS });
    expect((await statusOf(srv.client().scheduler('GET', '/v1/job/aging-batch'))).code).toBe(404);
  });

  it('collects a live service job\'s finished evaluations after an hour, never one whose allocation runs', async () => {
    const first = await run('rolling', 'service', 'exec sleep 300', 'running');
    // A destructive update: the first allocation stops, a second one runs under a new evaluation.
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'rolling', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Update: { MaxParallel: 0 }, Tasks: [task('exec sleep 301')] }] } } });
    const list = await until(() => allocs('rolling'), (l) => l.length === 2 && l.some((a) => a.ID === first.ID && a.ClientStatus === 'complete') && l.some((a) => a.ClientStatus === 'running'), 'the replacement to run');
    const second = list.find((a) => a.ID !== first.ID)!;
    const { store } = srv.server.services;
    const now = Date.now() * 1e6;
    await collectGarbage(store, { now: now + 0.5 * HOUR_NS });
    expect((await allocs('rolling')).length).toBe(2);
    await collectGarbage(store, { now: now + 1.5 * HOUR_NS });
    expect((await allocs('rolling')).map((a) => a.ID)).toEqual([second.ID]);
    expect((await evals('rolling')).map((e) => e.ID)).toContain(second.EvalID);
    expect((await srv.client().scheduler<{ Status: string }>('GET', '/v1/job/rolling')).body.Status).toBe('running');
  });
});
