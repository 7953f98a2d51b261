/**
 * The server stops when it says it has: SIGINT with a task whose kill_timeout is long, and the "stopped"
 * line is followed by the process's exit before a 5 s watchdog fires (two events in order, no clock
 * measured). In dev mode the task is stopped first, and the server says it waits for it; a second SIGINT
 * leaves it running; a server on a kept data dir leaves it to be reattached.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { alive, until } from '../support/wait.js';

const WATCHDOG_MS = 5000;

interface Stub {
  ClientStatus: string;
}

describe('svc server stops when it says it has stopped', () => {
  let dir: string;
  let home: string;
  let proc: SpawnedServer | undefined;
  const pids: number[] = [];
  const dataDirs: string[] = [];

  beforeAll(async () => {
    dir = await makeTempDir('svc-server-stop-');
    home = await makeTempDir('svc-server-stop-home-');
  });
  afterEach(async () => {
    proc?.child.kill('SIGKILL');
    await proc?.exited;
    proc = undefined;
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  afterAll(async () => {
    for (const d of [dir, home, ...dataDirs]) await rm(d, { recursive: true, force: true });
  });

  /**
   * Starts the server and a task with a 20 s kill_timeout; `ignoreTerm` makes it sit out the kill signal,
   * `shutdownDelayNs` gives it a shutdown_delay.
   */
  async function startWithTask(args: string[], name: string, ignoreTerm: boolean, shutdownDelayNs = 0): Promise<number> {
    proc = await spawnServer([...args, '-port=0', '-log-level=warn'], { HOME: home });
    const api = new ApiClient({ address: proc.url, token: proc.rootToken! });
    const pidFile = path.join(dir, `${name}.pid`);
    const script = ignoreTerm ? `trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 1; done` : `echo $$ > ${pidFile}; exec sleep 600`;
    const job = {
      ID: name,
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 20_000_000_000, ShutdownDelay: shutdownDelayNs }] }],
    };
    await api.scheduler('POST', '/v1/jobs', { body: { Job: job } });
    await until(() => api.scheduler<Stub[]>('GET', `/v1/job/${name}/allocations`).then((r) => r.body), (l) => l[0]?.ClientStatus === 'running', 'the task to run');
    const pid = Number((await until(() => readFile(pidFile, 'utf8'), (t) => t.trim() !== '', 'the pid file')).trim());
    pids.push(pid);
    return pid;
  }

  /** Resolves with the lines printed up to "stopped", once the line is out. */
  function untilStopped(server: SpawnedServer): Promise<string[]> {
    return until(
      async () => server.stdout(),
      (out) => out.includes('svc server stopped'),
      'the stopped line',
      30_000,
    ).then((out) => out.split('\n').filter((l) => l.startsWith('==> ') && !l.includes('started')));
  }

  /** Which comes first after "stopped": the process's exit, or the watchdog. */
  function exitOrWatchdog(server: SpawnedServer): Promise<'exited' | 'watchdog'> {
    let timer: NodeJS.Timeout | undefined;
    const watchdog = new Promise<'watchdog'>((resolve) => (timer = setTimeout(() => resolve('watchdog'), WATCHDOG_MS)));
    return Promise.race([server.exited.then(() => 'exited' as const), watchdog]).finally(() => clearTimeout(timer));
  }

  it('dev mode: says it stops the task, stops it, prints "stopped", then exits at once', async () => {
    const pid = await startWithTask(['-dev'], 'quits-on-term', false);
    const server = proc!;
    server.child.kill('SIGINT');
    const lines = await untilStopped(server);
    expect(await exitOrWatchdog(server)).toBe('exited');
    expect(lines).toEqual([
      '==> Caught SIGINT, shutting down',
      '==> Stopping 1 task (up to 20s); a second SIGINT or SIGTERM leaves it running',
      '==> svc server stopped',
    ]);
    expect((await server.exited).code).toBe(0);
    expect(alive(pid), 'no task process is left behind').toBe(false);
  });

  it('dev mode: a second SIGINT while the task sits out its kill_timeout leaves it running and exits at once', async () => {
    const pid = await startWithTask(['-dev'], 'ignores-term', true);
    const server = proc!;
    server.child.kill('SIGINT');
    await until(async () => server.stdout(), (out) => out.includes('==> Stopping 1 task'), 'the stopping line');
    server.child.kill('SIGINT');
    const lines = await untilStopped(server);
    expect(await exitOrWatchdog(server)).toBe('exited');
    expect(lines.slice(0, 2)).toEqual(['==> Caught SIGINT, shutting down', '==> Stopping 1 task (up to 20s); a second SIGINT or SIGTERM leaves it running']);
    const left = /^==> Caught SIGINT: leaving 1 task running; `svc server -dev -data-dir (\S+)` reattaches it$/.exec(lines[2]);
    expect(left, lines[2]).not.toBeNull();
    dataDirs.push(left![1]);
    expect(lines[3]).toBe('==> svc server stopped');
    expect(alive(pid), 'the task is left running').toBe(true);
  });

  it('dev mode: a second SIGINT during the shutdown_delay leaves the task running and exits at once', async () => {
    const pid = await startWithTask(['-dev'], 'delays-stop', false, 20_000_000_000);
    const server = proc!;
    server.child.kill('SIGINT');
    await until(async () => server.stdout(), (out) => out.includes('==> Stopping 1 task'), 'the stopping line');
    server.child.kill('SIGINT');
    const lines = await untilStopped(server);
    expect(await exitOrWatchdog(server)).toBe('exited');
    // The bound counts the shutdown delay before the kill timeout.
    expect(lines[1]).toBe('==> Stopping 1 task (up to 40s); a second SIGINT or SIGTERM leaves it running');
    const left = /^==> Caught SIGINT: leaving 1 task running; `svc server -dev -data-dir (\S+)` reattaches it$/.exec(lines[2]);
    expect(left, lines[2]).not.toBeNull();
    dataDirs.push(left![1]);
    expect(lines[3]).toBe('==> svc server stopped');
    expect(alive(pid), 'the task is left running').toBe(true);
  });

  it('a kept data dir: leaves the task to be reattached, prints "stopped", then exits at once', async () => {
    const pid = await startWithTask([`-data-dir=${path.join(dir, 'data')}`], 'outlives', true);
    const server = proc!;
    server.child.kill('SIGTERM');
    const lines = await untilStopped(server);
    expect(await exitOrWatchdog(server)).toBe('exited');
    expect(lines).toEqual(['==> Caught SIGTERM, shutting down', '==> svc server stopped']);
    expect(alive(pid), 'the task outlives the server').toBe(true);
  });
});
