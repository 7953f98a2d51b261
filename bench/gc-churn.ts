// Garbage collection under churn: short batch jobs registered at a steady rate on a simulated clock,
// placed by the real evaluation broker and schedulers, reported complete as a node would, and collected
// by the real garbage collector every 5 simulated minutes (the server's interval), with Nomad's
// thresholds. Once the oldest dead jobs pass job_gc_threshold (4 hours), what is stored, the data file
// and the heap must stop growing: each simulated hour prints one row to show it.
//
// Runs in a process of its own (bench/gc-churn.mjs builds and starts it) because it replaces Date.now:
// every timestamp the state functions write (SubmitTime, ModifyTime) and the collector's "now" come from
// the simulated clock, so hours pass in seconds.
//
//   BENCH_GC_JOBS_PER_MIN=1000  BENCH_GC_HOURS=6  BENCH_GC_NODES=100
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EvalBroker } from '../src/scheduler/broker.js';
import { schedulerFor } from '../src/scheduler/sched/index.js';
import { ALLOCS_TABLE, allocsOfJob } from '../src/scheduler/state/allocs.js';
import { updateAllocsFromClient } from '../src/scheduler/state/client-updates.js';
import { EVALS_PENDING, EVALS_TABLE } from '../src/scheduler/state/evals.js';
import { collectGarbage } from '../src/scheduler/state/gc.js';
import { registerJob } from '../src/scheduler/state/jobs.js';
import { registerNode } from '../src/scheduler/state/nodes.js';
import { JOBS_TABLE } from '../src/scheduler/state/tables.js';
import type { Allocation } from '../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../src/scheduler/structs/canonicalize.js';
import type { Node } from '../src/scheduler/structs/node.js';
import { createLogger } from '../src/shared/log.js';
import { openLmdbStore } from '../src/storage/lmdb-store.js';
import { ALLOC_MEMORY_TABLES } from '../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../src/server/migrations.js';
import type { Store } from '../src/storage/store.js';
import { fakeNode } from '../test/support/nodes.js';

const JOBS_PER_MIN = Number(process.env.BENCH_GC_JOBS_PER_MIN ?? 1000);
const HOURS = Number(process.env.BENCH_GC_HOURS ?? 6);
const NODES = Number(process.env.BENCH_GC_NODES ?? 100);
const GC_EVERY_MIN = 5;
const MINUTE_MS = 60_000;

let simulatedMs = Date.now();
Date.now = () => simulatedMs;

/** A node through which the simulated jobs never run out of room. */
function node(): Node {
  const { node: n } = fakeNode();
  n.NodeResources = { ...n.NodeResources, Cpu: { ...n.NodeResources.Cpu, CpuShares: 64000 }, Memory: { MemoryMB: 262144 }, Disk: { DiskMB: 10_000_000 } };
  return n;
}

const count = (store: Store, table: string) => store.list(table).length;

async function drained(store: Store): Promise<void> {
  while (store.list(EVALS_PENDING, '', { limit: 1 }).length > 0) await store.waitForIndex(store.tableIndex(EVALS_PENDING), 50, EVALS_PENDING);
}

/** What the nodes would report once the jobs' allocations have run: one request per node. */
async function complete(store: Store, jobIds: string[]): Promise<void> {
  const byNode = new Map<string, Allocation[]>();
  for (const id of jobIds) {
    for (const alloc of allocsOfJob(store, 'default', id)) {
      if (alloc.ClientStatus !== 'pending') continue;
      byNode.set(alloc.NodeID, [...(byNode.get(alloc.NodeID) ?? []), alloc]);
    }
  }
  const at = new Date(simulatedMs).toISOString();
  for (const [nodeId, allocs] of byNode) {
    await updateAllocsFromClient(
      store,
      nodeId,
      allocs.map((a) => ({
        ID: a.ID,
        ClientStatus: 'complete' as const,
        ClientDescription: 'All tasks have completed',
        TaskStates: { t: { State: 'dead', Failed: false, Restarts: 0, LastRestart: null, StartedAt: at, FinishedAt: at, Events: [], Paused: false } as never },
      })),
    );
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-gc-churn-'));
  const store = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  const log = createLogger('error');
  const broker = new EvalBroker(store, log, schedulerFor);
  try {
    // Registering makes a node ready.
    for (let i = 0; i < NODES; i++) await registerNode(store, node(), randomUUID());
    broker.start();
    const rows: string[][] = [];
    const started = performance.now();
    let registered = 0;
    let collected = 0;
    for (let minute = 1; minute <= HOURS * 60; minute++) {
      // Registered as many clients would, side by side: concurrent writes share their flushes.
      const jobs = Array.from({ length: JOBS_PER_MIN }, () =>
        canonicalizeJob({
          ID: `churn-${registered++}`,
          Type: 'batch',
          Datacenters: ['dc1'],
          TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'mock', Config: { run_for: '1s' }, Resources: { CPU: 10, MemoryMB: 10 } }] }],
        }),
      );
      await Promise.all(jobs.map((job) => registerJob(store, job)));
      await drained(store);
      await complete(store, jobs.map((j) => j.ID));
      simulatedMs += MINUTE_MS;
      if (minute % GC_EVERY_MIN === 0) collected += (await collectGarbage(store, { now: simulatedMs * 1e6 })).jobs;
      if (minute % 60 === 0) {
        global.gc?.();
        const { size } = await stat(path.join(dir, 'data.mdb'));
        rows.push([
          `${minute / 60} h`,
          String(registered),
          String(collected),
          String(count(store, JOBS_TABLE)),
          String(count(store, ALLOCS_TABLE)),
          String(count(store, EVALS_TABLE)),
          mib(size),
          mib(process.memoryUsage().heapUsed),
          mib(process.memoryUsage().rss),
          `${((performance.now() - started) / 1000).toFixed(0)} s`,
        ]);
        process.stdout.write(`${JSON.stringify(rows.at(-1))}\n`);
      }
    }
  } finally {
    await broker.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
