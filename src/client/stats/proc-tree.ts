/**
 * A task's usage from /proc, for a task without a cgroup: the process and every descendant still in
 * its tree, CPU from /proc/<pid>/stat (utime, stime in clock ticks) and RSS from /proc/<pid>/status.
 * A process that re-parented itself away (a double fork) is out of the tree: only a cgroup sees it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { UsageReading, UsageSource } from './usage.js';

/** USER_HZ: Linux reports utime and stime in 1/100 s on every architecture Node runs on. */
const TICK_NS = 10_000_000;

interface ProcStat {
  ppid: number;
  utime: number;
  stime: number;
}

function readStat(procRoot: string, pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`${procRoot}/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces or parentheses itself: fields follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), utime: Number(fields[11]), stime: Number(fields[12]) };
}

function readRssBytes(procRoot: string, pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`${procRoot}/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `pid` and its descendants, from one pass over /proc. */
export function processTree(pid: number, procRoot = '/proc'): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync(procRoot)) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(procRoot, Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  const children = new Map<number, number[]>();
  for (const [child, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), child]);
  const tree = new Map<number, ProcStat>();
  const pending = stats.has(pid) ? [pid] : [];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (tree.has(next)) continue;
    tree.set(next, stats.get(next)!);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

export function procTreeSource(pid: number, procRoot = '/proc'): UsageSource {
  return {
    read(): UsageReading {
      let rss = 0;
      let userTicks = 0;
      let systemTicks = 0;
      for (const [member, stat] of pid > 0 ? processTree(pid, procRoot) : new Map<number, ProcStat>()) {
        rss += readRssBytes(procRoot, member);
        userTicks += stat.utime;
        systemTicks += stat.stime;
      }
      return {
        memory: { rss, cache: 0, swap: 0, usage: 0, maxUsage: 0 },
        cpu: { userNs: userTicks * TICK_NS, systemNs: systemTicks * TICK_NS, totalNs: (userTicks + systemTicks) * TICK_NS, throttledPeriods: 0, throttledTimeNs: 0 },
        measured: { memory: ['RSS'], cpu: ['System Mode', 'User Mode', 'Percent'] },
      };
    },
  };
}
