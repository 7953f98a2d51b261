/**
 * A reader that goes away early (`svc job inspect big | head -1`): the built bin/svc writes to a pipe
 * whose read side the test closes after the first line. A command then stops quietly with 0, as a Unix
 * tool does (stderr likewise); `svc server` keeps serving without its output, and still stops cleanly on
 * SIGTERM.
 */
import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, makeTempDir, runCli, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

interface Closed {
  code: number | null;
  signal: NodeJS.Signals | null;
  firstLine: string;
  /** what the other stream (stderr, or stdout when stderr was closed) carried */
  other: string;
}

/**
 * Runs bin/svc, reads `closed` (stdout unless told) up to the first newline and then closes the read
 * side of that pipe, as `head -1` does; resolves once the process has ended.
 */
function closeAfterFirstLine(args: string[], env: Record<string, string>, closed: 'stdout' | 'stderr' = 'stdout'): Promise<Closed> {
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const [read, kept] = closed === 'stdout' ? [child.stdout, child.stderr] : [child.stderr, child.stdout];
  let first = '';
  let other = '';
  read.on('data', (d: Buffer) => {
    first += d.toString();
    if (first.includes('\n')) read.destroy();
  });
  kept.on('data', (d: Buffer) => (other += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, firstLine: first.split('\n')[0], other }));
  });
}

interface Stub {
  ID: string;
  ClientStatus: string;
}

let srv: TestServer;
const env = () => ({ SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, HOME: srv.dataDir });

function rawTask(name: string, script: string) {
  return { Name: name, Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 1_000_000_000, Resources: { CPU: 20, MemoryMB: 16 } };
}

/** Registers a one-task job and waits for its allocation to reach `status`. */
async function runJob(id: string, type: string, script: string, status: string): Promise<Stub> {
  await srv.client().scheduler('POST', '/v1/jobs', {
    body: { Job: { ID: id, Type: type, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Mode: 'fail' }, Tasks: [rawTask('t', script)] }] } },
  });
  const [alloc] = await until(
    () => srv.client().scheduler<Stub[]>('GET', `/v1/job/${id}/allocations`).then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === status,
    `the allocation of ${id} to be ${status}`,
  );
  return alloc;
}

beforeAll(async () => {
  srv = await startTestServer();
});

afterAll(async () => {
  await srv?.close();
});

describe('a command whose stdout is closed after the first line', () => {
  it('svc job inspect of a large job: exit 0, nothing on stderr', async () => {
    // About 1 MB of JSON: far more than a pipe holds, so the command is still writing when the reader goes.
    const Meta = Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`key${i}`, 'v'.repeat(100)]));
    await srv.client().scheduler('POST', '/v1/jobs', {
      body: { Job: { ID: 'big', Type: 'service', Datacenters: ['nowhere'], Meta, TaskGroups: [{ Name: 'g', Tasks: [rawTask('t', 'exit 0')] }] } },
    });
    const whole = await srv.cli(['job', 'inspect', 'big']);
    expect(whole.stdout.length).toBeGreaterThan(1_000_000);

    const closed = await closeAfterFirstLine(['job', 'inspect', 'big'], env());
    expect(closed).toEqual({ code: 0, signal: null, firstLine: '{', other: '' });
  });

  it('svc alloc logs of a task that wrote a lot: exit 0, nothing on stderr', async () => {
    const alloc = await runJob('chatty', 'batch', 'seq 1 300000', 'complete');
    const closed = await closeAfterFirstLine(['alloc', 'logs', alloc.ID], env());
    expect(closed).toEqual({ code: 0, signal: null, firstLine: '1', other: '' });
  });

  it('svc alloc logs -f of a running task: the follow ends at the next line, exit 0', async () => {
    const alloc = await runJob('ticking', 'service', 'while :; do echo tick; sleep 0.1; done', 'running');
    const closed = await closeAfterFirstLine(['alloc', 'logs', '-f', alloc.ID], env());
    expect(closed).toEqual({ code: 0, signal: null, firstLine: 'tick', other: '' });
  });

  it('svc alloc logs -f, whose task writes to stderr only, with stderr closed: exit 0', async () => {
    const alloc = await runJob('ticking-stderr', 'service', 'while :; do echo tock >&2; sleep 0.1; done', 'running');
    const closed = await closeAfterFirstLine(['alloc', 'logs', '-f', alloc.ID], env(), 'stderr');
    expect(closed).toEqual({ code: 0, signal: null, firstLine: 'tock', other: '' });
  });
});

describe('svc server -dev whose stdout is closed after the banner', () => {
  it('keeps serving, and on SIGTERM still stops cleanly (its temporary data dir removed) with exit 0', async () => {
    const tmp = await makeTempDir('svc-closed-stdout-');
    try {
      const child = spawn(process.execPath, [SVC_BIN, 'server', '-dev', '-port=0', '-client=false'], {
        env: { PATH: process.env.PATH, NO_COLOR: '1', HOME: tmp, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      const banner = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (/Root Token: \S+\n/.test(out)) resolve(out);
        });
      });
      child.stdout.destroy();
      const url = /Address: (http:\/\/\S+)/.exec(banner)![1];
      const token = /Root Token: (\S+)/.exec(banner)![1];

      const status = await runCli(['status'], { SVC_ADDR: url, SVC_TOKEN: token, HOME: tmp });
      expect(status.code, status.stderr).toBe(0);
      const devDirs = async () => (await readdir(tmp)).filter((n) => n.startsWith('svc-dev-'));
      expect(await devDirs()).toHaveLength(1);

      // Its next line ("Caught SIGTERM") meets the closed pipe.
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(await devDirs()).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
