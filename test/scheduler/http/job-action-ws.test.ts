/**
 * Job actions: the listing of a job's `action` blocks, and running one over a WebSocket exactly as exec
 * runs a command (frames, exit code, refusals), with the allocation named `alloc_id` or `allocID`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';
import { execWs, stdinFrame } from '../../support/exec-ws.js';

let srv: TestServer;
let allocId: string;
let otherAlloc: string;

const sleeper = (name: string, actions?: unknown[]) => ({
  Name: name,
  Driver: 'raw_exec',
  Config: { command: '/bin/sh', args: ['-c', 'exec sleep 300'] },
  KillTimeout: 2_000_000_000,
  Resources: { CPU: 20, MemoryMB: 16 },
  Actions: actions,
});

async function run(id: string, groups: Array<{ Name: string; Tasks: unknown[] }>): Promise<string> {
  const c = srv.client();
  await c.scheduler('POST', '/v1/jobs', { body: { Job: { ID: id, Datacenters: ['dc1'], TaskGroups: groups.map((g) => ({ ...g, Count: 1 })) } } });
  const list = await until(
    () => c.scheduler<Array<{ ID: string; ClientStatus: string }>>('GET', `/v1/job/${encodeURIComponent(id)}/allocations`).then((r) => r.body),
    (l) => l.length === groups.length && l.every((a) => a.ClientStatus === 'running'),
    `${id} running`,
  );
  return list[0].ID;
}

const actionPath = (job: string, q: Record<string, string | boolean>) =>
  `/v1/job/${encodeURIComponent(job)}/action?${new URLSearchParams(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])))}`;

beforeAll(async () => {
  srv = await startTestServer();
  allocId = await run('web/app', [
    {
      Name: 'g',
      Tasks: [
        sleeper('t', [
          { Name: 'hello', Command: '/bin/sh', Args: ['-c', 'echo "hi from $NOMAD_TASK_NAME"; echo warn >&2; exit 3'] },
          { Name: 'echo-input', Command: 'cat', Args: null },
        ]),
        sleeper('side', [{ Name: 'size', Command: '/bin/sh', Args: ['-c', 'stty size'] }]),
      ],
    },
  ]);
  otherAlloc = await run('plain', [{ Name: 'g', Tasks: [sleeper('t')] }]);
});
afterAll(async () => {
  await srv?.close();
});

describe('GET /v1/job/:job_id/actions', () => {
  it('lists every action with its task and group, in declaration order', async () => {
    const { body } = await srv.client().scheduler('GET', `/v1/job/${encodeURIComponent('web/app')}/actions`);
    expect(body).toEqual([
      { Name: 'hello', Command: '/bin/sh', Args: ['-c', 'echo "hi from $NOMAD_TASK_NAME"; echo warn >&2; exit 3'], TaskName: 't', TaskGroupName: 'g' },
      { Name: 'echo-input', Command: 'cat', Args: null, TaskName: 't', TaskGroupName: 'g' },
      { Name: 'size', Command: '/bin/sh', Args: ['-c', 'stty size'], TaskName: 'side', TaskGroupName: 'g' },
    ]);
  });

  it('answers [] for a job without actions, 404 for an unknown job, 403 without read-job', async () => {
    const c = srv.client();
    expect((await c.scheduler('GET', '/v1/job/plain/actions')).body).toEqual([]);
    const missing = await c.request('GET', '/v1/job/nope/actions');
    expect([missing.status, missing.body.toString()]).toEqual([404, 'job not found']);
    expect((await srv.client('').request('GET', '/v1/job/plain/actions')).status).toBe(403);
  });
});

describe('running an action', () => {
  it('streams its output and exits with its code; the allocation may be named alloc_id or allocID', async () => {
    for (const key of ['alloc_id', 'allocID']) {
      const r = await execWs(srv.url, actionPath('web/app', { action: 'hello', task: 't', [key]: allocId }), { token: srv.rootToken, handshake: true });
      expect(r.stdout.toString()).toBe('hi from t\n');
      expect(r.stderr.toString()).toBe('warn\n');
      expect(r.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 3 } });
      expect(r.closeCode).toBe(1000);
    }
  });

  it('forwards input frames and resizes to the action, as Nomad\'s client sends them', async () => {
    const input = await execWs(srv.url, actionPath('web/app', { action: 'echo-input', task: 't', allocID: allocId }), {
      token: srv.rootToken,
      send: [stdinFrame('piped\n'), { stdin: { close: true } }],
    });
    expect([input.stdout.toString(), input.exitCode]).toEqual(['piped\n', 0]);
    const size = await execWs(srv.url, actionPath('web/app', { action: 'size', task: 'side', allocID: allocId, tty: true }), {
      token: srv.rootToken,
      send: [{ tty_size: { height: 33, width: 111 } }],
    });
    expect(size.stdout.toString()).toBe('33 111\r\n');
  });

  it('refuses what does not add up, before the upgrade and after it', async () => {
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['web/app', { action: 'nope', task: 't', allocID: allocId }, 400, 'action nope not found in task t'],
      ['web/app', { action: 'hello', task: 'nope', allocID: allocId }, 400, `task nope not found in allocation ${allocId}`],
      ['web/app', { action: 'hello', task: 't', allocID: otherAlloc }, 400, `job web/app does not have allocation ${otherAlloc}`],
      ['plain', { action: 'hello', task: 't', allocID: allocId }, 400, `job plain does not have allocation ${allocId}`],
      ['web/app', { action: 'hello', task: 't' }, 400, 'must provide a valid alloc id'],
      ['web/app', { task: 't', allocID: allocId }, 400, 'must provide action name'],
      ['web/app', { action: 'hello', allocID: allocId }, 400, 'must provide task name'],
      ['web/app', { action: 'hello', task: 't', alloc_id: allocId, allocID: otherAlloc }, 400, 'alloc_id and allocID name different allocations'],
    ];
    for (const [job, q, status, message] of cases) {
      const viaHeader = await execWs(srv.url, actionPath(job, q), { token: srv.rootToken });
      expect({ q, status: viaHeader.httpStatus, body: viaHeader.httpBody }).toEqual({ q, status, body: expect.stringContaining(message) });
      const viaHandshake = await execWs(srv.url, actionPath(job, q), { token: srv.rootToken, handshake: true });
      expect({ q, code: viaHandshake.closeCode, reason: viaHandshake.closeReason }).toEqual({ q, code: 1008, reason: expect.stringContaining(message) });
    }
  });

  it('needs alloc-exec and, for raw_exec, alloc-node-exec', async () => {
    const c = srv.client();
    const tokenWith = async (name: string, caps: string[]) => {
      await c.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return String((await c.secrets('POST', 'auth/token/create', { body: { policies: [name] } }))?.auth?.client_token);
    };
    const path = actionPath('web/app', { action: 'hello', task: 't', allocID: allocId });
    const r = await execWs(srv.url, path, { token: await tokenWith('action-exec-only', ['alloc-exec', 'read-job']) });
    expect([r.httpStatus, r.httpBody]).toEqual([403, 'Permission denied']);
    const allowed = await execWs(srv.url, path, { token: await tokenWith('action-node-exec', ['alloc-exec', 'alloc-node-exec']) });
    expect(allowed.stdout.toString()).toBe('hi from t\n');
  });

  it('says a plain GET needs the WebSocket upgrade', async () => {
    const answer = await srv.client().request('GET', actionPath('web/app', { action: 'hello', task: 't', allocID: allocId }));
    expect([answer.status, answer.body.toString()]).toEqual([400, expect.stringContaining('speaks WebSocket')]);
  });
});

describe('svc job status', () => {
  it('lists the job\'s actions in an Actions section, and none for a job without them', async () => {
    const withActions = await srv.cli(['job', 'status', 'web/app']);
    expect(withActions.code).toBe(0);
    const section = withActions.stdout.split('\nActions\n')[1]?.split('\n\n')[0];
    expect(section?.split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['Action', 'Name', 'Task', 'Group', 'Task'],
      ['hello', 'g', 't'],
      ['echo-input', 'g', 't'],
      ['size', 'g', 'side'],
    ]);
    const without = await srv.cli(['job', 'status', 'plain']);
    expect(without.code).toBe(0);
    expect(without.stdout).not.toContain('Actions');
  });
});
