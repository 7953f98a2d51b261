/**
 * `svc event stream` through bin/svc against a listening server: lines by default, frames with -json,
 * exit 0 on Ctrl-C; and against `svc server -dev` run from its bundle, where a large write's events are
 * built on the server's event-building thread.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';
import { spawnBin } from '../../support/spawn-bin.js';
import { spawnServer, stopServer, running as servers } from '../../support/spawn-server.js';
import { ApiClient } from '../../../src/api/http/client.js';
import { THREAD_FROM_CHARS } from '../../../src/scheduler/events/event-pool.js';

const running = new Set<ChildProcessWithoutNullStreams>();
const job = (id: string) => ({ ID: id, Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: {} }] }] });

describe('svc event stream', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ client: false });
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    for (const child of servers) child.kill('SIGKILL');
    await srv?.close();
  });

  it('prints one line per event, resumes from the buffer, and ends with 0 on Ctrl-C', async () => {
    const reg = await srv.client().scheduler<{ JobModifyIndex: number }>('POST', '/v1/jobs', { body: { Job: job('web') } });
    const env = { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, HOME: srv.dataDir };
    const lines = await spawnBin(['event', 'stream', '-topic', 'Job:web', '-topic', 'Evaluation:web'], env, /Evaluation JobRegistered/, running);
    expect(lines.stdout()).toMatch(new RegExp(`^${reg.body.JobModifyIndex} Job JobRegistered web\\n`, 'm'));
    // A later write reaches the running command.
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ...job('web'), Meta: { v: '2' } } } });
    const second = await new Promise<string>((resolve) => {
      const check = () => (lines.stdout().match(/Job JobRegistered web/g)?.length === 2 ? resolve(lines.stdout()) : undefined);
      lines.child.stdout.on('data', check);
      check();
    });
    expect(second.split('\n').filter((l) => l.includes('Job JobRegistered web'))).toHaveLength(2);
    lines.child.kill('SIGINT');
    expect((await lines.exited).code).toBe(0);

    const json = await spawnBin(['event', 'stream', '-topic', 'Job', '-json'], env, /\n/, running);
    const frame = JSON.parse(json.stdout().split('\n')[0]) as { Index: number; Events: Array<{ Topic: string; Key: string; Payload: { Job: { ID: string } } }> };
    expect(frame.Index).toBe(reg.body.JobModifyIndex);
    expect(frame.Events[0]).toMatchObject({ Topic: 'Job', Key: 'web', Payload: { Job: { ID: 'web' } } });
    json.child.kill('SIGINT');
    expect((await json.exited).code).toBe(0);
  });

  it('fails with the server\'s 403 for a topic the token may not read', async () => {
    const child = spawnBin(['event', 'stream', '-topic', 'Node'], { SVC_ADDR: srv.url, SVC_TOKEN: '', HOME: srv.dataDir }, /never/, running);
    const err = await child.catch((e: Error) => e.message);
    expect(err).toMatch(/exited with 1/);
    expect(err).toMatch(/403|Permission denied|token/i);
  });

  it("streams a -dev server's placements, and a large write's events built on its event thread", async () => {
    const env = { HOME: srv.dataDir };
    const dev = await spawnServer(['-dev', '-port=0', '-log-level=warn'], env);
    try {
      const root = new ApiClient({ address: dev.url, token: dev.rootToken });
      const nodeId = await until(async () => (await root.scheduler<Array<{ ID: string; Status: string }>>('GET', '/v1/nodes')).body.find((n) => n.Status === 'ready')?.ID, (id) => id !== undefined, 'the dev node');
      await root.scheduler('POST', '/v1/jobs', { body: { Job: { ...job('sleepy'), TaskGroups: [{ Name: 'g', Count: 3, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['30'] } }] }] } } });
      const stream = await spawnBin(['event', 'stream', '-topic', 'Allocation:sleepy', '-json'], { SVC_ADDR: dev.url, SVC_TOKEN: dev.rootToken!, HOME: srv.dataDir }, /PlanResult/, running);
      const frame = JSON.parse(stream.stdout().split('\n').find((l) => l.includes('PlanResult'))!) as { Events: Array<{ Type: string; Payload: { Allocation: { JobID: string; NodeID: string } } }> };
      expect(frame.Events.filter((e) => e.Type === 'PlanResult').map((e) => e.Payload.Allocation)).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ JobID: 'sleepy', NodeID: nodeId })));
      stream.child.kill('SIGINT');
      expect((await stream.exited).code).toBe(0);
      // A job of more JSON than a write's events are built in the server's own thread for.
      const large = 'x'.repeat(THREAD_FROM_CHARS);
      await root.scheduler('POST', '/v1/jobs', { body: { Job: { ...job('large'), Meta: { large } } } });
      const jobs = await spawnBin(['event', 'stream', '-topic', 'Job:large', '-json'], { SVC_ADDR: dev.url, SVC_TOKEN: dev.rootToken!, HOME: srv.dataDir }, /JobRegistered/, running);
      const line = await until(async () => jobs.stdout().split('\n').slice(0, -1).find((l) => l.includes('JobRegistered')), (l) => l !== undefined, 'the whole frame');
      const registered = JSON.parse(line!) as { Events: Array<{ Payload: { Job: { Meta: Record<string, string> } } }> };
      expect(registered.Events[0].Payload.Job.Meta.large).toBe(large);
      jobs.child.kill('SIGINT');
      expect((await jobs.exited).code).toBe(0);
    } finally {
      await stopServer(dev);
    }
  }, 120_000);
});
