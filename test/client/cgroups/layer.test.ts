/**
 * The cgroup layer on its own: detection from the kernel's files, the cgroup2 code path (membership and
 * the tree kill on this machine's real cgroup2 hierarchy; limits, usage and the OOM counter against a
 * directory tree shaped like the kernel's cgroup2 files, since this machine's controllers are bound to
 * v1), and the exec driver refusing tasks where no cgroup can hold them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectCgroups, detectFrom, parseMountinfo, parseProcCgroup } from '../../../src/client/cgroups/detect.js';
import { NodeCgroups, taskCgroupId } from '../../../src/client/cgroups/node-cgroups.js';
import { V2Hierarchy, sharesToWeight } from '../../../src/client/cgroups/v2.js';
import { ExecDriver } from '../../../src/client/drivers/exec.js';
import { nodeDrivers } from '../../../src/client/drivers/registry.js';
import { allDead, events, lastEvent, makeAlloc, startRunner, tempDir } from '../helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
const procCgroup = readFileSync('/proc/self/cgroup', 'utf8');
const realCgroup2 = parseMountinfo(mountinfo).find((m) => m.fstype === 'cgroup2');
const execNamespaces = (await new ExecDriver({}, () => new NodeCgroups({ parent: 'svc', pidsLimit: 0, memoryOversubscription: false })).fingerprint()).detected;

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('detection', () => {
  it('finds each v1 controller at its mount, with the node in the cgroup /proc/self/cgroup names', () => {
    const d = detectFrom(mountinfo, procCgroup);
    const own = parseProcCgroup(procCgroup);
    expect(d).toEqual(detectCgroups());
    if (d.version !== 1) return expect(d.version).toBe(2);
    for (const [c, m] of d.v1) expect(m.self).toBe(path.join(m.mount, own.v1.get(c)!));
    expect(d.mountpoint).toBe(path.dirname(d.v1.get('memory')!.mount));
  });

  it('a cgroup2-only host (its mountinfo and /proc/self/cgroup as the kernel writes them) is v2, in the node\'s own cgroup', () => {
    const info = '25 1 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n';
    const d = detectFrom(info, '0::/system.slice/svc.service\n');
    expect(d).toMatchObject({ version: 2, mountpoint: '/sys/fs/cgroup', v2Self: '/sys/fs/cgroup/system.slice/svc.service' });
    expect(d.problem).toBeUndefined();
  });

  it('a container whose cgroup mount is rooted at its own cgroup finds itself at the mount', () => {
    const info = '40 31 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n';
    const d = detectFrom(info, '4:memory:/docker/abc/inner\n');
    expect(d.v1.get('memory')!.self).toBe('/sys/fs/cgroup/memory/inner');
    expect(d.problem).toBe('cgroup v1 controllers not mounted: cpu, cpuacct, cpuset, pids, freezer');
  });

  it('no hierarchy at all is said so', () => {
    expect(detectFrom('', '').problem).toBe('no cgroup hierarchy is mounted (neither cgroup v1 controllers nor cgroup2)');
  });
});

describe.runIf(realCgroup2 !== undefined)('cgroup2 on this machine\'s real hierarchy', () => {
  const self = path.join(realCgroup2!.mountpoint, parseProcCgroup(procCgroup).v2 ?? '/');
  const parent = `svc-test-v2-${process.pid}`;
  afterAll(() => rmdirSync(path.join(self, parent)));

  it('says which controllers the node cannot have, and still places, lists and kills a forking tree with cgroup.kill', async () => {
    const h = new V2Hierarchy(self, parent);
    const offered = readFileSync(path.join(self, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
    const missing = ['cpu', 'cpuset', 'memory', 'pids'].filter((c) => !offered.includes(c));
    if (missing.length) expect(h.problem).toContain(`cgroup2 controllers not available to the node's cgroup ${self}: ${missing.join(', ')}`);
    const cg = h.create('a.t', {});
    expect(h.list()).toEqual(['a.t']);
    // Joined before it forks, as the executor's launcher does: the double-forked daemon is born inside.
    const child = spawn('/bin/sh', ['-c', 'echo $$ > "$1"; shift; exec "$@"', 'sh', cg.procsFiles[0], '/bin/sh', '-c', '(setsid sleep 1000 &); exec sleep 1000'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', (_code, signal) => r(signal)));
    while (cg.pids().length < 2) await new Promise((r) => setTimeout(r, 5));
    const pids = cg.pids();
    expect(pids).toContain(child.pid);
    await cg.killAll();
    expect(await exited).toBe('SIGKILL');
    for (const pid of pids) expect(alive(pid)).toBe(false);
    await cg.remove();
    expect(existsSync(path.join(self, parent, 'a.t'))).toBe(false);
    expect(h.open('a.t')).toBeUndefined();
  });
});

describe('cgroup2 limits, usage and OOM against a cgroup2-shaped directory tree', () => {
  /** The files the kernel creates in a cgroup2 directory with cpu, cpuset, memory and pids enabled. */
  function kernelFiles(dir: string, files: Record<string, string> = {}): void {
    mkdirSync(dir, { recursive: true });
    const defaults = {
      'cgroup.procs': '',
      'cgroup.subtree_control': '',
      'cgroup.controllers': 'cpuset cpu io memory hugetlb pids rdma misc',
      'memory.max': 'max',
      'memory.low': '0',
      'memory.swap.max': 'max',
      'cpu.weight': '100',
      'cpuset.cpus': '',
      'cpuset.cpus.effective': '0-3',
      'pids.max': 'max',
    };
    for (const [name, text] of Object.entries({ ...defaults, ...files })) writeFileSync(path.join(dir, name), `${text}\n`);
  }

  const root = mkdtempSync(path.join(tmpdir(), 'cgroup2-shaped-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const info = `25 1 0:22 / ${root} rw,relatime - cgroup2 cgroup2 rw,nsdelegate\n`;
  kernelFiles(path.join(root, 'node'));
  kernelFiles(path.join(root, 'node', 'svc'));
  const detection = detectFrom(info, '0::/node\n');
  const node = new NodeCgroups({ parent: 'svc', pidsLimit: 256, memoryOversubscription: true }, detection);
  const taskDir = (id: string) => path.join(root, 'node', 'svc', id);
  const read = (id: string, name: string) => readFileSync(path.join(taskDir(id), name), 'utf8').trim();

  it('enables the controllers for the parent, and the node reports v2 as Nomad names it', () => {
    expect(node.problem).toBeUndefined();
    expect(node.hierarchy!.controllers).toEqual(['cpu', 'cpuset', 'memory', 'pids']);
    // Each controller is enabled by its own write, as the kernel takes them; the last one stays in the file.
    expect(readFileSync(path.join(root, 'node', 'svc', 'cgroup.subtree_control'), 'utf8')).toBe('+pids');
    expect(node.attributes()).toEqual({ 'os.cgroups.version': '2', 'unique.cgroup.mountpoint': root, 'unique.cgroup.version': 'v2', 'os.cgroups.controllers': 'cpu,cpuset,memory,pids' });
  });

  it('writes memory.max (memory_max under oversubscription), memory.low, cpu.weight, cpuset.cpus and pids.max; reserved cores leave the shared pool', () => {
    const pinned = taskCgroupId('alloc1', 'pinned');
    const shared = taskCgroupId('alloc1', 'shared');
    kernelFiles(taskDir(shared));
    node.create(shared, node.limitsFor({ cpuShares: 500, memoryMB: 64, memoryMaxMB: 0, cores: [], coreCount: 0 }), []);
    expect([read(shared, 'memory.max'), read(shared, 'memory.low'), read(shared, 'memory.swap.max')]).toEqual([String(64 * 2 ** 20), '0', '0']);
    expect([read(shared, 'cpu.weight'), read(shared, 'cpuset.cpus'), read(shared, 'pids.max')]).toEqual([String(sharesToWeight(500)), '0,1,2,3', '256']);
    kernelFiles(taskDir(pinned));
    node.create(pinned, node.limitsFor({ cpuShares: 1000, memoryMB: 32, memoryMaxMB: 128, cores: [2], coreCount: 1 }), [2]);
    expect([read(pinned, 'memory.max'), read(pinned, 'memory.low'), read(pinned, 'cpuset.cpus')]).toEqual([String(128 * 2 ** 20), String(32 * 2 ** 20), '2']);
    expect(read(shared, 'cpuset.cpus')).toBe('0,1,3');
    expect(node.pickCores(2)).toEqual([0, 1]);
    expect(node.pickCores(3)).toBeUndefined();
  });

  it('maps cpu shares onto cpu.weight as the OCI runtimes do', () => {
    expect([sharesToWeight(2), sharesToWeight(1024), sharesToWeight(262144), sharesToWeight(1)]).toEqual([1, 39, 10000, 1]);
  });

  it('reads usage from memory.stat, memory.current, memory.peak, memory.swap.current and cpu.stat, and the OOM kill from memory.events', () => {
    const id = taskCgroupId('alloc2', 't');
    kernelFiles(taskDir(id), {
      'memory.stat': 'anon 1048576\nfile 2097152\nkernel 65536\nsock 0\nshmem 0',
      'memory.current': '3211264',
      'memory.peak': '4194304',
      'memory.swap.current': '4096',
      'cpu.stat': 'usage_usec 1500\nuser_usec 1000\nsystem_usec 500\nnr_periods 10\nnr_throttled 3\nthrottled_usec 40',
      'memory.events': 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 0\noom_group_kill 0',
    });
    const cg = node.hierarchy!.open(id)!;
    expect(cg.usage()).toEqual({
      memory: { rss: 1048576, cache: 2097152, swap: 4096, usage: 3211264, maxUsage: 4194304 },
      cpu: { userNs: 1_000_000, systemNs: 500_000, totalNs: 1_500_000, throttledPeriods: 3, throttledTimeNs: 40_000 },
    });
    expect(cg.oomKilled()).toBe(false);
    writeFileSync(path.join(taskDir(id), 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n');
    expect(cg.oomKilled()).toBe(true);
  });
});

describe.runIf(execNamespaces)('the exec driver without cgroups', () => {
  const none = () => new NodeCgroups({ parent: 'svc', pidsLimit: 0, memoryOversubscription: false }, detectFrom('', ''));

  it('is unhealthy with the reason, so the scheduler places no exec task on the node', async () => {
    const fp = await new ExecDriver({}, none).fingerprint();
    expect([fp.detected, fp.healthy]).toEqual([true, false]);
    expect(fp.description).toBe('exec driver unhealthy: tasks cannot be held to their resources: no cgroup hierarchy is mounted (neither cgroup v1 controllers nor cgroup2)');
  });

  it('refuses a task sent to it anyway, with that reason, instead of running it unlimited', async () => {
    const drivers = new Map([...nodeDrivers(), ['exec', new ExecDriver({}, none)]]);
    const alloc = makeAlloc({ tasks: [{ Name: 't', Driver: 'exec', Config: { command: '/bin/true' } }] });
    const { runner } = await startRunner(alloc, tmp.dir, { drivers });
    await allDead(runner);
    expect(events(runner, 't')).toEqual(['Received', 'Task Setup', 'Driver Failure', 'Not Restarting']);
    expect(lastEvent(runner, 't', 'Driver Failure')?.DisplayMessage).toMatch(/^exec driver unhealthy: tasks cannot be held to their resources: /);
  });
});
