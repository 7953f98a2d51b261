/**
 * The scheduler's state in-process, without an HTTP server: a real LMDB store in a temporary dir, nodes
 * and jobs written by the state functions the endpoints use, and the real broker and schedulers. For
 * tests that drive what the server runs in the background (broker, heartbeats) step by step.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalizeJob } from '../../src/scheduler/structs/canonicalize.js';
import type { Job } from '../../src/scheduler/structs/job.js';
import { registerJob } from '../../src/scheduler/state/jobs.js';
import { registerNode } from '../../src/scheduler/state/nodes.js';
import { EVALS_PENDING, EVALS_TABLE } from '../../src/scheduler/state/evals.js';
import type { Evaluation } from '../../src/scheduler/structs/evaluation.js';
import { openLmdbStore } from '../../src/storage/lmdb-store.js';
import { ALLOC_MEMORY_TABLES } from '../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../src/server/migrations.js';
import type { Store } from '../../src/storage/store.js';
import { fakeNode } from './nodes.js';
import { until } from './wait.js';

export interface TempStore {
  store: Store;
  dir: string;
  /** closes the store and opens it again, as a server restart does */
  reopen(): Promise<Store>;
  /** closes the store and removes the dir */
  remove(): Promise<void>;
}

export async function openTempStore(): Promise<TempStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sched-'));
  const temp: TempStore = {
    store: await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES }),
    dir,
    async reopen() {
      await temp.store.close();
      temp.store = await openLmdbStore({ dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
      return temp.store;
    },
    async remove() {
      await temp.store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return temp;
}

/** Registers a ready node in `dc` that runs the mock driver; answers its ID. */
export async function readyNode(store: Store, dc = 'dc1'): Promise<string> {
  const n = fakeNode({ Datacenter: dc });
  await registerNode(store, n.node, n.secret);
  return n.node.ID;
}

/** Registers a service job of `count` small mock tasks; its evaluation is queued with the job's priority. */
export async function submitJob(store: Store, id: string, opts: { count?: number; priority?: number; dc?: string } = {}): Promise<Job> {
  const job = canonicalizeJob({
    ID: id,
    Priority: opts.priority ?? 50,
    Datacenters: [opts.dc ?? 'dc1'],
    TaskGroups: [{ Name: 'g', Count: opts.count ?? 1, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 10, MemoryMB: 10 } }] }],
  });
  await registerJob(store, job);
  return job;
}

export const allEvals = (store: Store): Evaluation[] => store.list<Evaluation>(EVALS_TABLE).map((e) => e.value);

/** Waits until no evaluation is left to run. */
export async function drained(store: Store, ms = 60_000): Promise<void> {
  await until(async () => store.list(EVALS_PENDING, '', { limit: 1 }).length, (n) => n === 0, 'the evaluation queue to drain', ms);
}
