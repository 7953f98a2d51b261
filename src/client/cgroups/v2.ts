/**
 * cgroup v2: one unified hierarchy. A task's cgroup is one directory beneath the node's own cgroup,
 * under the parent named for svc. Controllers reach a child only when every cgroup above it enables
 * them in cgroup.subtree_control, which the kernel refuses for a cgroup that holds processes (the
 * "no internal processes" rule): the node's own cgroup must then be a delegated one, as systemd's
 * `Delegate=yes` gives, whose processes sit in a leaf of their own.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type CgroupHierarchy, type CgroupLimits, type CgroupUsage, type TaskCgroup, parseKeyed } from './cgroup.js';
import { ensureDir, killPids, readNumber, readOptional, readPids, readText, removeDir, settle, tryWrite, writeText } from './files.js';

/** The v2 controllers a task's limits use; accounting works with whichever of them the node gets. */
const WANTED = ['cpu', 'cpuset', 'memory', 'pids'];

/** v1's shares (2..262144) onto v2's weight (1..10000), as the OCI runtimes map them. */
export function sharesToWeight(shares: number): number {
  const s = Math.min(262144, Math.max(2, Math.round(shares)));
  return Math.floor(1 + ((s - 2) * 9999) / 262142);
}

class V2Cgroup implements TaskCgroup {
  readonly version = 2;
  readonly procsFiles: string[];

  constructor(
    readonly id: string,
    private readonly dir: string,
  ) {
    this.procsFiles = [path.join(dir, 'cgroup.procs')];
    this.oomCounter = path.join(dir, 'memory.events');
  }

  readonly oomCounter: string;

  private f(name: string): string {
    return path.join(this.dir, name);
  }

  addProcess(pid: number): void {
    writeText(this.procsFiles[0], pid);
  }

  setLimits(l: CgroupLimits): void {
    // Each file exists only when its controller is enabled for the cgroup: a missing one is a controller
    // the node does not have, which the fingerprint reports.
    const set = (name: string, value: string | number | undefined) => {
      if (value !== undefined && existsSync(this.f(name))) writeText(this.f(name), value);
    };
    set('memory.max', l.memoryBytes);
    // Swap must not extend the limit, as v1's memsw limit and swappiness 0 keep it there.
    if (l.memoryBytes !== undefined) tryWrite(this.f('memory.swap.max'), 0);
    set('memory.low', l.memorySoftBytes);
    set('cpu.weight', l.cpuShares === undefined ? undefined : sharesToWeight(l.cpuShares));
    set('cpuset.cpus', l.cpusetCpus);
    set('pids.max', l.pidsMax);
  }

  pids(): number[] {
    return readPids(this.procsFiles[0]);
  }

  async killAll(): Promise<void> {
    if (existsSync(this.f('cgroup.kill'))) {
      // The kernel kills every process of the cgroup, forks in flight included (Linux 5.14).
      writeText(this.f('cgroup.kill'), 1);
    } else {
      writeText(this.f('cgroup.freeze'), 1);
      await settle(() => parseKeyed(readOptional(this.f('cgroup.events')) ?? '').get('frozen') === 1);
      killPids(this.pids());
      writeText(this.f('cgroup.freeze'), 0);
    }
    await settle(() => {
      const left = this.pids();
      killPids(left);
      return left.length === 0;
    });
  }

  usage(): CgroupUsage {
    const mem = parseKeyed(readOptional(this.f('memory.stat')) ?? '');
    const cpu = parseKeyed(readOptional(this.f('cpu.stat')) ?? '');
    const us = (k: string) => (cpu.get(k) ?? 0) * 1000;
    return {
      memory: {
        rss: mem.get('anon') ?? 0,
        cache: mem.get('file') ?? 0,
        swap: readNumber(this.f('memory.swap.current')),
        usage: readNumber(this.f('memory.current')),
        // memory.peak arrived in Linux 5.19; older kernels report no maximum.
        maxUsage: readNumber(this.f('memory.peak')),
      },
      cpu: {
        userNs: us('user_usec'),
        systemNs: us('system_usec'),
        totalNs: us('usage_usec'),
        throttledPeriods: cpu.get('nr_throttled') ?? 0,
        throttledTimeNs: us('throttled_usec'),
      },
    };
  }

  oomKilled(): boolean {
    return (parseKeyed(readOptional(this.f('memory.events')) ?? '').get('oom_kill') ?? 0) > 0;
  }

  async remove(): Promise<void> {
    if (this.pids().length > 0) await this.killAll();
    await removeDir(this.dir);
  }
}

export class V2Hierarchy implements CgroupHierarchy {
  readonly version = 2;
  readonly controllers: string[];
  /** why a controller the limits need is not usable */
  problem?: string;
  private readonly parentDir: string;

  /**
   * `self`: the node's own cgroup directory; `parent`: the directory named for svc beneath it. Enables
   * the controllers the node's cgroup offers for the parent and its children; `problem` says why one
   * could not be.
   */
  constructor(
    private readonly self: string,
    parent: string,
  ) {
    this.parentDir = path.join(self, parent);
    this.controllers = this.enable();
  }

  private enable(): string[] {
    const offered = (readOptional(path.join(this.self, 'cgroup.controllers')) ?? '').trim().split(/\s+/).filter(Boolean);
    const wanted = WANTED.filter((c) => offered.includes(c));
    const missing = WANTED.filter((c) => !offered.includes(c));
    if (missing.length) this.problem = `cgroup2 controllers not available to the node's cgroup ${this.self}: ${missing.join(', ')}`;
    try {
      ensureDir(this.parentDir);
    } catch (err) {
      this.problem = `creating ${this.parentDir}: ${(err as Error).message}`;
      return [];
    }
    const usable: string[] = [];
    for (const c of wanted) {
      try {
        for (const dir of [this.self, this.parentDir]) {
          const control = path.join(dir, 'cgroup.subtree_control');
          if (!readText(control).split(/\s+/).includes(c)) writeText(control, `+${c}`);
        }
        usable.push(c);
      } catch (err) {
        this.problem = `enabling the ${c} controller below ${this.self}: ${(err as Error).message} (the node's cgroup holds processes; give svc a delegated cgroup)`;
      }
    }
    return usable;
  }

  create(id: string, limits: CgroupLimits): TaskCgroup {
    const dir = path.join(this.parentDir, id);
    ensureDir(dir);
    const cg = new V2Cgroup(id, dir);
    cg.setLimits(limits);
    return cg;
  }

  open(id: string): TaskCgroup | undefined {
    const dir = path.join(this.parentDir, id);
    return existsSync(dir) ? new V2Cgroup(id, dir) : undefined;
  }

  list(): string[] {
    try {
      return readdirSync(this.parentDir).filter((n) => statSync(path.join(this.parentDir, n)).isDirectory());
    } catch {
      return [];
    }
  }

  cpus(): string {
    return (readOptional(path.join(this.parentDir, 'cpuset.cpus.effective')) ?? readOptional(path.join(this.self, 'cpuset.cpus.effective')) ?? '').trim();
  }
}
