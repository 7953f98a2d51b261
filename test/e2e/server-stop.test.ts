/**
 * The server stops when it says it has: SIGINT with a task whose kill_timeout is long, and the "stopped"
 * line is followed by the process's exit before a 5 s watchdog fires (two events in order, no clock
 * measured). In dev mode the task is stopped first, and the server says it waits for it; a second SIGINT
 * leaves it running; a server on a kept data dir leaves it to be reattached.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { alive, until } from '../support/wait.js';

const WATCHDOG_MS = 5000;

/** The task cgroups (beneath svc's parent) a process is in, one directory per hierarchy, as /proc lists them. */
function taskCgroupsOf(pid: number): string[] {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const [, controllers, rel] = line.split(':');
    if (!rel?.includes('/svc/')) return [];
    // cgroup2 lists no controllers: its one hierarchy is the mount itself.
    return controllers ? controllers.split(',').map((c) => `/sys/fs/cgroup/${c}${rel}`) : [`/sys/fs/cgroup${rel}`];
  });
}

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
    // A task left running has its cgroup still: no node is left to remove it once the task is killed here.
    for (const pid of pids.splice(0)) {
      if (!alive(pid)) continue;
      const cgroups = taskCgroupsOf(pid);
      process.kill(pid, 'SIGKILL');
      await until(async () => alive(pid), (running) => !running, `task ${pid} to end`);
      // Busy until the kernel has let go of the killed process; gone is fine.
      const removed = (dir: string) => rmdir(dir).then(() => true, (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? true : Promise.reject(err)));
      for (const dir of cgroups) await until(() => removed(dir), Boolean, `removing ${dir}`);
    }
  });
  afterAll(async () => {
    for (const d of [dir, home, ...dataDirs]) await rm(d, { recursive: true, force: true });
  });

  /**
   * Starts the server and a task with a 20 s kill_timeout; `ignoreTerm` makes it sit out the kill signal,
   * `shutdownDelayNs` gives it a shutdown_delay.
   */
  async function startWithTask(args: string[], name: string, ignoreTerm: boolean, shutdownDelayNs = 0, killTimeoutNs = 20_000_000_000): Promise<number> {
    proc = await spawnServer([...args, '-port=0', '-log-level=warn'], { HOME: home });
    const api = new ApiClient({ address: proc.url, token: proc.rootToken! });
    const pidFile = path.join(dir, `${name}.pid`);
    const script = ignoreTerm ? `trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 1; done` : `echo $$ > ${pidFile}; exec sleep 600`;
    const job = {
      ID: name,
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: killTimeoutNs, ShutdownDelay: shutdownDelayNs }] }],
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
    const left = /^==> Caught SIGINT: leaving 1 task running; `svc server -dev -data-dir (\S+)` finds it again and finishes stopping it$/.exec(lines[2]);
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
    const left = /^==> Caught SIGINT: leaving 1 task running; `svc server -dev -data-dir (\S+)` finds it again and finishes stopping it$/.exec(lines[2]);
    expect(left, lines[2]).not.toBeNull();
    dataDirs.push(left![1]);
    expect(lines[3]).toBe('==> svc server stopped');
    expect(alive(pid), 'the task is left running').toBe(true);
  });

  it('a server started on the data dir a second SIGINT kept finds the task again and finishes stopping it', async () => {
    const pid = await startWithTask(['-dev'], 'left-then-stopped', true, 0, 3_000_000_000);
    const first = proc!;
    first.child.kill('SIGINT');
    await until(async () => first.stdout(), (out) => out.includes('==> Stopping 1 task'), 'the stopping line');
    first.child.kill('SIGINT');
    const lines = await untilStopped(first);
    await first.exited;
    const dataDir = /-data-dir (\S+)`/.exec(lines[2])![1];
    dataDirs.push(dataDir);
    expect(alive(pid), 'the task is left running').toBe(true);
    proc = await spawnServer(['-dev', `-data-dir=${dataDir}`, '-port=0', '-log-level=warn'], { HOME: home });
    // It sits out the kill signal: the kill timeout passes, then SIGKILL.
    await until(async () => alive(pid), (running) => !running, 'the restarted server to finish stopping the task');
    const api = new ApiClient({ address: proc.url, token: proc.rootToken! });
    const events = await until(
      () => api.scheduler<Array<{ TaskStates: Record<string, { Events: Array<{ Type: string }> }> }>>('GET', '/v1/job/left-then-stopped/allocations').then((r) => r.body[0].TaskStates.t.Events.map((e) => e.Type)),
      (types) => types.includes('Killed'),
      'the Killed event',
    );
    expect(events.slice(-3)).toEqual(['Killing', 'Terminated', 'Killed']);
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
