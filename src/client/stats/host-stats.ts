/**
 * The host's figures as Nomad's HostStats has them: memory from /proc/meminfo, each CPU's user, system
 * and idle share from /proc/stat over the interval since the previous call (the first call measures
 * since boot), uptime from /proc/uptime, and the disk that holds the allocation directories.
 */
import { readFileSync, statfsSync } from 'node:fs';
import type { HostCpuStats, HostDiskStats, HostStats } from '../../scheduler/wire/resource-usage.js';

interface CpuTimes {
  user: number;
  system: number;
  idle: number;
  total: number;
}

function readCpuTimes(procRoot: string): Map<string, CpuTimes> {
  const times = new Map<string, CpuTimes>();
  for (const line of readFileSync(`${procRoot}/stat`, 'utf8').split('\n')) {
    const match = /^(cpu\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    // user nice system idle iowait irq softirq steal: guest time is already inside user.
    const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = match[2].split(/\s+/).map(Number);
    times.set(match[1], { user: user + nice, system: system + irq + softirq, idle: idle + iowait, total: user + nice + system + idle + iowait + irq + softirq + steal });
  }
  return times;
}

function meminfo(procRoot: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of readFileSync(`${procRoot}/meminfo`, 'utf8').split('\n')) {
    const match = /^(\w+):\s+(\d+) kB$/.exec(line);
    if (match) values.set(match[1], Number(match[2]) * 1024);
  }
  return values;
}

/** The mount that holds `dir`: the longest mount point that is a prefix of it. */
function mountOf(dir: string, procRoot: string): { device: string; mountpoint: string } {
  let best = { device: '', mountpoint: '/' };
  for (const line of readFileSync(`${procRoot}/mounts`, 'utf8').split('\n')) {
    const [device, mountpoint] = line.split(' ');
    if (!mountpoint) continue;
    const inside = mountpoint === '/' || dir === mountpoint || dir.startsWith(`${mountpoint}/`);
    if (inside && mountpoint.length >= best.mountpoint.length) best = { device, mountpoint };
  }
  return best;
}

function diskStats(dir: string, procRoot = '/proc'): HostDiskStats {
  const fs = statfsSync(dir);
  const size = fs.blocks * fs.bsize;
  const available = fs.bavail * fs.bsize;
  const used = size - fs.bfree * fs.bsize;
  const { device, mountpoint } = mountOf(dir, procRoot);
  return {
    Device: device,
    Mountpoint: mountpoint,
    Size: size,
    Used: used,
    Available: available,
    UsedPercent: size > 0 ? (used / (used + available)) * 100 : 0,
    InodesUsedPercent: fs.files > 0 ? ((fs.files - fs.ffree) / fs.files) * 100 : 0,
  };
}

export class HostStatsReader {
  private last = new Map<string, CpuTimes>();

  constructor(
    private readonly allocsDir: string,
    private readonly mhzPerCore: number,
    private readonly procRoot = '/proc',
  ) {}

  read(): HostStats {
    const mem = meminfo(this.procRoot);
    const total = mem.get('MemTotal') ?? 0;
    const free = mem.get('MemFree') ?? 0;
    const available = mem.get('MemAvailable') ?? free;
    const now = readCpuTimes(this.procRoot);
    const CPU: HostCpuStats[] = [];
    let ticks = 0;
    for (const [name, t] of now) {
      const before = this.last.get(name) ?? { user: 0, system: 0, idle: 0, total: 0 };
      const span = t.total - before.total;
      const share = (part: number) => (span > 0 ? (part / span) * 100 : 0);
      const idle = share(t.idle - before.idle);
      const busy = span > 0 ? 100 - idle : 0;
      CPU.push({ CPU: name, User: share(t.user - before.user), System: share(t.system - before.system), Idle: idle, Total: busy });
      ticks += (busy / 100) * this.mhzPerCore;
    }
    this.last = now;
    const allocDisk = diskStats(this.allocsDir, this.procRoot);
    return {
      Memory: { Total: total, Available: available, Used: total - available, Free: free },
      CPU,
      DiskStats: [allocDisk],
      AllocDirStats: allocDisk,
      DeviceStats: [],
      Uptime: Math.floor(Number(readFileSync(`${this.procRoot}/uptime`, 'utf8').split(' ')[0])),
      Timestamp: Date.now() * 1e6,
      CPUTicksConsumed: ticks,
    };
  }
}
