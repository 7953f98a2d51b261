/**
 * `svc job init` and `svc job restart` through the built bin/svc, against a real server whose own node
 * runs raw_exec tasks: the example files run as written, and restarts (in place and rescheduled) go in
 * batches with Nomad's lines.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runProgram, startTestServer, SVC_BIN, type CliResult, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

let srv: TestServer;
let dir: string;

interface Stub {
  ID: string;
  TaskGroup: string;
  ClientStatus: string;
  DesiredStatus: string;
  TaskStates: Record<string, { State: string; Restarts: number }> | null;
}

const allocsOf = async (job: string) => (await srv.client().scheduler<Stub[]>('GET', `/v1/job/${job}/allocations`)).body;

/** Waits until the job has `count` allocations meant to run, all of them running. */
const running = (job: string, count: number) =>
  until(
    async () => (await allocsOf(job)).filter((a) => a.DesiredStatus === 'run'),
    (l) => l.length === count && l.every((a) => a.ClientStatus === 'running' && Object.values(a.TaskStates ?? {}).every((t) => t.State === 'running')),
    `${count} running allocations of ${job}`,
    60_000,
  );

/** bin/svc in `cwd`, for what depends on the working directory. */
function cliIn(cwd: string, args: string[]): Promise<CliResult> {
  return runProgram(process.execPath, [SVC_BIN, ...args], { PATH: process.env.PATH, HOME: cwd, NO_COLOR: '1' }, { cwd });
}

/** A service job of sleeping tasks; without deployments unless `update` says otherwise. */
const sleeperJob = (name: string, count: number, update = 'update {\n    max_parallel = 0\n  }') => `job "${name}" {
  datacenters = ["*"]
  ${update}
  group "app" {
    count = ${count}
    task "sleep" {
      driver = "raw_exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 300"]
      }
      kill_timeout = "1s"
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`;

async function runJob(name: string, hcl: string): Promise<void> {
  const file = path.join(dir, `${name}.nomad.hcl`);
  await writeFile(file, hcl);
  const r = await srv.cli(['job', 'run', '-detach', file]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

beforeAll(async () => {
  srv = await startTestServer();
  dir = await makeTempDir('svc-init-restart-');
});
afterAll(async () => {
  await srv?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('svc job init', () => {
  it('writes example.nomad.hcl in the working directory and refuses to overwrite it', async () => {
    const cwd = await makeTempDir('svc-init-cwd-');
    try {
      const first = await cliIn(cwd, ['job', 'init']);
      expect(first).toEqual({ code: 0, stdout: 'Example job file written to example.nomad.hcl\n', stderr: '' });
      const written = await readFile(path.join(cwd, 'example.nomad.hcl'), 'utf8');
      await writeFile(path.join(cwd, 'example.nomad.hcl'), 'mine');
      const again = await cliIn(cwd, ['job', 'init']);
      expect(again).toEqual({ code: 1, stdout: '', stderr: "Job 'example.nomad.hcl' already exists\n" });
      expect(await readFile(path.join(cwd, 'example.nomad.hcl'), 'utf8')).toBe('mine');
      expect(written).toContain('job "example" {');
      expect(written).toContain('# The "job" block');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('-short writes the same job without comments', async () => {
    const file = path.join(dir, 'short.nomad.hcl');
    const r = await srv.cli(['job', 'init', '-short', file]);
    expect(r).toEqual({ code: 0, stdout: `Example job file written to ${file}\n`, stderr: '' });
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('#');
    expect(text).not.toMatch(/\n\s*\n\s*\n/);
    expect(text.startsWith('job "example" {\n')).toBe(true);
    const parsed = async (hcl: string) => (await srv.client().scheduler<Record<string, unknown>>('POST', '/v1/jobs/parse', { body: { JobHCL: hcl } })).body;
    const full = path.join(dir, 'full.nomad.hcl');
    await srv.cli(['job', 'init', full]);
    expect(await parsed(text)).toEqual(await parsed(await readFile(full, 'utf8')));
  });

  it('the example runs on the server: job run, then its allocation runs', async () => {
    const file = path.join(dir, 'example.nomad.hcl');
    expect((await srv.cli(['job', 'init', file])).code).toBe(0);
    const r = await srv.cli(['job', 'run', '-detach', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    await running('example', 1);
    expect((await srv.cli(['job', 'stop', '-purge', '-detach', 'example'])).code).toBe(0);
  });

  it('-connect writes two services; both run, and the dashboard is given the API\'s address', async () => {
    const file = path.join(dir, 'connect.nomad.hcl');
    const r = await srv.cli(['job', 'init', '-connect', file]);
    expect(r).toEqual({ code: 0, stdout: `Example connect job file written to ${file}\n`, stderr: '' });
    expect((await srv.cli(['job', 'run', '-detach', file])).code).toBe(0);
    const [alloc] = await running('countdash', 1);
    const services = await until(
      async () => (await srv.client().scheduler<Array<{ Address: string; Port: number }>>('GET', '/v1/service/count-api')).body,
      (l) => l.length === 1,
      'count-api registered',
    );
    await until(
      async () => (await srv.cli(['alloc', 'logs', alloc.ID, 'dashboard'])).stdout,
      (text) => text.includes(`reads http://${services[0].Address}:${services[0].Port}`),
      'the dashboard printing the API\'s address',
    );
    expect((await srv.cli(['job', 'stop', '-purge', '-detach', 'countdash'])).code).toBe(0);
  });
});

describe('svc job restart', () => {
  beforeAll(async () => {
    await runJob('sleepers', sleeperJob('sleepers', 2));
    await running('sleepers', 2);
  });

  it('restarts every running allocation in place, in batches, with Nomad\'s lines', async () => {
    const before = await running('sleepers', 2);
    const r = await srv.cli(['job', 'restart', '-yes', '-batch-size=2', 'sleepers']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^:]*?(?=:)/g, 'T').split('\n');
    expect(lines[0]).toBe('==> T: Restarting 2 allocations');
    expect(lines[1]).toBe('==> T: Restarting 1st batch of 2 allocations');
    for (const a of before) expect(lines).toContain(`    T: Restarting running tasks in allocation "${a.ID.slice(0, 8)}" for group "app"`);
    expect(lines.slice(-4)).toEqual(['==> T: Job restart finished', '', 'Job restarted successfully!', '']);
    const after = await until(() => allocsOf('sleepers'), (l) => l.every((a) => a.TaskStates?.sleep.Restarts === 1 && a.TaskStates.sleep.State === 'running'), 'each task restarted once');
    expect(after.map((a) => a.ID).sort()).toEqual(before.map((a) => a.ID).sort());
  });

  it('waits -batch-wait between batches of one', async () => {
    const r = await srv.cli(['job', 'restart', '-yes', '-batch-wait=1s', '-all-tasks', 'sleepers']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/Restarting all tasks in allocation/g)).toHaveLength(2);
    expect(r.stdout.match(/Waiting 1s before restarting the next batch/g)).toHaveLength(1);
    expect(r.stdout).not.toContain('batch of');
  });

  it('-reschedule stops each allocation and waits for its replacement to run', async () => {
    const before = await running('sleepers', 2);
    const r = await srv.cli(['job', 'restart', '-reschedule', '-on-error=fail', '-batch-size=50%', 'sleepers']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const a of before) {
      const id = a.ID.slice(0, 8);
      expect(r.stdout).toContain(`Rescheduling allocation "${id}" for group "app"`);
      expect(r.stdout).toMatch(new RegExp(`Allocation "${id}" replaced by "([0-9a-f]{8})", waiting for "\\1" to start running`));
    }
    expect(r.stdout.match(/Allocation "[0-9a-f]{8}" is "running"/g)).toHaveLength(2);
    const after = await running('sleepers', 2);
    expect(after.some((a) => before.some((b) => b.ID === a.ID))).toBe(false);
  });

  it('"ask" needs a terminal or -yes; -batch-size and -task are checked', async () => {
    expect(await srv.cli(['job', 'restart', 'sleepers'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive') });
    expect(await srv.cli(['job', 'restart', '-on-error=fail', '-batch-wait=ask', 'sleepers'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Invalid -batch-wait value "ask"') });
    expect(await srv.cli(['job', 'restart', '-yes', '-batch-size=0', 'sleepers'])).toMatchObject({ code: 1, stderr: expect.stringContaining('number value must be greater than zero') });
    expect(await srv.cli(['job', 'restart', '-yes', '-batch-size=x', 'sleepers'])).toMatchObject({ code: 1, stderr: expect.stringContaining('batch size must be an integer or a percentage') });
    expect(await srv.cli(['job', 'restart', '-yes', '-reschedule', '-task=sleep', 'sleepers'])).toMatchObject({ code: 1, stderr: expect.stringContaining('The -reschedule option cannot be used with -task') });
  });

  it('a running deployment stops the restart with the error listed, exit 1', async () => {
    await runJob('deploying', sleeperJob('deploying', 1, 'update {\n    min_healthy_time = "10m"\n    healthy_deadline = "20m"\n    progress_deadline = "30m"\n  }'));
    await running('deploying', 1);
    const r = await srv.cli(['job', 'restart', '-yes', 'deploying']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Job restart finished with errors');
    expect(r.stderr).toMatch(/^\n1 error occurred while restarting job:\n\* Deployment "[0-9a-f]{8}" is "running"\n$/);
  });

  it('a job with nothing running has nothing to restart', async () => {
    expect((await srv.cli(['job', 'stop', '-detach', 'deploying'])).code).toBe(0);
    await until(() => allocsOf('deploying'), (l) => l.every((a) => a.ClientStatus !== 'running'), 'deploying stopped');
    expect(await srv.cli(['job', 'restart', '-yes', 'deploying'])).toEqual({ code: 0, stdout: 'No allocations to restart\n', stderr: '' });
  });
});
