/**
 * `svc alloc logs -f` alone on a task that has already finished: it prints both logs whole, each to its
 * own stream, and exits 0, where following them from their end would print nothing (the README's
 * `svc alloc logs -f -job countdown` after the job is done).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

let srv: TestServer;
let allocId: string;

beforeAll(async () => {
  srv = await startTestServer();
  const task = { Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'echo first out; echo first err >&2; echo last out'] }, Resources: { CPU: 20, MemoryMB: 16 } };
  await srv.client().scheduler('POST', '/v1/jobs', {
    body: { Job: { ID: 'finished', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Mode: 'fail' }, Tasks: [task] }] } },
  });
  const [alloc] = await until(
    () => srv.client().scheduler<Array<{ ID: string; ClientStatus: string }>>('GET', '/v1/job/finished/allocations').then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === 'complete',
    'the allocation of finished to complete',
  );
  allocId = alloc.ID;
});

afterAll(async () => srv?.close());

describe('svc alloc logs -f on a dead task', () => {
  it('prints stdout and stderr whole and exits 0', async () => {
    const res = await srv.cli(['alloc', 'logs', '-f', allocId]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('first out\nlast out\n');
    expect(res.stderr).toBe('first err\n');
  });

  it('-job names the newest allocation of the finished job the same way', async () => {
    const res = await srv.cli(['alloc', 'logs', '-f', '-job', 'finished']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('first out\nlast out\n');
  });
});
