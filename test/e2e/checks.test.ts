/**
 * Service checks end to end, on the server's own node: a raw_exec task runs a small HTTP server on a
 * dynamic port, checked over http and a script (task service) and tcp (group service). Their results are
 * served at /v1/allocation/:id/checks, without /v1 and under /v1/client; a failing check with
 * check_restart restarts its task; health_check = "checks" holds a deployment until the checks pass, and
 * fails it when they never do; `svc alloc checks` and `svc alloc status` show them.
 */
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nomadCheckId } from '../../src/client/checks/check-id.js';
import type { AllocCheckResults, CheckQueryResult } from '../../src/scheduler/wire/check-result.js';
import type { Job } from '../../src/scheduler/structs/job.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';

interface Stub {
  ID: string;
  Name: string;
  ClientStatus: string;
  DeploymentStatus: { Healthy: boolean | null } | null;
  TaskStates: Record<string, { State: string; Restarts: number; Events: Array<{ Type: string; DisplayMessage: string }> }> | null;
}

interface Deployment {
  ID: string;
  Status: string;
  StatusDescription: string;
}

let srv: TestServer;
let dir: string;
let serverScript: string;
const c = () => srv.client();
const MS = 1_000_000;
const SEC = 1000 * MS;

const check = (name: string, extra: Record<string, unknown>) => ({ Name: name, Interval: SEC, Timeout: SEC, ...extra });

function webJob(id: string, opts: { taskChecks: unknown[]; groupChecks?: unknown[]; update?: Record<string, unknown>; restart?: Record<string, unknown>; driver?: string }) {
  return {
    ID: id,
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'web',
        Count: 1,
        Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
        Update: { MinHealthyTime: 500 * MS, HealthyDeadline: 60 * SEC, ProgressDeadline: 120 * SEC, ...opts.update },
        RestartPolicy: { Attempts: 0, Mode: 'fail', Interval: 600 * SEC, Delay: 100 * MS, ...opts.restart },
        ReschedulePolicy: { Attempts: 0, Unlimited: false },
        Services: opts.groupChecks ? [{ Name: 'web-group', Provider: 'nomad', PortLabel: 'http', Checks: opts.groupChecks }] : [],
        Tasks: [
          {
            Name: 'server',
            Driver: opts.driver ?? 'raw_exec',
            Config: opts.driver === 'mock' ? {} : { command: process.execPath, args: [serverScript] },
            KillTimeout: 2 * SEC,
            Resources: { CPU: 20, MemoryMB: 32 },
            Services: [{ Name: 'web', PortLabel: 'http', Checks: opts.taskChecks }],
          },
        ],
      },
    ],
  };
}

const allocsOf = (job: string) => c().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`).then((r) => r.body);
const checksOf = (allocId: string, prefix = '/v1') => c().scheduler<AllocCheckResults>('GET', `${prefix}/allocation/${allocId}/checks`).then((r) => r.body);
const latest = (job: string) => c().scheduler<Deployment | null>('GET', `/v1/job/${job}/deployment`).then((r) => r.body);
const allPassing = (results: AllocCheckResults, n: number) => Object.keys(results).length === n && Object.values(results).every((r) => r.Status === 'success');

async function placed(job: string): Promise<Stub> {
  const list = await until(() => allocsOf(job), (l) => l.length === 1 && l[0].ClientStatus === 'running', `the allocation of ${job} to run`);
  return list[0];
}

beforeAll(async () => {
  dir = await makeTempDir('svc-checks-e2e-');
  serverScript = path.join(dir, 'server.cjs');
  writeFileSync(
    serverScript,
    `require('http').createServer((req, res) => {
       if (req.url === '/bad') { res.statusCode = 500; return res.end('unwell'); }
       res.end('ok');
     }).listen(Number(process.env.NOMAD_PORT_http), process.env.NOMAD_IP_http);`,
  );
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('service checks', () => {
  let alloc: Stub;
  let job: Job;

  it('run on the node and are served by check ID, with and without /v1; the deployment waits for them and succeeds', async () => {
    await c().scheduler('POST', '/v1/jobs', {
      body: {
        Job: webJob('checked', {
          groupChecks: [check('port-open', { Type: 'tcp' })],
          taskChecks: [check('alive', { Type: 'http', Path: '/health' }), check('inside', { Type: 'script', Command: '/bin/sh', Args: ['-c', 'echo ok from $NOMAD_TASK_NAME'], Timeout: 5 * SEC })],
        }),
      },
    });
    alloc = await placed('checked');
    const results = await until(() => checksOf(alloc.ID), (r) => allPassing(r, 3), 'every check to pass');
    job = (await c().scheduler<Job>('GET', '/v1/job/checked')).body;
    const group = job.TaskGroups[0];
    const [alive, inside] = group.Tasks[0].Services![0].Checks!;
    const portOpen = group.Services![0].Checks![0];
    const ids = { alive: nomadCheckId(alloc.ID, 'web', 'server', alive), inside: nomadCheckId(alloc.ID, 'web', 'server', inside), port: nomadCheckId(alloc.ID, 'web', '', portOpen) };
    expect(Object.keys(results).sort()).toEqual(Object.values(ids).sort());
    const ts = (id: string) => results[id].Timestamp;
    expect(results).toEqual({
      [ids.alive]: { ID: ids.alive, Mode: 'healthiness', Status: 'success', StatusCode: 200, Output: 'nomad: http ok', Timestamp: ts(ids.alive), Group: 'checked.web[0]', Task: 'server', Service: 'web', Check: 'alive' },
      [ids.inside]: { ID: ids.inside, Mode: 'healthiness', Status: 'success', Output: 'ok from server\n', Timestamp: ts(ids.inside), Group: 'checked.web[0]', Task: 'server', Service: 'web', Check: 'inside' },
      [ids.port]: { ID: ids.port, Mode: 'healthiness', Status: 'success', Output: 'nomad: tcp ok', Timestamp: ts(ids.port), Group: 'checked.web[0]', Service: 'web-group', Check: 'port-open' },
    });
    // Unix seconds, not nanoseconds
    expect(ts(ids.alive)).toBeGreaterThan(1_600_000_000);
    expect(ts(ids.alive)).toBeLessThan(10_000_000_000);
    const shapes = (r: AllocCheckResults) => Object.fromEntries(Object.entries(r).map(([id, x]) => [id, Object.keys(x)]));
    expect(shapes(await checksOf(alloc.ID, ''))).toEqual(shapes(results));
    expect(shapes(await checksOf(alloc.ID, '/v1/client'))).toEqual(shapes(results));
    expect(Object.keys(results[ids.alive])).toEqual(['ID', 'Mode', 'Status', 'StatusCode', 'Output', 'Timestamp', 'Group', 'Task', 'Service', 'Check']);
    expect(Object.keys(results[ids.port])).toEqual(['ID', 'Mode', 'Status', 'Output', 'Timestamp', 'Group', 'Service', 'Check']);

    const done = await until(() => latest('checked'), (d) => d?.Status === 'successful', 'the deployment to succeed', 60_000);
    expect(done!.StatusDescription).toBe('Deployment completed successfully');
    expect((await allocsOf('checked'))[0].DeploymentStatus?.Healthy).toBe(true);
  });

  it('answer 404 for an unknown allocation, 400 for a short ID, and {} where the node is out of reach', async () => {
    expect((await statusOf(checksOf('00000000-0000-0000-0000-000000000000'))).code).toBe(404);
    expect((await statusOf(checksOf('00000000-0000-0000-0000-000000000000', ''))).code).toBe(404);
    expect((await statusOf(checksOf(alloc.ID.slice(0, 8)))).code).toBe(400);
    const far = fakeNode();
    await registerFakeNode(c(), far);
    await c().scheduler('POST', '/v1/jobs', { body: { Job: webJob('far-away', { driver: 'mock', taskChecks: [check('alive', { Type: 'tcp' })] }) } });
    const farAlloc = await until(() => allocsOf('far-away'), (l) => l.length === 1, 'the allocation on the fake node');
    expect(await checksOf(farAlloc[0].ID)).toEqual({});
    await c().scheduler('DELETE', '/v1/job/far-away', { query: { purge: true } });
  });

  it("need read-job in the allocation's namespace", async () => {
    await c().secrets('PUT', 'sys/policies/acl/checks-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    await c().secrets('PUT', 'sys/policies/acl/checks-elsewhere', { body: { policy: 'namespace "other" { policy = "write" }' } });
    const token = async (policy: string) => String((await c().secrets('POST', 'auth/token/create', { body: { policies: [policy] } }))?.auth?.client_token);
    const checksAs = async (t: string) => (await statusOf(srv.client(t).scheduler('GET', `/allocation/${alloc.ID}/checks`))).code;
    expect(await checksAs('')).toBe(403);
    expect(await checksAs(await token('checks-elsewhere'))).toBe(403);
    expect(await checksAs(await token('checks-reader'))).toBe(200);
  });

  it('svc alloc checks prints one block per check, as JSON with -json, and through a template with -t', async () => {
    const results = await until(() => checksOf(alloc.ID), (r) => allPassing(r, 3), 'every check to pass');
    const r = await srv.cli(['alloc', 'checks', alloc.ID.slice(0, 8)]);
    expect(r.code).toBe(0);
    const blocks = r.stdout.split('\n\n');
    expect(blocks[0]).toBe('Status of 3 Nomad Service Checks');
    expect(blocks.at(-1)).toBe('');
    const kv = (block: string) => Object.fromEntries(block.split('\n').map((l) => l.split(/ += /)));
    const shown = blocks.slice(1, -1).map(kv);
    expect(shown.map((b) => [b.Service, b.Task, b.Name])).toEqual([
      ['web', 'server', 'alive'],
      ['web', 'server', 'inside'],
      ['web-group', '(group)', 'port-open'],
    ]);
    const byName = (n: string) => Object.values(results).find((x) => x.Check === n)!;
    expect(shown[0]).toMatchObject({ ID: byName('alive').ID, Group: 'checked.web[0]', Status: 'success', StatusCode: '200', Mode: 'healthiness', Output: 'nomad: http ok' });
    expect(shown[0].Timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expect(Object.keys(shown[0])).toEqual(['ID', 'Name', 'Group', 'Task', 'Service', 'Status', 'StatusCode', 'Mode', 'Timestamp', 'Output']);
    expect(Object.keys(shown[2])).toEqual(['ID', 'Name', 'Group', 'Task', 'Service', 'Status', 'Mode', 'Timestamp', 'Output']);
    expect(blocks[1].split('\n')[0]).toBe(`ID         = ${byName('alive').ID}`);

    const json = await srv.cli(['alloc', 'checks', '-json', alloc.ID]);
    const parsed = JSON.parse(json.stdout) as AllocCheckResults;
    expect(Object.keys(parsed)).toEqual(Object.keys(results).sort());
    expect(Object.values(parsed).map((x: CheckQueryResult) => x.Status)).toEqual(['success', 'success', 'success']);

    const t = await srv.cli(['alloc', 'checks', '-t', '{{range .}}{{.Check}}={{.Status}};{{end}}', alloc.ID]);
    expect(t.code).toBe(0);
    expect(t.stdout.trim().split(';').filter(Boolean).sort()).toEqual(['alive=success', 'inside=success', 'port-open=success']);

    const broken = await srv.cli(['alloc', 'checks', '-t', '{{range .}}', alloc.ID]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^Error formatting the data: output:1:\d+: /);
    const both = await srv.cli(['alloc', 'checks', '-json', '-t', '{{.}}', alloc.ID]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^Both json and template formatting are not allowed: pass -json or -t, not both\n\nUsage: svc alloc checks/);
    const none = await srv.cli(['alloc', 'checks', 'ffffffff']);
    expect(none).toMatchObject({ code: 1, stderr: 'No allocation(s) with prefix or id "ffffffff" found\n' });
  });

  it('svc alloc status shows a Nomad Service Checks table after the addresses, and none without checks', async () => {
    const r = await srv.cli(['alloc', 'status', alloc.ID]);
    expect(r.code).toBe(0);
    const table = r.stdout.split('\n\n').find((b) => b.startsWith('Nomad Service Checks:'));
    expect(table).toBe(
      [
        'Nomad Service Checks:',
        'Service    Task     Name       Mode         Status',
        // Nomad sorts the rows as "service|task|..." strings: "web-group|" comes before "web|"
        'web-group  (group)  port-open  healthiness  success',
        'web        server   alive      healthiness  success',
        'web        server   inside     healthiness  success',
      ].join('\n'),
    );
    expect(r.stdout.indexOf('Allocation Addresses')).toBeLessThan(r.stdout.indexOf('Nomad Service Checks:'));
    expect(r.stdout.indexOf('Nomad Service Checks:')).toBeLessThan(r.stdout.indexOf('Task "server"'));

    await c().scheduler('POST', '/v1/jobs', { body: { Job: { ...webJob('plain', { taskChecks: [] }), TaskGroups: [{ ...webJob('plain', { taskChecks: [] }).TaskGroups[0], Services: [] }] } } });
    const plain = await placed('plain');
    const p = await srv.cli(['alloc', 'status', plain.ID]);
    expect(p.code).toBe(0);
    expect(p.stdout).not.toContain('Nomad Service Checks');
    expect(await checksOf(plain.ID)).toEqual({});
    await c().scheduler('DELETE', '/v1/job/plain', { query: { purge: true } });
  });

  it('a check that keeps failing with check_restart restarts its task, with the reason Nomad gives', async () => {
    await c().scheduler('POST', '/v1/jobs', {
      body: {
        Job: webJob('flaky', {
          taskChecks: [check('alive', { Type: 'http', Path: '/bad', CheckRestart: { Limit: 2, Grace: 0 } })],
          update: { HealthCheck: 'task_states' },
          restart: { Attempts: 5, Delay: 100 * MS },
        }),
      },
    });
    const restarted = await until(
      () => allocsOf('flaky'),
      (l) => (l[0]?.TaskStates?.server?.Restarts ?? 0) >= 1,
      'the task to be restarted by its check',
      60_000,
    );
    const events = restarted[0].TaskStates!.server.Events;
    expect(events.find((e) => e.Type === 'Restart Signaled')?.DisplayMessage).toBe('healthcheck: check "alive" unhealthy');
    expect(events.map((e) => e.Type)).toContain('Restarting');
    const results = Object.values(await checksOf(restarted[0].ID));
    expect(results.map((x) => x.Check)).toEqual(['alive']);
    await c().scheduler('DELETE', '/v1/job/flaky', { query: { purge: true } });
  });

  it('with health_check = "checks", a check that never passes fails the deployment at the healthy deadline', async () => {
    await c().scheduler('POST', '/v1/jobs', {
      body: { Job: webJob('unwell', { taskChecks: [check('alive', { Type: 'http', Path: '/bad' })], update: { HealthCheck: 'checks', HealthyDeadline: 4 * SEC } }) },
    });
    const failed = await until(() => latest('unwell'), (d) => d?.Status === 'failed', 'the deployment to fail', 60_000);
    expect(failed!.StatusDescription).toBe('Failed due to unhealthy allocations');
    const [a] = await allocsOf('unwell');
    expect(a.DeploymentStatus?.Healthy).toBe(false);
    expect(a.TaskStates?.server.State).toBe('running');
    const results = Object.values(await checksOf(a.ID));
    expect(results).toMatchObject([{ Check: 'alive', Status: 'failure', StatusCode: 500, Output: 'unwell' }]);
  });
});
