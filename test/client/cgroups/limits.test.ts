/**
 * Tasks held to their resources by this machine's real cgroups (v1 controllers here), through a real
 * server and the exec and raw_exec drivers: the OOM kill and its event, reserved cores, the pids limit,
 * CPU shared in proportion to `cpu`, the tree kill on stop, and the cgroup gone with the task.
 */
import { existsSync, readFileSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCgroups } from '../../../src/client/cgroups/detect.js';
import { NodeCgroups, configureNodeCgroups, taskCgroupId } from '../../../src/client/cgroups/node-cgroups.js';
import { ExecDriver } from '../../../src/client/drivers/exec.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';

const SEC = 1e9;
const PARENT = `svc-test-${process.pid}`;
const PIDS_LIMIT = 64;
const detection = detectCgroups();
const execHealthy = (await new ExecDriver().fingerprint()).healthy;

interface TaskEvent {
  Type: string;
  ExitCode: number;
  Signal: number;
  DisplayMessage: string;
  Details: Record<string, string>;
}
interface Alloc {
  ID: string;
  ClientStatus: string;
  TaskStates: Record<string, { State: string; Failed: boolean; Events: TaskEvent[] }> | null;
}

/** The task's directory in a v1 controller's hierarchy, where the node puts it. */
function cgroupDir(controller: string, allocId: string, task: string): string {
  return path.join(detection.v1.get(controller)!.self, PARENT, taskCgroupId(allocId, task));
}

function pidsIn(allocId: string, task: string): number[] {
  return readFileSync(path.join(cgroupDir('pids', allocId, task), 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
}

/**
 * The process exists and has not exited. A killed daemon that double-forked was reparented to the
 * container's init, which may leave it a zombie: dead, and out of its cgroup, but still listed.
 */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function cpusAllowed(pid: number): string {
  return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
}

let ts: TestServer;

async function api<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await ts.client().request(method, p, body === undefined ? {} : { body });
  const text = res.body.toString();
  if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function job(id: string, tasks: Record<string, unknown>[], restartAttempts = 0) {
  return {
    ID: id,
    Type: 'batch',
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'g',
        RestartPolicy: { Attempts: restartAttempts, Interval: 1800 * SEC, Delay: 0.1 * SEC, Mode: 'fail' },
        ReschedulePolicy: { Attempts: 0, Unlimited: false },
        Tasks: tasks.map((t) => ({ KillTimeout: 2 * SEC, ...t })),
      },
    ],
  };
}

async function run(spec: ReturnType<typeof job>): Promise<string> {
  await api('POST', '/v1/jobs', { Job: spec });
  const [a] = await until(() => api<Alloc[]>('GET', `/v1/job/${spec.ID}/allocations`), (l) => l.length > 0, `an allocation of ${spec.ID}`);
  return a.ID;
}

const alloc = (id: string) => api<Alloc>('GET', `/v1/allocation/${id}`);
const running = (a: Alloc, tasks: string[]) => tasks.every((t) => a.TaskStates?.[t]?.State === 'running');
const dead = (a: Alloc) => Object.values(a.TaskStates ?? {}).length > 0 && Object.values(a.TaskStates ?? {}).every((s) => s.State === 'dead');

beforeAll(async () => {
  ts = await startTestServer({ client: { cgroups: { parent: PARENT, pidsLimit: PIDS_LIMIT } } });
});

afterAll(async () => {
  await ts?.close();
  // The node's cgroup settings are the process's: later test files get the defaults again.
  configureNodeCgroups({});
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

describe.runIf(detection.version === 1 && execHealthy)('tasks held to their resources (cgroup v1, this machine)', () => {
  it('the node reports its cgroups as Nomad names them', async () => {
    const nodes = await api<{ ID: string }[]>('GET', '/v1/nodes');
    const node = await api<{ Attributes: Record<string, string>; Drivers: Record<string, { Healthy: boolean }> }>('GET', `/v1/node/${nodes[0].ID}`);
    expect(node.Attributes['unique.cgroup.version']).toBe('v1');
    expect(node.Attributes['os.cgroups.version']).toBe('1');
    expect(node.Attributes['unique.cgroup.mountpoint']).toBe('/sys/fs/cgroup');
    expect(node.Attributes['os.cgroups.controllers']).toBe('cpu,cpuacct,cpuset,freezer,memory,pids');
    expect(node.Drivers.exec.Healthy).toBe(true);
  });

  it('a task over its 32 MB memory limit is OOM-killed: exit code 137, the event with the limit, the restart policy applied, its cgroup removed', async () => {
    const id = await run(
      job('oom', [{ Name: 't', Driver: 'exec', Resources: { CPU: 100, MemoryMB: 32 }, Config: { command: '/bin/sh', args: ['-c', 'exec tail /dev/zero'] } }], 1),
    );
    const a = await until(() => alloc(id), dead, 'the OOM-killed task to be dead', 60_000);
    const st = a.TaskStates!.t;
    expect(st.Failed).toBe(true);
    expect(st.Events.map((e) => e.Type)).toEqual(['Received', 'Task Setup', 'Started', 'Terminated', 'Restarting', 'Started', 'Terminated', 'Not Restarting']);
    const terminated = st.Events.filter((e) => e.Type === 'Terminated');
    for (const e of terminated) {
      expect([e.ExitCode, e.Signal, e.Details.oom_killed]).toEqual([137, 9, 'true']);
      expect(e.DisplayMessage).toBe('Exit Code: 137, Signal: 9, Exit Message: "OOM Killed (memory limit 32 MiB)"');
    }
    for (const c of detection.v1.keys()) expect(existsSync(cgroupDir(c, id, 't'))).toBe(false);
  });

  it('a busy task with cores = 1 runs on its core only, and that core is out of the pool a busy sibling shares', async () => {
    const busy = { command: '/bin/sh', args: ['-c', 'while :; do :; done'] };
    const id = await run(
      job('cores', [
        { Name: 'pinned', Driver: 'exec', Resources: { Cores: 1, MemoryMB: 64 }, Config: busy },
        { Name: 'shared', Driver: 'exec', Resources: { CPU: 100, MemoryMB: 64 }, Config: busy },
      ]),
    );
    await until(() => alloc(id), (a) => running(a, ['pinned', 'shared']), 'both tasks to run');
    const core = readFileSync(path.join(cgroupDir('cpuset', id, 'pinned'), 'cpuset.cpus'), 'utf8').trim();
    expect(core).toMatch(/^\d+$/);
    const pinned = pidsIn(id, 'pinned');
    expect(pinned.length).toBeGreaterThan(0);
    for (const pid of pinned) expect(cpusAllowed(pid)).toBe(core);
    for (const pid of pidsIn(id, 'shared')) expect(cpusAllowed(pid).split(',')).not.toContain(core);
    // The kernel's own record of where the pinned loop ran: every sample on its core.
    const ranOn = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const stat = readFileSync(`/proc/${pinned[0]}/stat`, 'utf8');
      ranOn.add(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[36]);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect([...ranOn]).toEqual([core]);
    await api('DELETE', '/v1/job/cores');
    await until(() => alloc(id), dead, 'the stopped tasks to be dead');
    expect(existsSync(cgroupDir('cpuset', id, 'pinned'))).toBe(false);
  });

  it('two busy tasks on one CPU share it in proportion to their cpu, as the kernel\'s cpuacct counters measure it', async () => {
    const busy = { command: '/bin/sh', args: ['-c', 'while :; do :; done'] };
    // A task holding the other cores leaves the two busy ones a pool of one CPU to contend for.
    const [{ ID: nodeId }] = await api<{ ID: string }[]>('GET', '/v1/nodes');
    const cpus = Number((await api<{ Attributes: Record<string, string> }>('GET', `/v1/node/${nodeId}`)).Attributes['cpu.numcores']);
    expect(cpus).toBeGreaterThan(1);
    const id = await run(
      job('shares', [
        { Name: 'holder', Driver: 'exec', Resources: { Cores: cpus - 1, MemoryMB: 32 }, Config: { command: '/bin/sleep', args: ['1000'] } },
        { Name: 'light', Driver: 'exec', Resources: { CPU: 200, MemoryMB: 32 }, Config: busy },
        { Name: 'heavy', Driver: 'exec', Resources: { CPU: 800, MemoryMB: 32 }, Config: busy },
      ]),
    );
    await until(() => alloc(id), (a) => running(a, ['holder', 'light', 'heavy']), 'the three tasks to run');
    const usage = (task: string) => Number(readFileSync(path.join(cgroupDir('cpuacct', id, task), 'cpuacct.usage'), 'utf8'));
    expect(readFileSync(path.join(cgroupDir('cpu', id, 'heavy'), 'cpu.shares'), 'utf8').trim()).toBe('800');
    const start = { light: usage('light'), heavy: usage('heavy') };
    // Sampled over a stretch of the kernel's own accounting: until the light task has had 200 ms of CPU.
    await until(async () => usage('light') - start.light, (ns) => ns > 0.2e9, 'the light task to accumulate CPU time', 60_000);
    const ratio = (usage('heavy') - start.heavy) / (usage('light') - start.light);
    // Shares of 800 and 200 give 4:1; the tolerance is wide, for a machine the tests share.
    expect(ratio).toBeGreaterThan(2);
    expect(ratio).toBeLessThan(8);
    await api('DELETE', '/v1/job/shares');
    await until(() => alloc(id), dead, 'the stopped tasks to be dead');
  });

  it('a raw_exec task runs in its cgroup with its memory and cpu, Nomad\'s oom_score_adj, and no pids limit', async () => {
    const script = 'cat /proc/self/oom_score_adj > "$NOMAD_TASK_DIR/adj"; exec sleep 1000';
    const id = await run(job('raw', [{ Name: 't', Driver: 'raw_exec', Resources: { CPU: 300, MemoryMB: 48 }, Config: { command: '/bin/sh', args: ['-c', script], oom_score_adj: 500 } }]));
    await until(() => alloc(id), (a) => running(a, ['t']), 'the task to run');
    const adj = await until(async () => readFileSync(path.join(ts.dataDir, 'client', 'allocs', id, 't', 'local', 'adj'), 'utf8').trim(), (t) => t !== '', 'the task to record its oom_score_adj');
    expect(adj).toBe('500');
    const file = (c: string, name: string) => readFileSync(path.join(cgroupDir(c, id, 't'), name), 'utf8').trim();
    expect([file('memory', 'memory.limit_in_bytes'), file('cpu', 'cpu.shares'), file('pids', 'pids.max')]).toEqual([String(48 * 2 ** 20), '300', 'max']);
    await api('DELETE', '/v1/job/raw');
    await until(() => alloc(id), dead, 'the stopped task to be dead');
    const refused = await run(job('raw-negative', [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true', oom_score_adj: -10 } }]));
    const r = await until(() => alloc(refused), dead, 'the refused task to be dead');
    expect(r.TaskStates!.t.Events.find((e) => e.Type === 'Driver Failure')?.DisplayMessage).toBe('oom_score_adj must not be negative');
  });

  it('a fork bomb is held at the pids limit, the node keeps running other work, and stop ends every process of it', async () => {
    const id = await run(job('bomb', [{ Name: 't', Driver: 'exec', Config: { command: '/bin/sh', args: ['-c', 'f() { f & f & }; f; exec sleep 1000'] } }]));
    await until(() => alloc(id), (a) => running(a, ['t']), 'the bomb to run');
    const events = path.join(cgroupDir('pids', id, 't'), 'pids.events');
    // The kernel refused forks beyond the limit, and counted them.
    await until(async () => Number(/max (\d+)/.exec(readFileSync(events, 'utf8'))![1]), (n) => n > 0, 'a fork refused at the limit');
    expect(Number(readFileSync(path.join(cgroupDir('pids', id, 't'), 'pids.max'), 'utf8'))).toBe(PIDS_LIMIT);
    expect(pidsIn(id, 't').length).toBeLessThanOrEqual(PIDS_LIMIT);
    const other = await run(job('beside-bomb', [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'echo ok'] } }]));
    const done = await until(() => alloc(other), dead, 'a task beside the bomb to finish');
    expect([done.ClientStatus, done.TaskStates!.t.Failed]).toEqual(['complete', false]);
    await api('DELETE', '/v1/job/bomb');
    await until(() => alloc(id), dead, 'the bomb to be stopped');
    expect(existsSync(cgroupDir('pids', id, 't'))).toBe(false);
  });

  it('stop kills a tree that double-forked out of its process group, after kill_timeout and when the task itself exits at the signal', async () => {
    // The grandchild leaves its session and ignores the kill signal; it records its pid to be checked.
    const daemon = (file: string) => `(setsid sh -c 'trap "" INT TERM HUP; echo $$ > ${file}; exec sleep 1000' &)`;
    const id = await run(
      job('double-fork', [
        { Name: 'stubborn', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', `${daemon('$NOMAD_TASK_DIR/gc')}; trap "" INT; while :; do sleep 1; done`] } },
        { Name: 'polite', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', `${daemon('$NOMAD_TASK_DIR/gc')}; exec sleep 1000`] } },
      ]),
    );
    await until(() => alloc(id), (a) => running(a, ['stubborn', 'polite']), 'both tasks to run');
    const grandchild = (task: string) =>
      until(
        async () => Number(readFileSync(path.join(ts.dataDir, 'client', 'allocs', id, task, 'local', 'gc'), 'utf8')),
        (n) => n > 0,
        `the grandchild of ${task}`,
      );
    const pids = [await grandchild('stubborn'), await grandchild('polite')];
    for (const pid of pids) expect(alive(pid)).toBe(true);
    await api('DELETE', '/v1/job/double-fork');
    const a = await until(() => alloc(id), dead, 'the stopped tasks to be dead');
    expect(a.TaskStates!.stubborn.Events.map((e) => e.Type)).toContain('Killed');
    for (const pid of pids) expect(alive(pid)).toBe(false);
    for (const task of ['stubborn', 'polite']) expect(existsSync(cgroupDir('freezer', id, task))).toBe(false);
  });
});
