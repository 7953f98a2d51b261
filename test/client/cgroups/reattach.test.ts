/**
 * A node that restarts while its tasks run finds their cgroups again (this machine's cgroup v1): the
 * limits still hold, an OOM kill after the restart is reported with its limit, and the cgroup goes
 * with the task.
 */
import { existsSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectCgroups } from '../../../src/client/cgroups/detect.js';
import { NodeCgroups, configureNodeCgroups, taskCgroupId } from '../../../src/client/cgroups/node-cgroups.js';
import { ExecDriver } from '../../../src/client/drivers/exec.js';
import { type TestServer, makeTempDir, startTestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';

const SEC = 1e9;
const PARENT = `svc-test-reattach-${process.pid}`;
const detection = detectCgroups();
const execHealthy = (await new ExecDriver().fingerprint()).healthy;

interface Alloc {
  ID: string;
  TaskStates: Record<string, { State: string; Events: { Type: string; ExitCode: number; DisplayMessage: string; Details: Record<string, string> }[] }> | null;
}

/** Exists and has not exited (a killed daemon reparented to the container's init may stay a zombie). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const servers: TestServer[] = [];
let dataDir = '';
/** the root token of the first start: a restarted server makes none */
let token = '';

afterAll(async () => {
  for (const s of servers) await s.close();
  // The node's cgroup settings are the process's: later test files get the defaults again.
  configureNodeCgroups({});
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  // A test that failed half-way may have left a task running in its cgroup: it goes with the cgroup.
  const mine = new NodeCgroups({ parent: PARENT, pidsLimit: 0, memoryOversubscription: false });
  for (const id of mine.hierarchy?.list() ?? []) {
    const cg = mine.hierarchy!.open(id);
    if (cg) await mine.remove(cg);
  }
  for (const m of detection.v1.values()) {
    try {
      rmdirSync(path.join(m.self, PARENT));
    } catch {
      // a controller this test never used
    }
  }
});

async function api<T>(ts: TestServer, method: string, p: string, body?: unknown): Promise<T> {
  const res = await ts.client(token).request(method, p, body === undefined ? {} : { body });
  if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${res.body.toString()}`);
  return JSON.parse(res.body.toString()) as T;
}

const start = async () => {
  const ts = await startTestServer({ dataDir, client: { stopTasksOnShutdown: false, cgroups: { parent: PARENT } } });
  servers.push(ts);
  return ts;
};

describe.runIf(detection.version === 1 && execHealthy)('a restarted node adopts its tasks\' cgroups', () => {
  it('the limit still holds after the restart: the task is OOM-killed at it, reported with it, and its cgroup removed', async () => {
    dataDir = await makeTempDir();
    const first = await start();
    token = first.rootToken;
    const job = {
      ID: 'adopted',
      Type: 'batch',
      Datacenters: ['dc1'],
      TaskGroups: [
        {
          Name: 'g',
          RestartPolicy: { Attempts: 0, Interval: 1800 * SEC, Delay: 0.1 * SEC, Mode: 'fail' },
          ReschedulePolicy: { Attempts: 0, Unlimited: false },
          Tasks: [
            {
              Name: 't',
              Driver: 'exec',
              Resources: { CPU: 100, MemoryMB: 32 },
              Config: { command: '/bin/sh', args: ['-c', 'while [ ! -f /local/go ]; do sleep 0.05; done; exec tail /dev/zero'] },
            },
            {
              // Ends while no node runs, leaving a daemon behind: the executor ends both.
              Name: 'quits',
              Driver: 'raw_exec',
              Config: { command: '/bin/sh', args: ['-c', 'while [ ! -f "$NOMAD_TASK_DIR/end" ]; do sleep 0.05; done; (setsid sh -c \'echo $$ > "$NOMAD_TASK_DIR/daemon"; exec sleep 1000\' &); sleep 0.2'] },
            },
          ],
        },
      ],
    };
    await api(first, 'POST', '/v1/jobs', { Job: job });
    const [{ ID: id }] = await until(
      () => api<Alloc[]>(first, 'GET', '/v1/job/adopted/allocations'),
      (l) => l.length > 0 && l[0].TaskStates?.t?.State === 'running' && l[0].TaskStates?.quits?.State === 'running',
      'the tasks to run',
    );
    const memDir = path.join(detection.v1.get('memory')!.self, PARENT, taskCgroupId(id, 't'));
    const procs = () => readFileSync(path.join(memDir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    // The task's shell (its loop's sleeps come and go).
    const [shell] = procs();
    expect(shell).toBeDefined();
    await first.close();
    servers.length = 0;

    // The task kept running in its cgroup while no node watched it.
    expect(procs()).toContain(shell);
    const taskDir = (task: string) => path.join(dataDir, 'client', 'allocs', id, task, 'local');
    const quitsDir = path.join(detection.v1.get('freezer')!.self, PARENT, taskCgroupId(id, 'quits'));
    expect(existsSync(quitsDir)).toBe(true);
    writeFileSync(path.join(taskDir('quits'), 'end'), '');
    await until(async () => existsSync(quitsDir), (present) => !present, 'the executor to remove the cgroup of the task that ended');
    const daemon = Number(readFileSync(path.join(taskDir('quits'), 'daemon'), 'utf8'));
    expect(alive(daemon)).toBe(false);

    const second = await start();
    await until(() => api<Alloc>(second, 'GET', `/v1/allocation/${id}`), (a) => a.TaskStates?.t?.State === 'running', 'the task to be followed again');
    expect(readFileSync(path.join(memDir, 'memory.limit_in_bytes'), 'utf8').trim()).toBe(String(32 * 2 ** 20));

    const { quits } = (await until(() => api<Alloc>(second, 'GET', `/v1/allocation/${id}`), (a) => a.TaskStates?.quits?.State === 'dead', 'the ended task to be found dead'))
      .TaskStates!;
    expect(quits.Events.find((e) => e.Type === 'Terminated')?.ExitCode).toBe(0);
    writeFileSync(path.join(taskDir('t'), 'go'), '');
    const a = await until(() => api<Alloc>(second, 'GET', `/v1/allocation/${id}`), (x) => x.TaskStates?.t?.State === 'dead', 'the task to be OOM-killed', 60_000);
    const terminated = a.TaskStates!.t.Events.find((e) => e.Type === 'Terminated')!;
    expect([terminated.ExitCode, terminated.Details.oom_killed, terminated.DisplayMessage]).toEqual([137, 'true', 'Exit Code: 137, Signal: 9, Exit Message: "OOM Killed (memory limit 32 MiB)"']);
    expect(existsSync(memDir)).toBe(false);
  });
});
