/**
 * Periodic and parameterized jobs through the built bin/svc against a real server whose node runs
 * raw_exec: `job run` prints the next launch, `job periodic force` launches the shipped example for real,
 * `job dispatch` hands a payload to a task that cats it, and `job status` lists the children.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

let srv: TestServer;
let dir: string;

const GREETER = `job "greeter" {
  datacenters = ["dc1"]
  type        = "batch"

  parameterized {
    payload       = "required"
    meta_required = ["who"]
  }

  group "g" {
    task "greet" {
      driver = "raw_exec"
      dispatch_payload {
        file = "input/payload.txt"
      }
      config {
        command = "/bin/sh"
        args    = ["-c", "printf '%s:' \\"$NOMAD_META_who\\"; cat local/input/payload.txt"]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`;

beforeAll(async () => {
  srv = await startTestServer();
  dir = await makeTempDir('svc-periodic-cli-');
  await writeFile(path.join(dir, 'greeter.nomad.hcl'), GREETER);
});
afterAll(async () => {
  await srv?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Stub {
  ID: string;
  ParentID: string;
  Status: string;
}
const childrenOf = async (prefix: string) => (await srv.client().scheduler<Stub[]>('GET', '/v1/jobs', { query: { prefix } })).body;

describe('periodic jobs from the CLI', () => {
  it('job run prints the approximate next launch; job status shows it and the launched children', async () => {
    const example = path.join(REPO, 'examples/jobs/nightly-report.nomad.hcl');
    const run = await srv.cli(['job', 'run', example]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [first, second] = run.stdout.trim().split('\n');
    expect(first).toBe('Job registration successful');
    // Every night at 03:00 UTC.
    const m = /^Approximate next launch time: (\S+) \((?:(\d+)h)?(?:(\d+)m)?(\d+)s from now\)$/.exec(second);
    expect(m, second).not.toBeNull();
    expect(m![1]).toMatch(/^\d{4}-\d\d-\d\dT03:00:00Z$/);
    expect(Number(m![2] ?? 0)).toBeLessThan(24);

    const before = await srv.cli(['job', 'status', 'nightly-report']);
    expect(before.stdout).toMatch(/^Next Periodic Launch\s+=\s+\d{4}-\d\d-\d\dT03:00:00Z \(.+ from now\)$/m);
    expect(before.stdout).toMatch(/^Periodic\s+=\s+true$/m);
    expect(before.stdout).toContain('No instances of periodic job found');
  });

  it('job periodic force -detach launches the shipped example for real; job status lists it', async () => {
    const forced = await srv.cli(['job', 'periodic', 'force', '-detach', 'nightly-report']);
    expect(forced.code).toBe(0);
    const lines = forced.stdout.trim().split('\n');
    expect(lines[0]).toBe('Force periodic successful');
    expect(lines[1]).toMatch(/^Evaluation ID: [0-9a-f-]{36}$/);
    const [child] = await until(() => childrenOf('nightly-report/periodic-'), (l) => l.length === 1 && l[0].Status === 'dead', 'the launched child to finish');
    const logs = await srv.cli(['alloc', 'logs', '-job', child.ID]);
    expect(logs.stdout).toMatch(/^building report for \d{4}-\d\d-\d\d$/m);
    const status = await srv.cli(['job', 'status', 'nightly-report']);
    expect(status.stdout).toMatch(/Children Job Summary\nPending\s+Running\s+Dead\n0\s+0\s+1\n/);
    expect(status.stdout).toContain('Previously Launched Jobs');
    expect(status.stdout).toMatch(new RegExp(`^${child.ID.replace('/', '\\/')}\\s+dead$`, 'm'));
  });

  it('job periodic force follows the evaluation without -detach, and refuses a job that is not periodic', async () => {
    const forced = await srv.cli(['job', 'periodic', 'force', 'nightly-report']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/Monitoring evaluation "[0-9a-f]{8}"/);
    expect(forced.stdout).toMatch(/finished with status "complete"/);
    await srv.cli(['job', 'run', '-detach', path.join(REPO, 'examples/jobs/hello.nomad.hcl')]);
    const refused = await srv.cli(['job', 'periodic', 'force', 'hello']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Error forcing periodic job "hello": Unexpected response code: 400 (can't force launch non-periodic job)`);
  });

  it('job status of a stopped periodic job says so', async () => {
    await srv.cli(['job', 'stop', '-detach', 'nightly-report']);
    const status = await srv.cli(['job', 'status', 'nightly-report']);
    expect(status.stdout).toMatch(/^Next Periodic Launch\s+=\s+none \(job stopped\)$/m);
  });
});

describe('dispatch from the CLI', () => {
  it('registers the parameterized job without an evaluation', async () => {
    const run = await srv.cli(['job', 'run', path.join(dir, 'greeter.nomad.hcl')]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('Job registration successful');
  });

  it('job dispatch with a payload file: the task reads it from local/<file>', async () => {
    await writeFile(path.join(dir, 'payload.txt'), 'hello from a file');
    const out = await srv.cli(['job', 'dispatch', '-detach', '-meta', 'who=ann', 'greeter', path.join(dir, 'payload.txt')]);
    expect(out.stderr).toBe('');
    const [idLine, evalLine] = out.stdout.trim().split('\n');
    const id = /^Dispatched Job ID = (greeter\/dispatch-\d+-[0-9a-f]{8})$/.exec(idLine)?.[1];
    expect(id, idLine).toBeDefined();
    expect(evalLine).toMatch(/^Evaluation ID\s+= [0-9a-f]{8}$/);
    await until(() => childrenOf(id!), (l) => l[0]?.Status === 'dead', 'the dispatched job to finish');
    const logs = await srv.cli(['alloc', 'logs', '-job', id!]);
    expect(logs.stdout).toBe('ann:hello from a file');
    // The instance is a plain batch job that ran, not a parameterized one.
    const status = await srv.cli(['job', 'status', id!]);
    expect(status.stdout).toMatch(/^Parameterized\s+=\s+false$/m);
    expect(status.stdout).toContain('Allocations');
  });

  it('job dispatch from stdin, with a template, a token and a priority, follows the evaluation', async () => {
    const args = ['job', 'dispatch', '-meta', 'who=bo', '-id-prefix-template', 'cli', '-idempotency-token', 'once', '-priority', '70', 'greeter', '-'];
    const out = await srv.cli(args, { input: 'from stdin' });
    expect(out.code).toBe(0);
    const id = /^Dispatched Job ID = (greeter\/dispatch-cli-\d+-[0-9a-f]{8})$/m.exec(out.stdout)?.[1];
    expect(id, out.stdout).toBeDefined();
    expect(out.stdout).toMatch(/Monitoring evaluation "[0-9a-f]{8}"/);
    expect((await srv.client().scheduler<{ Priority: number }>('GET', `/v1/job/${encodeURIComponent(id!)}`)).body.Priority).toBe(70);
    await until(() => childrenOf(id!), (l) => l[0]?.Status === 'dead', 'the dispatched job to finish');
    expect((await srv.cli(['alloc', 'logs', '-job', id!])).stdout).toBe('bo:from stdin');

    const status = await srv.cli(['job', 'status', 'greeter']);
    // Two instances so far, both finished.
    expect(status.stdout).toMatch(/Parameterized Job Summary\nPending\s+Running\s+Dead\n0\s+0\s+2\n/);
    expect(status.stdout).toContain('Dispatched Jobs');
    expect(status.stdout).toMatch(new RegExp(`^${id!.replace('/', '\\/')}\\s+dead$`, 'm'));
  });

  it('refusals: a missing payload, missing meta, an unreadable file, a bad -meta', async () => {
    const noPayload = await srv.cli(['job', 'dispatch', '-meta', 'who=x', 'greeter']);
    expect(noPayload.code).toBe(1);
    expect(noPayload.stderr).toContain('Failed to dispatch job: Unexpected response code: 400 (Payload is not provided but required by parameterized job)');
    const noMeta = await srv.cli(['job', 'dispatch', 'greeter', '-'], { input: 'x' });
    expect(noMeta.stderr).toContain('Dispatch did not provide required meta keys: [who]');
    const missing = await srv.cli(['job', 'dispatch', '-meta', 'who=x', 'greeter', path.join(dir, 'nope.txt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error reading input data:');
    const badMeta = await srv.cli(['job', 'dispatch', '-meta', 'who', 'greeter', '-'], { input: 'x' });
    expect(badMeta.code).toBe(1);
    expect(badMeta.stderr).toContain('Error parsing meta value: who');
  });
});
