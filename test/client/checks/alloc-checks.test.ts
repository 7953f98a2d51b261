/**
 * Service checks on a real alloc runner: a raw_exec task runs a small HTTP server on the allocation's
 * port, and the runner checks it over http, tcp and a script inside the task; check_restart restarts the
 * task as a failure its restart policy counts; and deployment health waits for the healthiness checks.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nomadCheckId } from '../../../src/client/checks/check-id.js';
import type { ClientAlloc } from '../../../src/client/types.js';
import type { CheckQueryResult } from '../../../src/scheduler/wire/check-result.js';
import { MS, SEC, events, lastEvent, makeAlloc, rawTask, startRunner, taskState, tempDir, waitFor } from '../helpers.js';
import { freePort } from '../../support/free-port.js';

const tmp = tempDir('svc-checks-');
afterAll(() => tmp.cleanup());

const serverScript = path.join(tmp.dir, 'server.cjs');
writeFileSync(
  serverScript,
  `require('http').createServer((req, res) => {
     if (req.url === '/bad') { res.statusCode = 500; return res.end('unwell'); }
     res.end('ok');
   }).listen(Number(process.argv[2]), '127.0.0.1');`,
);


const check = (name: string, extra: Record<string, unknown>) => ({ Name: name, Interval: 200 * MS, Timeout: 2 * SEC, ...extra });

async function webAlloc(opts: { taskChecks?: unknown[]; groupChecks?: unknown[]; restart?: Record<string, unknown>; update?: Record<string, unknown> }): Promise<ClientAlloc> {
  const port = await freePort();
  const alloc = makeAlloc({
    type: 'service',
    ports: [{ Label: 'http', Value: port, To: 0, HostIP: '127.0.0.1' }],
    group: {
      ...(opts.restart ? { RestartPolicy: { Interval: 30 * 60 * SEC, Mode: 'fail', ...opts.restart } } : {}),
      ...(opts.update ? { Update: opts.update } : {}),
      Services: opts.groupChecks ? [{ Name: 'web-group', PortLabel: 'http', Checks: opts.groupChecks }] : [],
    },
    tasks: [
      {
        ...rawTask('web', `exec "${process.execPath}" "${serverScript}" ${port}`),
        Services: opts.taskChecks ? [{ Name: 'web-task', PortLabel: 'http', Checks: opts.taskChecks }] : [],
      },
    ],
  });
  if (opts.update) alloc.DeploymentID = randomUUID();
  return alloc;
}

const statuses = (results: Record<string, CheckQueryResult>) => Object.values(results).map((r) => `${r.Check}:${r.Status}`).sort();

describe('service checks of an allocation', () => {
  it('runs http, tcp and script checks of group and task services, keyed by Nomad check ID', async () => {
    const before = Math.floor(Date.now() / 1000);
    const alloc = await webAlloc({
      groupChecks: [check('group-tcp', { Type: 'tcp' })],
      taskChecks: [
        check('alive', { Type: 'http', Path: '/health' }),
        check('script', { Type: 'script', Command: '/bin/sh', Args: ['-c', 'echo inside $NOMAD_TASK_NAME'] }),
        check('ready', { Type: 'http', Path: '/bad', OnUpdate: 'ignore' }),
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    // A check that ran before the task's server listened has failed once; wait until the server answers
    // (a loaded machine may take a second to start it), then every check must say what it finds.
    const expected = ['alive:success', 'group-tcp:success', 'ready:failure', 'script:success'];
    let last: string[] = [];
    const results = await waitFor(() => {
      const r = runner.checks();
      last = statuses(r);
      const ready = Object.values(r).find((c) => c.Check === 'ready');
      return last.join() === expected.join() && ready?.StatusCode === 500 && r;
    }, 'every check to run and pass or fail as its target does').catch((err: Error) => {
      throw new Error(`${err.message}; last: ${last.join(', ')}`);
    });
    const group = alloc.Job.TaskGroups[0];
    const alive = group.Tasks[0].Services![0].Checks![0];
    const id = nomadCheckId(alloc.ID, 'g', 'web', alive);
    expect(results[id]).toEqual({
      ID: id,
      Mode: 'healthiness',
      Status: 'success',
      StatusCode: 200,
      Output: 'nomad: http ok',
      Timestamp: results[id].Timestamp,
      Group: alloc.Name,
      Task: 'web',
      Service: 'web-task',
      Check: 'alive',
    });
    expect(results[id].Timestamp).toBeGreaterThanOrEqual(before);
    const byName = (n: string) => Object.values(results).find((r) => r.Check === n)!;
    const groupTcp = byName('group-tcp');
    expect(groupTcp).toMatchObject({ ID: nomadCheckId(alloc.ID, 'g', '', group.Services![0].Checks![0]), Output: 'nomad: tcp ok', Service: 'web-group' });
    expect('Task' in JSON.parse(JSON.stringify(groupTcp))).toBe(false);
    expect('StatusCode' in JSON.parse(JSON.stringify(groupTcp))).toBe(false);
    expect(byName('script')).toMatchObject({ Status: 'success', Output: 'inside web\n', Task: 'web' });
    expect(byName('ready')).toMatchObject({ Mode: 'readiness', StatusCode: 500, Output: 'unwell' });

    await runner.shutdown({ noShutdownDelay: true });
    expect(runner.checks()).toEqual({});
  });

  it('a check that keeps failing restarts its task as a failure, until the restart policy gives up', async () => {
    const alloc = await webAlloc({
      taskChecks: [check('alive', { Type: 'http', Path: '/bad', CheckRestart: { Limit: 2, Grace: 0 } })],
      restart: { Attempts: 1, Delay: 100 * MS },
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(runner, 'web').State === 'dead', 'the restart policy to give up', 30_000);
    expect(events(runner, 'web')).toEqual([
      'Received',
      'Task Setup',
      'Started',
      'Restart Signaled',
      'Terminated',
      'Restarting',
      'Started',
      'Restart Signaled',
      'Terminated',
      'Not Restarting',
    ]);
    expect(lastEvent(runner, 'web', 'Restart Signaled')).toMatchObject({
      DisplayMessage: 'healthcheck: check "alive" unhealthy',
      RestartReason: 'healthcheck: check "alive" unhealthy',
    });
    expect(lastEvent(runner, 'web', 'Not Restarting')?.DisplayMessage).toBe('Exceeded allowed attempts 1 in interval 30m0s and mode is "fail"');
    expect(taskState(runner, 'web')).toMatchObject({ Failed: true, Restarts: 1 });
    expect(runner.checks()).toEqual({});
  });

  it('a check not run yet shows its initial_status (passing: success), else pending', async () => {
    const later = { Interval: 3600 * SEC };
    const alloc = await webAlloc({ taskChecks: [check('warm', { Type: 'tcp', InitialStatus: 'passing', ...later }), check('cold', { Type: 'tcp', ...later })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    const results = await waitFor(() => Object.keys(runner.checks()).length === 2 && runner.checks(), 'the checks to be known');
    expect(Object.values(results).map((r) => [r.Check, r.Status, r.Output]).sort()).toEqual([
      ['cold', 'pending', 'nomad: waiting to run'],
      ['warm', 'success', 'nomad: waiting to run'],
    ]);
    await runner.shutdown({ noShutdownDelay: true });
  });

  it('a group service\'s failing check restarts the allocation\'s tasks', async () => {
    const alloc = await webAlloc({ groupChecks: [check('group-alive', { Type: 'http', Path: '/bad', CheckRestart: { Limit: 1, Grace: 0 } })], restart: { Attempts: 5, Delay: 100 * MS } });
    const { runner } = await startRunner(alloc, tmp.dir);
    const signaled = await waitFor(() => lastEvent(runner, 'web', 'Restart Signaled'), 'the task to be restarted');
    expect(signaled.DisplayMessage).toBe('healthcheck: check "group-alive" unhealthy');
    await runner.shutdown({ noShutdownDelay: true });
  });

  it('failures within the grace period do not count', async () => {
    const alloc = await webAlloc({ taskChecks: [check('alive', { Type: 'http', Path: '/bad', CheckRestart: { Limit: 1, Grace: 3600 * SEC } })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => Object.values(runner.checks()).filter((r) => r.Status === 'failure').length > 0 && runner, 'a failed check');
    // several more runs, all within the grace period
    const first = Object.values(runner.checks())[0].Timestamp;
    await waitFor(() => Object.values(runner.checks())[0].Timestamp >= first + 2, 'more runs of the check');
    expect(events(runner, 'web')).not.toContain('Restart Signaled');
    expect(taskState(runner, 'web').State).toBe('running');
    await runner.shutdown({ noShutdownDelay: true });
  });

  describe('deployment health with health_check = "checks"', () => {
    const update = (extra: Record<string, unknown> = {}) => ({ HealthCheck: 'checks', MinHealthyTime: 300 * MS, HealthyDeadline: 60 * SEC, ...extra });

    it('is healthy once the tasks run and every healthiness check passes; a failing readiness check does not count', async () => {
      const alloc = await webAlloc({ update: update(), taskChecks: [check('alive', { Type: 'http', Path: '/' }), check('ready', { Type: 'http', Path: '/bad', OnUpdate: 'ignore' })] });
      const { runner } = await startRunner(alloc, tmp.dir);
      const verdict = await waitFor(() => runner.state().DeploymentStatus, 'a health verdict', 30_000);
      expect(verdict?.Healthy).toBe(true);
      const results = Object.values(runner.checks());
      expect(results.find((r) => r.Check === 'alive')?.Status).toBe('success');
      expect(results.find((r) => r.Check === 'ready')?.Status).toBe('failure');
      await runner.shutdown({ noShutdownDelay: true });
    });

    it('a failing healthiness check leaves the allocation unhealthy at the healthy deadline', async () => {
      const alloc = await webAlloc({ update: update({ HealthyDeadline: 2 * SEC }), taskChecks: [check('alive', { Type: 'http', Path: '/bad' })] });
      const { runner } = await startRunner(alloc, tmp.dir);
      const verdict = await waitFor(() => runner.state().DeploymentStatus, 'a health verdict', 30_000);
      expect(verdict?.Healthy).toBe(false);
      expect(taskState(runner, 'web').State).toBe('running');
      await runner.shutdown({ noShutdownDelay: true });
    });

    it('with health_check = "task_states" the checks do not count', async () => {
      const alloc = await webAlloc({ update: update({ HealthCheck: 'task_states' }), taskChecks: [check('alive', { Type: 'http', Path: '/bad' })] });
      const { runner } = await startRunner(alloc, tmp.dir);
      const verdict = await waitFor(() => runner.state().DeploymentStatus, 'a health verdict', 30_000);
      expect(verdict?.Healthy).toBe(true);
      await runner.shutdown({ noShutdownDelay: true });
    });
  });
});
