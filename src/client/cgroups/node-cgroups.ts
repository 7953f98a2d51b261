/**
 * The node's cgroups: the hierarchy detect.ts found, the parent named for svc beneath the node's own
 * cgroup, the task cgroups under it (`<alloc-id>.<task>`), and the CPUs: cores a task reserves are
 * taken out of the pool every other task of the node shares.
 */
import { type CgroupHierarchy, type CgroupLimits, type TaskCgroup, formatCpuList, parseCpuList } from './cgroup.js';
import { type CgroupDetection, TASK_CONTROLLERS, detectCgroups } from './detect.js';
import { V1Hierarchy } from './v1.js';
import { V2Hierarchy } from './v2.js';

export const DEFAULT_CGROUP_PARENT = 'svc';
/**
 * Nomad's executor sets no pids limit; svc sets a generous one of its own, so that a fork bomb in one
 * task cannot exhaust the host's pid space (and with it the node) while no real task comes near it.
 */
export const DEFAULT_PIDS_LIMIT = 4096;

export interface NodeCgroupOptions {
  /** the directory beneath the node's own cgroup that holds the task cgroups */
  parent: string;
  /** the most processes (threads included) a task may have; 0 for no limit */
  pidsLimit: number;
  /** `memory_max` is the hard limit (and `memory` the soft one), as Nomad's memory_oversubscription_enabled */
  memoryOversubscription: boolean;
}

/** What a task asks for, as the scheduler allocated it. */
export interface TaskResources {
  cpuShares: number;
  memoryMB: number;
  memoryMaxMB: number;
  /** the cores the scheduler reserved for the task; empty when it named none */
  cores: number[];
  /** how many cores the task asked for (`cores`); the node picks them when the scheduler named none */
  coreCount: number;
}

const MB = 1024 * 1024;

export class NodeCgroups {
  readonly detection: CgroupDetection;
  readonly hierarchy?: CgroupHierarchy;
  /** why tasks cannot be held to their limits here; undefined when they can */
  readonly problem?: string;
  /** task id -> the cores it holds for itself */
  private readonly reserved = new Map<string, number[]>();

  constructor(
    readonly options: NodeCgroupOptions,
    detection: CgroupDetection = detectCgroups(),
  ) {
    this.detection = detection;
    let problem = detection.problem;
    if (detection.version !== 0 && process.getuid?.() !== 0) problem = 'managing cgroups needs root';
    else if (detection.version === 1) {
      const mounts = new Map([...detection.v1].filter(([c]) => (TASK_CONTROLLERS as readonly string[]).includes(c)));
      this.hierarchy = new V1Hierarchy(mounts, options.parent);
    } else if (detection.version === 2) {
      const h = new V2Hierarchy(detection.v2Self!, options.parent);
      this.hierarchy = h;
      problem ??= h.problem;
    }
    this.problem = problem;
  }

  /** Nomad's cgroup attributes (the current `os.cgroups.version` and the older `unique.cgroup.*`). */
  attributes(): Record<string, string> {
    const d = this.detection;
    if (d.version === 0) return {};
    return {
      'os.cgroups.version': String(d.version),
      'unique.cgroup.mountpoint': d.mountpoint,
      'unique.cgroup.version': `v${d.version}`,
      'os.cgroups.controllers': [...(this.hierarchy?.controllers ?? [])].sort().join(','),
    };
  }

  /** The limits of a task: Nomad's reading of `memory`, `memory_max` and `cpu`, plus the node's pids limit. */
  limitsFor(r: TaskResources): CgroupLimits {
    const oversubscribed = this.options.memoryOversubscription && r.memoryMaxMB > 0;
    return {
      memoryBytes: (oversubscribed ? r.memoryMaxMB : r.memoryMB) * MB,
      memorySoftBytes: oversubscribed ? r.memoryMB * MB : undefined,
      cpuShares: r.cpuShares,
      pidsMax: this.options.pidsLimit > 0 ? this.options.pidsLimit : undefined,
    };
  }

  private hasCpuset(): boolean {
    return this.hierarchy?.controllers.includes('cpuset') ?? false;
  }

  /** The CPUs of the tasks that reserve none: the node's, less every reserved core. */
  sharedCpus(): string {
    const all = parseCpuList(this.hierarchy?.cpus() ?? '');
    const taken = new Set([...this.reserved.values()].flat());
    const rest = all.filter((c) => !taken.has(c));
    return formatCpuList(rest.length ? rest : all);
  }

  /** Gives the tasks that share CPUs the pool as it is now. */
  private resizeShared(except?: string): void {
    if (!this.hasCpuset() || !this.hierarchy) return;
    const pool = this.sharedCpus();
    for (const id of this.hierarchy.list()) {
      if (id === except || this.reserved.has(id)) continue;
      try {
        this.hierarchy.open(id)?.setLimits({ cpusetCpus: pool });
      } catch {
        // a cgroup removed meanwhile
      }
    }
  }

  /** `count` cores no other task holds, lowest first; undefined when the node has too few left. */
  pickCores(count: number): number[] | undefined {
    const taken = new Set([...this.reserved.values()].flat());
    const free = parseCpuList(this.hierarchy?.cpus() ?? '').filter((c) => !taken.has(c));
    // The shared pool keeps at least one CPU: the tasks without reserved cores must run somewhere.
    return free.length > count ? free.slice(0, count) : undefined;
  }

  create(id: string, limits: CgroupLimits, cores: number[]): TaskCgroup {
    if (!this.hierarchy) throw new Error(this.problem ?? 'cgroups are not available');
    if (cores.length && this.hasCpuset()) this.reserved.set(id, cores);
    const cpusetCpus = this.hasCpuset() ? (cores.length ? formatCpuList(cores) : this.sharedCpus()) : undefined;
    const cg = this.hierarchy.create(id, { ...limits, cpusetCpus });
    if (cores.length) this.resizeShared(id);
    return cg;
  }

  /** The cgroup of a task the node finds again after a restart; its cores are reserved again. */
  open(id: string, cores: number[]): TaskCgroup | undefined {
    const cg = this.hierarchy?.open(id);
    if (cg && cores.length && this.hasCpuset()) this.reserved.set(id, cores);
    return cg;
  }

  async remove(cg: TaskCgroup): Promise<void> {
    await cg.remove();
    if (this.reserved.delete(cg.id)) this.resizeShared();
  }
}

const DEFAULTS: NodeCgroupOptions = { parent: DEFAULT_CGROUP_PARENT, pidsLimit: DEFAULT_PIDS_LIMIT, memoryOversubscription: false };
let options = DEFAULTS;
let current: NodeCgroups | undefined;

/**
 * Sets the node's cgroup options (from the client configuration). One node runs per process, and its
 * drivers are shared, so the options are the process's.
 */
export function configureNodeCgroups(opts: Partial<NodeCgroupOptions>): void {
  const next = { ...DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  if (JSON.stringify(next) !== JSON.stringify(options)) current = undefined;
  options = next;
}

/** The node's cgroups, detected once per configuration. */
export function nodeCgroups(): NodeCgroups {
  current ??= new NodeCgroups(options);
  return current;
}

/** The id of a task's cgroup: one per task of an allocation, the same across restarts of the node. */
export function taskCgroupId(allocId: string, taskName: string): string {
  return `${allocId}.${taskName.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}
