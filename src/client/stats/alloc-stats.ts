/**
 * Readings become Nomad's ResourceUsage: CPU in percent of one core over the interval since the task's
 * previous reading (the last one is kept per task, as Nomad's executor keeps its last sample), and
 * TotalTicks as the MHz that share of a core amounts to. A task read for the first time is read again
 * after FIRST_INTERVAL_MS, so that even the first answer has an interval to measure.
 */
import type { AllocResourceUsage, ResourceUsage, TaskResourceUsage } from '../../scheduler/wire/resource-usage.js';
import type { UsageReading, UsageSource } from './usage.js';

interface Kept {
  atNs: number;
  cpu: UsageReading['cpu'];
}

const FIRST_INTERVAL_MS = 100;

function emptyUsage(): ResourceUsage {
  return {
    MemoryStats: { RSS: 0, Cache: 0, Swap: 0, Usage: 0, MaxUsage: 0, KernelUsage: 0, KernelMaxUsage: 0, Measured: [] },
    CpuStats: { SystemMode: 0, UserMode: 0, TotalTicks: 0, ThrottledPeriods: 0, ThrottledTime: 0, Percent: 0, Measured: [] },
    DeviceStats: [],
  };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

export class AllocStats {
  private readonly last = new Map<string, Kept>();

  /** `mhzPerCore`: the host's clock, which turns a share of a core into ticks. */
  constructor(private readonly mhzPerCore: number) {}

  /** The usage of the tasks given (by name), each read now; `key` names the allocation. */
  async read(key: string, tasks: Record<string, UsageSource>): Promise<AllocResourceUsage> {
    const unread = Object.entries(tasks).filter(([name]) => !this.last.has(`${key}/${name}`));
    if (unread.length > 0) {
      const nowNs = Date.now() * 1e6;
      for (const [name, source] of unread) this.task(`${key}/${name}`, source.read(), nowNs);
      await new Promise((resolve) => setTimeout(resolve, FIRST_INTERVAL_MS));
    }
    return this.readAt(key, tasks, Date.now() * 1e6);
  }

  /** read() at a given time, without reading a new task twice. */
  readAt(key: string, tasks: Record<string, UsageSource>, nowNs: number): AllocResourceUsage {
    const total = emptyUsage();
    const Tasks: Record<string, TaskResourceUsage> = {};
    for (const [name, source] of Object.entries(tasks)) {
      const usage = this.task(`${key}/${name}`, source.read(), nowNs);
      Tasks[name] = { ResourceUsage: usage, Timestamp: nowNs, Pids: null };
      const m = total.MemoryStats;
      const c = total.CpuStats;
      m.RSS += usage.MemoryStats.RSS;
      m.Cache += usage.MemoryStats.Cache;
      m.Swap += usage.MemoryStats.Swap;
      m.Usage += usage.MemoryStats.Usage;
      m.MaxUsage += usage.MemoryStats.MaxUsage;
      m.Measured = union(m.Measured, usage.MemoryStats.Measured);
      c.SystemMode += usage.CpuStats.SystemMode;
      c.UserMode += usage.CpuStats.UserMode;
      c.TotalTicks += usage.CpuStats.TotalTicks;
      c.ThrottledPeriods += usage.CpuStats.ThrottledPeriods;
      c.ThrottledTime += usage.CpuStats.ThrottledTime;
      c.Percent += usage.CpuStats.Percent;
      c.Measured = union(c.Measured, usage.CpuStats.Measured);
    }
    return { ResourceUsage: total, Tasks, Timestamp: nowNs };
  }

  /** Forgets the readings of an allocation's tasks that are no longer among `keep`. */
  prune(keep: Set<string>): void {
    for (const key of this.last.keys()) if (!keep.has(key.slice(0, key.indexOf('/')))) this.last.delete(key);
  }

  private task(key: string, reading: UsageReading, nowNs: number): ResourceUsage {
    const before = this.last.get(key);
    this.last.set(key, { atNs: nowNs, cpu: reading.cpu });
    const intervalNs = before ? nowNs - before.atNs : 0;
    // A share of the interval, in percent of one core; a counter that went back (a new process) starts over.
    const percent = (now: number, then: number | undefined) => (intervalNs > 0 && then !== undefined && now >= then ? ((now - then) / intervalNs) * 100 : 0);
    const total = percent(reading.cpu.totalNs, before?.cpu.totalNs);
    return {
      MemoryStats: {
        RSS: reading.memory.rss,
        Cache: reading.memory.cache,
        Swap: reading.memory.swap,
        Usage: reading.memory.usage,
        MaxUsage: reading.memory.maxUsage,
        KernelUsage: 0,
        KernelMaxUsage: 0,
        Measured: reading.measured.memory,
      },
      CpuStats: {
        SystemMode: percent(reading.cpu.systemNs, before?.cpu.systemNs),
        UserMode: percent(reading.cpu.userNs, before?.cpu.userNs),
        TotalTicks: (total / 100) * this.mhzPerCore,
        ThrottledPeriods: reading.cpu.throttledPeriods,
        ThrottledTime: reading.cpu.throttledTimeNs,
        Percent: total,
        Measured: reading.measured.cpu,
      },
      DeviceStats: [],
    };
  }
}
