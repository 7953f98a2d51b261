/**
 * One reading of a task's usage, whatever it comes from: the task's cgroup when it has one, its
 * process tree in /proc otherwise. CPU times are cumulative, so a usage in percent needs two readings.
 */
import type { TaskCgroup } from '../cgroups/cgroup.js';

export interface UsageReading {
  memory: { rss: number; cache: number; swap: number; usage: number; maxUsage: number };
  cpu: { userNs: number; systemNs: number; totalNs: number; throttledPeriods: number; throttledTimeNs: number };
  /** Nomad's names of the figures this source measures; the others read 0 */
  measured: { memory: string[]; cpu: string[] };
}

export interface UsageSource {
  read(): UsageReading;
}

const CGROUP_MEMORY = ['RSS', 'Cache', 'Swap', 'Usage', 'Max Usage'];
const CGROUP_CPU = ['System Mode', 'User Mode', 'Throttled Periods', 'Throttled Time', 'Percent'];

/** The kernel's own accounting of everything in the cgroup, forks that left the tree included. */
export function cgroupSource(cgroup: TaskCgroup): UsageSource {
  return {
    read() {
      const { memory, cpu } = cgroup.usage();
      return {
        memory: { ...memory },
        cpu: { userNs: cpu.userNs, systemNs: cpu.systemNs, totalNs: cpu.totalNs, throttledPeriods: cpu.throttledPeriods, throttledTimeNs: cpu.throttledTimeNs },
        measured: { memory: CGROUP_MEMORY, cpu: CGROUP_CPU },
      };
    },
  };
}
