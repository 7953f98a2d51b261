/**
 * The process, as Nomad's and Vault's `runtime` gauges describe theirs (alloc_bytes, sys_bytes,
 * num_goroutines, total_gc_runs, total_gc_pause_ns), from Node's figures: the heap in use,
 * the resident set, the handles the event loop holds, and the garbage collections seen. prom-client's own
 * process_* and nodejs_* series give the rest (CPU, event-loop lag, GC by kind).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { gaugeAt, measureProcess } from './registry.js';

let gcRuns = 0;
let gcPauseNs = 0;

type ActiveResources = { getActiveResourcesInfo?: () => string[] };

const RUNTIME: Array<[string, string, () => number]> = [
  ['alloc_bytes', 'Bytes of JavaScript heap in use.', () => process.memoryUsage().heapUsed],
  ['sys_bytes', 'Resident set size of the process, in bytes.', () => process.memoryUsage.rss()],
  ['num_goroutines', 'Handles and requests the event loop holds (what goroutines are to Go).', () => (process as ActiveResources).getActiveResourcesInfo?.().length ?? 0],
  ['total_gc_runs', 'Garbage collections since the process started.', () => gcRuns],
  ['total_gc_pause_ns', 'Time spent in garbage collection since the process started, in nanoseconds.', () => gcPauseNs],
];

for (const prefix of ['nomad', 'vault']) {
  for (const [name, help, read] of RUNTIME) gaugeAt(`${prefix}.runtime.${name}`, help, [], read);
}

let observing = false;

/** Starts measuring the process: prom-client's metrics and the GC observer behind the runtime gauges. */
export function measureRuntime(): void {
  measureProcess();
  if (observing) return;
  observing = true;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcRuns++;
      gcPauseNs += Math.round(entry.duration * 1e6);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
}
