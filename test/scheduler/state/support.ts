/** A real store in a temporary dir, with the broker's work done by hand, step by step, for state tests. */
import { rm } from 'node:fs/promises';
import { applyPlan } from '../../../src/scheduler/plan-apply.js';
import { schedulerFor } from '../../../src/scheduler/sched/index.js';
import { getEval, pendingEvals } from '../../../src/scheduler/state/evals.js';
import { getJob } from '../../../src/scheduler/state/jobs.js';
import { storeState } from '../../../src/scheduler/state/scheduler-state.js';
import { openLmdbStore } from '../../../src/storage/lmdb-store.js';
import type { Store, WriteTx } from '../../../src/storage/store.js';
import { ALLOC_PLACEMENTS, ALLOCS_BY_CREATE, ALLOCS_BY_EVAL, ALLOCS_BY_JOB, ALLOCS_BY_NODE, ALLOCS_TABLE, type NodeUsageEntry, type PlacementEntry } from '../../../src/scheduler/state/allocs.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { ALLOC_MEMORY_TABLES } from '../../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../../src/server/migrations.js';
import { ALLOC_IDS } from '../../../src/scheduler/state/alloc-keys.js';
import { ALLOC_STUBS, readStub } from '../../../src/scheduler/state/alloc-stubs.js';
import type { Fields } from '../../../src/scheduler/state/alloc-record.js';
import { allocTerminal } from '../../../src/scheduler/structs/allocation.js';
import type { Allocation } from '../../../src/scheduler/structs/allocation.js';
import { makeTempDir } from '../../support/server.js';

export class TestStore {
  store!: Store;
  private constructor(readonly dir: string) {}

  static async open(): Promise<TestStore> {
    const t = new TestStore(await makeTempDir('svc-state-'));
    t.store = await openLmdbStore({ dir: t.dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
    return t;
  }

  /** Closes and opens the data dir again, as a server restart does (migrations run on open). */
  async reopen(): Promise<void> {
    await this.store.close();
    this.store = await openLmdbStore({ dir: this.dir, migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
  }

  /**
   * Closes the store and opens its dir as a server before schema 9 had it: alloc-ids and allocs-by-node
   * in the file (the server now keeps them in memory) with each allocation's usage in its node entry.
   * What the test writes next reaches the file as an older server's writes did; reopen() then runs the
   * migrations from there.
   */
  async openAsSchema8(): Promise<void> {
    await this.openAsOlderSchema(8, (tx, key, node, usage) => {
      tx.put(ALLOC_IDS, key.slice(key.indexOf('\u0000') + 1), Number(key.slice(0, key.indexOf('\u0000'))));
      tx.put(ALLOCS_BY_NODE, `${node}\u0000${key}`, usage);
    });
  }

  /**
   * Closes the store and opens its dir as a server before schema 12 had it: each allocation's node and
   * usage in alloc-placements, allocs-by-job and allocs-by-eval in the file (alloc-ids and allocs-by-node
   * in memory, as now).
   */
  async openAsSchema11(): Promise<void> {
    await this.openAsOlderSchema(11, (tx, key, node, usage) => tx.put(ALLOC_PLACEMENTS, key, { node, ...usage } satisfies PlacementEntry));
  }

  /** Stubs without their usage, which `place` writes where that schema kept it, and the by-job and by-eval entries in the file. */
  private async openAsOlderSchema(version: number, place: (tx: WriteTx, key: string, node: string, usage: NodeUsageEntry) => void): Promise<void> {
    const byJob = this.store.keys(ALLOCS_BY_JOB);
    const byEval = this.store.keys(ALLOCS_BY_EVAL);
    await this.store.close();
    this.store = await openLmdbStore({ dir: this.dir, migrations: SCHEMA_MIGRATIONS });
    await this.store.write((tx) => {
      for (const key of byJob) tx.put(ALLOCS_BY_JOB, key, 1);
      for (const key of byEval) tx.put(ALLOCS_BY_EVAL, key, 1);
      for (const { key, value } of tx.list<Fields>(ALLOC_STUBS)) {
        const { Usage, ...stub } = value as Fields & { Usage: Omit<NodeUsageEntry, 'live'> };
        const read = readStub(stub);
        tx.put(ALLOC_STUBS, key, stub);
        place(tx, key, read.NodeID, { ...Usage, live: !allocTerminal(read) });
      }
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, version);
    });
  }

  async dispose(): Promise<void> {
    await this.store.close();
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Runs every queued evaluation through its scheduler and writes the plan, as the broker would. */
  async runPending(): Promise<number> {
    let runs = 0;
    for (;;) {
      const entry = pendingEvals(this.store).filter((e) => e.waitUntil <= Date.now())[0];
      if (!entry) return runs;
      const evaluation = getEval(this.store, entry.id)!;
      const job = getJob(this.store, evaluation.Namespace, evaluation.JobID);
      const result = await schedulerFor(job?.Type ?? evaluation.Type)(evaluation, storeState(this.store));
      await applyPlan(this.store, evaluation, result);
      runs++;
    }
  }
}

/** A small deterministic generator (mulberry32), so a failing random sequence can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Rewrites the allocation tables as schema 4 stored them (records and stubs keyed by ID, the
 * allocs-by-create index, no alloc-ids), to show what the later migrations make of a data dir written then.
 */
export function toSchema4AllocLayout(tx: WriteTx): void {
  for (const { key, value } of tx.list<Allocation>(ALLOCS_TABLE)) {
    tx.delete(ALLOCS_TABLE, key);
    tx.put(ALLOCS_TABLE, value.ID, value);
    tx.put(ALLOCS_BY_CREATE, key, 1);
    tx.delete(ALLOC_IDS, value.ID);
  }
  for (const { key, value } of tx.list<{ ID: string }>(ALLOC_STUBS)) {
    tx.delete(ALLOC_STUBS, key);
    tx.put(ALLOC_STUBS, value.ID, value);
  }
}

/** Rewrites a node's allocation entries to the schema-5 keys, `<node>\0<ID>` (what the schema 6 migration moves). */
export function toSchema5NodeLayout(tx: WriteTx): void {
  for (const { key, value } of tx.list(ALLOCS_BY_NODE)) {
    const parts = key.split('\u0000');
    tx.delete(ALLOCS_BY_NODE, key);
    tx.put(ALLOCS_BY_NODE, `${parts[0]}\u0000${parts[parts.length - 1]}`, value);
  }
}
