/**
 * cgroup v1: each controller is its own hierarchy, so a task's cgroup is one directory per controller
 * mount (cpu and cpuacct share one where they are mounted together), each beneath the node's own
 * cgroup in that hierarchy. The freezer stops the tree while it is killed, so nothing forks past it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type CgroupHierarchy, type CgroupLimits, type CgroupUsage, type TaskCgroup, parseKeyed } from './cgroup.js';
import type { V1Mount } from './detect.js';
import { ensureDir, killPids, readNumber, readOptional, readPids, readText, removeDir, settle, tryWrite, writeText } from './files.js';

class V1Cgroup implements TaskCgroup {
  readonly version = 1;
  readonly procsFiles: string[];

  constructor(
    readonly id: string,
    /** controller -> this cgroup's directory */
    private readonly dirs: Map<string, string>,
  ) {
    this.procsFiles = [...new Set(dirs.values())].map((d) => path.join(d, 'cgroup.procs'));
    this.oomCounter = path.join(dirs.get('memory') ?? '', 'memory.oom_control');
  }

  readonly oomCounter: string;

  private dir(controller: string): string | undefined {
    return this.dirs.get(controller);
  }

  private file(controller: string, name: string): string | undefined {
    const d = this.dir(controller);
    return d && path.join(d, name);
  }

  addProcess(pid: number): void {
    for (const f of this.procsFiles) writeText(f, pid);
  }

  setLimits(l: CgroupLimits): void {
    const mem = this.dir('memory');
    if (mem && l.memoryBytes !== undefined) {
      writeText(path.join(mem, 'memory.limit_in_bytes'), l.memoryBytes);
      // Without swap accounting the file is absent; with it, swap must not extend the limit.
      tryWrite(path.join(mem, 'memory.memsw.limit_in_bytes'), l.memoryBytes);
      tryWrite(path.join(mem, 'memory.swappiness'), 0);
    }
    if (mem && l.memorySoftBytes !== undefined) writeText(path.join(mem, 'memory.soft_limit_in_bytes'), l.memorySoftBytes);
    const cpu = this.file('cpu', 'cpu.shares');
    if (cpu && l.cpuShares !== undefined) writeText(cpu, Math.max(2, Math.round(l.cpuShares)));
    const cpuset = this.file('cpuset', 'cpuset.cpus');
    if (cpuset && l.cpusetCpus !== undefined) writeText(cpuset, l.cpusetCpus);
    const pids = this.file('pids', 'pids.max');
    if (pids && l.pidsMax !== undefined) writeText(pids, l.pidsMax);
  }

  pids(): number[] {
    return [...new Set(this.procsFiles.flatMap(readPids))];
  }

  async killAll(): Promise<void> {
    const freezer = this.dir('freezer');
    if (freezer && existsSync(freezer)) {
      const state = path.join(freezer, 'freezer.state');
      writeText(state, 'FROZEN');
      await settle(() => readText(state).trim() === 'FROZEN');
      killPids(this.pids());
      writeText(state, 'THAWED');
    }
    // Without a freezer a fork may slip between reading the list and the kill, so kill until empty.
    await settle(() => {
      const left = this.pids();
      killPids(left);
      return left.length === 0;
    });
  }

  usage(): CgroupUsage {
    const memStat = parseKeyed(readOptional(this.file('memory', 'memory.stat') ?? '') ?? '');
    const cpuStat = parseKeyed(readOptional(this.file('cpu', 'cpu.stat') ?? '') ?? '');
    const acct = (name: string) => readNumber(this.file('cpuacct', name) ?? '');
    return {
      memory: {
        rss: memStat.get('rss') ?? 0,
        cache: memStat.get('cache') ?? 0,
        swap: memStat.get('swap') ?? 0,
        usage: readNumber(this.file('memory', 'memory.usage_in_bytes') ?? ''),
        maxUsage: readNumber(this.file('memory', 'memory.max_usage_in_bytes') ?? ''),
      },
      cpu: {
        userNs: acct('cpuacct.usage_user'),
        systemNs: acct('cpuacct.usage_sys'),
        totalNs: acct('cpuacct.usage'),
        throttledPeriods: cpuStat.get('nr_throttled') ?? 0,
        throttledTimeNs: cpuStat.get('throttled_time') ?? 0,
      },
    };
  }

  oomKilled(): boolean {
    const control = parseKeyed(readOptional(this.file('memory', 'memory.oom_control') ?? '') ?? '');
    // Kernels before 4.13 do not count kills; reaching the limit is then the nearest sign.
    if (control.has('oom_kill')) return (control.get('oom_kill') ?? 0) > 0;
    return readNumber(this.file('memory', 'memory.failcnt') ?? '') > 0;
  }

  async remove(): Promise<void> {
    if (this.pids().length > 0) await this.killAll();
    for (const d of new Set(this.dirs.values())) await removeDir(d);
  }
}

export class V1Hierarchy implements CgroupHierarchy {
  readonly version = 1;
  readonly controllers: string[];

  /** `mounts`: the controllers as detect.ts found them; `parent`: the directory named for svc */
  constructor(
    private readonly mounts: Map<string, V1Mount>,
    private readonly parent: string,
  ) {
    this.controllers = [...mounts.keys()];
  }

  private parentDir(controller: string): string {
    return path.join(this.mounts.get(controller)!.self, this.parent);
  }

  private dirsOf(id: string): Map<string, string> {
    return new Map(this.controllers.map((c) => [c, path.join(this.parentDir(c), id)]));
  }

  /** A new cpuset cgroup has no CPUs nor memory nodes, and no process may join it until it has both. */
  private prepareCpuset(dir: string): void {
    for (const name of ['cpuset.cpus', 'cpuset.mems']) {
      const own = path.join(dir, name);
      if (readText(own).trim() === '') writeText(own, readText(path.join(path.dirname(dir), name)).trim());
    }
  }

  create(id: string, limits: CgroupLimits): TaskCgroup {
    const dirs = this.dirsOf(id);
    for (const [controller, dir] of dirs) {
      ensureDir(dir);
      if (controller === 'cpuset') {
        this.prepareCpuset(path.dirname(dir));
        this.prepareCpuset(dir);
      }
    }
    const cg = new V1Cgroup(id, dirs);
    cg.setLimits(limits);
    return cg;
  }

  open(id: string): TaskCgroup | undefined {
    const dirs = this.dirsOf(id);
    if (![...dirs.values()].every((d) => existsSync(d))) return undefined;
    return new V1Cgroup(id, dirs);
  }

  list(): string[] {
    const dir = this.parentDir(this.controllers.includes('freezer') ? 'freezer' : this.controllers[0]);
    try {
      return readdirSync(dir).filter((n) => statSync(path.join(dir, n)).isDirectory());
    } catch {
      return [];
    }
  }

  cpus(): string {
    if (!this.mounts.has('cpuset')) return '';
    const dir = this.parentDir('cpuset');
    // Before the parent is prepared (or when it has just been made) its list is empty: the node's own applies.
    return readOptional(path.join(dir, 'cpuset.cpus'))?.trim() || readText(path.join(path.dirname(dir), 'cpuset.cpus')).trim();
  }
}
