/**
 * What the node asks of a task's cgroup, whichever version the host runs: the two implementations
 * (v1.ts: one directory per controller mount; v2.ts: one directory in the unified hierarchy) answer
 * the same calls, so the drivers and the stats never ask which one they hold.
 */

/** The limits a task's cgroup enforces; an absent field is left as it is (in a new cgroup: no limit). */
export interface CgroupLimits {
  /** hard limit: the kernel OOM-kills inside the cgroup beyond it */
  memoryBytes?: number;
  /** soft limit (v1 memory.soft_limit_in_bytes, v2 memory.low): reclaimed last under host pressure */
  memorySoftBytes?: number;
  /** relative CPU weight as Nomad expresses it: MHz, written as v1 cpu.shares (v2 cpu.weight scaled) */
  cpuShares?: number;
  /** the CPUs the task may run on, in the kernel's list format ("0-1,3") */
  cpusetCpus?: string;
  pidsMax?: number;
}

export interface MemoryUsage {
  rss: number;
  cache: number;
  swap: number;
  usage: number;
  maxUsage: number;
}

export interface CpuUsage {
  userNs: number;
  systemNs: number;
  totalNs: number;
  throttledPeriods: number;
  throttledTimeNs: number;
}

export interface CgroupUsage {
  memory: MemoryUsage;
  cpu: CpuUsage;
}

export interface TaskCgroup {
  readonly version: 1 | 2;
  /** `<alloc-id>.<task>`: the directory name in every hierarchy */
  readonly id: string;
  /**
   * The files a process writes its own pid to, in order, to join the cgroup (one per controller on
   * v1). The executor's launcher writes them before it execs the task's command.
   */
  readonly procsFiles: string[];
  /** the file whose `oom_kill N` line counts the kernel's OOM kills in the cgroup */
  readonly oomCounter: string;
  addProcess(pid: number): void;
  /** writes the limits given, leaving the others as they are */
  setLimits(limits: CgroupLimits): void;
  /** every process in the cgroup, as the host's pid namespace numbers them */
  pids(): number[];
  /** SIGKILLs every process in the cgroup, forks in flight included; resolves once it is empty */
  killAll(): Promise<void>;
  usage(): CgroupUsage;
  /** the kernel's OOM killer has killed a process in this cgroup */
  oomKilled(): boolean;
  /** kills what is left and removes the directories; a cgroup already gone is fine */
  remove(): Promise<void>;
}

/** One version's hierarchy beneath the node's own cgroup, under the parent named for svc. */
export interface CgroupHierarchy {
  readonly version: 1 | 2;
  /** the controllers a task cgroup gets, among cpu, cpuacct, cpuset, memory, pids, freezer */
  readonly controllers: string[];
  create(id: string, limits: CgroupLimits): TaskCgroup;
  /** the cgroup of a task started before the node restarted; undefined when it is gone */
  open(id: string): TaskCgroup | undefined;
  /** the cgroups under the parent, by id */
  list(): string[];
  /** the CPUs the parent may use, in the kernel's list format */
  cpus(): string;
}

/** Parses the kernel's CPU list format ("0-3,5") into CPU numbers. */
export function parseCpuList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.trim().split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out;
}

export function formatCpuList(cpus: number[]): string {
  return [...new Set(cpus)].sort((x, y) => x - y).join(',');
}

/** Reads `key value` lines (memory.stat, cpu.stat, memory.events, memory.oom_control) into numbers. */
export function parseKeyed(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of text.split('\n')) {
    const [k, v] = line.trim().split(/\s+/);
    if (k && v !== undefined && /^\d+$/.test(v)) m.set(k, Number(v));
  }
  return m;
}
