/**
 * The process, as Nomad's and Vault's `runtime` gauges describe theirs (alloc_bytes, sys_bytes,
 * num_goroutines, total_gc_runs, total_gc_pause_ns), from Node's figures: the heap in use,
 * the resident set, the handles the event loop holds, and the garbage collections prom-client saw. Its
 * own process_* and nodejs_* series give the rest (CPU, event-loop lag, GC by kind).
 */
import { gaugeAt, measureProcess, registry } from './registry.js';

type ActiveResources = { getActiveResourcesInfo?: () => string[] };

/**
 * prom-client's GC histogram (nodejs_gc_duration_seconds, by kind) summed: the collections seen and
 * their time in seconds. Read from it rather than from a GC observer of our own: a second observer
 * measurably slowed allocation-heavy work (logins, in npm run bench).
 */
function gcTotals(): Promise<{ runs: number; seconds: number } | undefined> {
  // Once per scrape: the gauges of both sides that read it are read in one turn of the event loop.
  if (!gcRead) {
    gcRead = sumGc();
    setImmediate(() => (gcRead = undefined));
  }
  return gcRead;
}

let gcRead: Promise<{ runs: number; seconds: number } | undefined> | undefined;

async function sumGc(): Promise<{ runs: number; seconds: number } | undefined> {
  const metric = registry.getSingleMetric('nodejs_gc_duration_seconds');
  if (!metric) return undefined;
  const totals = { runs: 0, seconds: 0 };
  for (const v of (await metric.get()).values as Array<{ value: number; metricName?: string }>) {
    if (v.metricName?.endsWith('_count')) totals.runs += v.value;
    else if (v.metricName?.endsWith('_sum')) totals.seconds += v.value;
  }
  return totals;
}

const gcPauseNs = (totals: { seconds: number } | undefined) => totals && Math.round(totals.seconds * 1e9);

const RUNTIME: Array<[string, string, () => number | undefined | Promise<number | undefined>]> = [
  ['alloc_bytes', 'Bytes of JavaScript heap in use.', () => process.memoryUsage().heapUsed],
  ['sys_bytes', 'Resident set size of the process, in bytes.', () => process.memoryUsage.rss()],
  ['num_goroutines', 'Handles and requests the event loop holds (what goroutines are to Go).', () => (process as ActiveResources).getActiveResourcesInfo?.().length ?? 0],
  ['total_gc_runs', 'Garbage collections since the process metrics started.', async () => (await gcTotals())?.runs],
  ['total_gc_pause_ns', 'Time spent in garbage collection since the process metrics started, in nanoseconds.', async () => gcPauseNs(await gcTotals())],
];

for (const prefix of ['nomad', 'vault']) {
  for (const [name, help, read] of RUNTIME) gaugeAt(`${prefix}.runtime.${name}`, help, [], read);
}

/** Starts measuring the process (prom-client's metrics, which the runtime gauges read too). */
export function measureRuntime(): void {
  measureProcess();
}
