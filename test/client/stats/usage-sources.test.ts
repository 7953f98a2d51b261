/**
 * The usage sources and the percent arithmetic: a real process tree read from /proc (the shell and the
 * child it forked, their CPU time growing while the shell spins), and Nomad's percent-of-one-core over
 * the interval between a task's readings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree, procTreeSource } from '../../../src/client/stats/proc-tree.js';
import { AllocStats } from '../../../src/client/stats/alloc-stats.js';
import type { UsageReading, UsageSource } from '../../../src/client/stats/usage.js';
import { until } from '../../support/wait.js';

const vmRss = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

describe('a task without a cgroup: its process tree in /proc', () => {
  let shell: ChildProcess;

  beforeAll(() => {
    shell = spawn('/bin/sh', ['-c', 'sleep 300 & while :; do :; done'], { stdio: 'ignore' });
  });
  afterAll(() => {
    for (const pid of processTree(shell.pid!).keys()) process.kill(pid, 'SIGKILL');
  });

  it('covers the process and its children, and its CPU time grows while it runs', async () => {
    const tree = await until(async () => processTree(shell.pid!), (t) => t.size === 2, 'the shell and its sleep');
    const [child] = [...tree.keys()].filter((pid) => pid !== shell.pid);
    // The child is in the tree from its fork; it becomes sleep a moment later, at its exec.
    const command = () => readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0')[0];
    expect(await until(async () => command(), (c) => c !== '/bin/sh', 'the child to exec')).toBe('sleep');
    const source = procTreeSource(shell.pid!);
    const first = source.read();
    const later = await until(async () => source.read(), (r) => r.cpu.totalNs > first.cpu.totalNs, 'CPU time to grow');
    expect(later.cpu.totalNs).toBe(later.cpu.userNs + later.cpu.systemNs);
    // The RSS of both processes (the kernel's own figures, each read once more: pages may come and go).
    const summed = vmRss(shell.pid!) + vmRss(child);
    expect(later.memory.rss).toBeGreaterThan(summed / 2);
    expect(later.memory.rss).toBeLessThan(summed * 2);
    expect(later.measured.memory).toEqual(['RSS']);
  });

  it('a process that is gone reads as nothing', () => {
    expect(procTreeSource(2 ** 22 + 1).read().memory.rss).toBe(0);
  });
});

describe('percent of one core over the interval between readings', () => {
  const reading = (userMs: number, systemMs: number): UsageReading => ({
    memory: { rss: 1000, cache: 0, swap: 0, usage: 0, maxUsage: 0 },
    cpu: { userNs: userMs * 1e6, systemNs: systemMs * 1e6, totalNs: (userMs + systemMs) * 1e6, throttledPeriods: 0, throttledTimeNs: 0 },
    measured: { memory: ['RSS'], cpu: ['System Mode', 'User Mode', 'Percent'] },
  });
  const sequence = (...readings: UsageReading[]): UsageSource => ({ read: () => readings.shift()! });

  it('is 0 without an earlier reading, then the CPU time spent over the time passed, and ticks at the host clock', () => {
    const stats = new AllocStats(2000);
    const a = sequence(reading(1000, 0), reading(1600, 150), reading(10, 0));
    const b = sequence(reading(0, 0), reading(500, 0), reading(1500, 0));
    expect(stats.readAt('alloc', { a, b }, 1e9).ResourceUsage.CpuStats.Percent).toBe(0);
    const second = stats.readAt('alloc', { a, b }, 2e9);
    expect(second.Tasks.a.ResourceUsage.CpuStats).toMatchObject({ UserMode: 60, SystemMode: 15, Percent: 75, TotalTicks: 1500 });
    expect(second.Tasks.b.ResourceUsage.CpuStats.Percent).toBe(50);
    expect(second.ResourceUsage.CpuStats.Percent).toBe(125);
    expect(second.ResourceUsage.MemoryStats.RSS).toBe(2000);
    // A counter that went back is a new process: no interval to measure yet.
    expect(stats.readAt('alloc', { a, b }, 3e9).Tasks.a.ResourceUsage.CpuStats.Percent).toBe(0);
  });

  it('reads a task new to it twice, so the first answer has an interval', async () => {
    const stats = new AllocStats(1000);
    let reads = 0;
    const spinning: UsageSource = { read: () => reading(1000 * ++reads, 0) };
    const first = await stats.read('alloc', { spinning });
    expect(reads).toBe(2);
    expect(first.Tasks.spinning.ResourceUsage.CpuStats.Percent).toBeGreaterThan(0);
    await stats.read('alloc', { spinning });
    expect(reads).toBe(3);
  });
});
