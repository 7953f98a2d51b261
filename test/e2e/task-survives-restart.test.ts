/**
 * Tasks outlive the server: after a clean stop (SIGTERM) or a crash (SIGKILL) and a restart on the same
 * data dir, a running raw_exec task is found again — the same process, still `running`, its state and
 * events kept — and stopping the job afterwards really stops it.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { alive, until } from '../support/wait.js';

const startSvc = (dataDir: string, home: string) => spawnServer([`-data-dir=${dataDir}`, '-port=0', '-log-level=warn'], { HOME: home });

interface Stub {
  ID: string;
  ClientStatus: string;
  DesiredStatus: string;
  TaskStates: Record<string, { State: string; Restarts: number; Events: Array<{ Type: string }> }> | null;
}

describe('running tasks survive a server restart', () => {
  let dir: string;
  let home: string;
  let proc: SpawnedServer | undefined;
  let pid = 0;

  beforeAll(async () => {
    dir = await makeTempDir('svc-task-restart-');
    home = await makeTempDir('svc-task-restart-home-');
  });
  afterAll(async () => {
    proc?.child.kill('SIGKILL');
    await proc?.exited;
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('finds the same process again after SIGTERM and after SIGKILL, then stops it with the job', async () => {
    const dataDir = path.join(dir, 'data');
    const pidFile = path.join(dir, 'task.pid');
    proc = await startSvc(dataDir, home);
    const root = proc.rootToken!;
    let api = new ApiClient({ address: proc.url, token: root });
    const job = {
      ID: 'sleeper',
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'g',
          Tasks: [{ Name: 'sleep', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', `echo $$ > ${pidFile}; exec sleep 300`] }, KillTimeout: 1_000_000_000 }],
        },
      ],
    };
    await api.scheduler('POST', '/v1/jobs', { body: { Job: job } });
    const running = await until(() => api.scheduler<Stub[]>('GET', '/v1/job/sleeper/allocations').then((r) => r.body), (l) => l[0]?.ClientStatus === 'running', 'the task to run');
    const allocId = running[0].ID;
    pid = Number((await until(() => readFile(pidFile, 'utf8'), (t) => t.trim() !== '', 'the pid file')).trim());
    expect(alive(pid)).toBe(true);

    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      proc.child.kill(signal);
      await proc.exited;
      proc = undefined;
      expect(alive(pid), `task alive after the server got ${signal}`).toBe(true);
      proc = await startSvc(dataDir, home);
      api = new ApiClient({ address: proc.url, token: root });
      // Give the node time to check in and report; the task must still be the same one, not restarted.
      const after = await until(
        () => api.scheduler<Stub>('GET', `/v1/allocation/${allocId}`).then((r) => r.body),
        (a) => a.ClientStatus === 'running',
        `the allocation to be running after ${signal}`,
      );
      await new Promise((r) => setTimeout(r, 1500));
      const settled = (await api.scheduler<Stub>('GET', `/v1/allocation/${allocId}`)).body;
      expect(settled.ClientStatus).toBe('running');
      expect(settled.TaskStates?.sleep.Restarts).toBe(0);
      expect(Number((await readFile(pidFile, 'utf8')).trim()), 'no second process was started').toBe(pid);
      expect(after.TaskStates?.sleep.Events.some((e) => e.Type === 'Started')).toBe(true);
      expect(alive(pid)).toBe(true);
    }

    await api.scheduler('DELETE', '/v1/job/sleeper');
    await until(() => Promise.resolve(alive(pid)), (a) => !a, 'the task process to exit');
    const stopped = await until(() => api.scheduler<Stub>('GET', `/v1/allocation/${allocId}`).then((r) => r.body), (a) => a.ClientStatus === 'complete', 'the allocation to complete');
    expect(stopped.DesiredStatus).toBe('stop');
    expect(stopped.TaskStates?.sleep.Events.map((e) => e.Type)).toEqual(expect.arrayContaining(['Killing', 'Killed']));

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    proc = undefined;
  });
});
