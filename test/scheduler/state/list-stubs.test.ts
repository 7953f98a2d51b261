/**
 * The stub tables (alloc-stubs, job-stubs) always equal the projection of the records they mirror:
 * after placements, node updates, stops, a new job version, a purge and garbage collection on a real server, and
 * after the schema migration rebuilds them for a data dir written before they existed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../../support/server.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';
import { ApiClient } from '../../../src/api/http/client.js';
import { until } from '../../support/wait.js';
import { openLmdbStore } from '../../../src/storage/lmdb-store.js';
import { SCHEMA_KEY, SCHEMA_TABLE } from '../../../src/storage/migrations.js';
import { ALLOC_MEMORY_TABLES } from '../../../src/scheduler/state/alloc-memory-tables.js';
import { SCHEMA_MIGRATIONS } from '../../../src/server/migrations.js';
import type { Store } from '../../../src/storage/store.js';
import { ALLOCS_TABLE } from '../../../src/scheduler/state/allocs.js';
import { ALLOC_STUBS, allocStubRecord, readStub } from '../../../src/scheduler/state/alloc-stubs.js';
import { JOB_STUBS, jobStubRecord } from '../../../src/scheduler/state/job-stubs.js';
import { JOBS_TABLE } from '../../../src/scheduler/state/tables.js';
import type { Job } from '../../../src/scheduler/structs/job.js';
import { toSchema4AllocLayout } from './support.js';
import { readAlloc, type Fields } from '../../../src/scheduler/state/alloc-record.js';

const mockJob = (id: string, count: number, type = 'service') => ({
  ID: id,
  Type: type,
  Datacenters: ['dc1'],
  TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 20, MemoryMB: 32 } }] }],
});

/** Every record has a stub equal to its projection, and no stub is left without its record. */
function expectStubsMatch(store: Store): { allocs: number; jobs: number } {
  const allocs = store.list<Fields>(ALLOCS_TABLE).map((e) => ({ key: e.key, value: readAlloc(e.value) }));
  const allocStubs = store.list<Fields>(ALLOC_STUBS).map((e) => ({ key: e.key, value: readStub(e.value) }));
  expect(allocStubs.map((e) => e.key)).toEqual(allocs.map((e) => e.key));
  for (const [i, { value }] of allocs.entries()) expect(allocStubs[i].value).toEqual(JSON.parse(JSON.stringify(allocStubRecord(value))));
  const jobs = store.list<Job>(JOBS_TABLE);
  const jobStubs = store.list(JOB_STUBS);
  expect(jobStubs.map((e) => e.key)).toEqual(jobs.map((e) => e.key));
  for (const [i, { value }] of jobs.entries()) expect(jobStubs[i].value).toEqual(JSON.parse(JSON.stringify(jobStubRecord(value))));
  return { allocs: allocs.length, jobs: jobs.length };
}

describe('list stub tables', () => {
  let dir: string;
  let srv: TestServer | undefined;
  let nodes: FakeNode[];

  beforeAll(async () => {
    dir = await makeTempDir();
  });
  afterAll(async () => {
    await srv?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('equal the projection of their records after updates, stops, a new version, a purge and GC, and after the migration', async () => {
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000, dataDir: dir });
    const c = srv.client();
    const root = srv.rootToken;
    nodes = [fakeNode(), fakeNode()];
    for (const n of nodes) await registerFakeNode(c, n);
    const run = async (job: Record<string, unknown>) => {
      const reg = await c.scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: job } });
      await until(() => c.scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`), (e) => e.body.Status !== 'pending', 'evaluation done');
    };
    await run(mockJob('web', 3));
    await run(mockJob('batch', 2, 'batch'));
    await run(mockJob('gone', 2));
    const all = (await c.scheduler<Array<{ ID: string; NodeID: string; JobID: string }>>('GET', '/v1/allocations')).body;
    for (const n of nodes) {
      const mine = all.filter((a) => a.NodeID === n.node.ID);
      await new ApiClient({ address: srv.url, token: n.secret }).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, {
        body: {
          Allocs: mine.map((a) => ({
            ID: a.ID,
            ClientStatus: a.JobID === 'batch' ? 'complete' : 'running',
            ClientDescription: 'reported',
            TaskStates: { t: { State: a.JobID === 'batch' ? 'dead' : 'running', Failed: false, Restarts: 0, LastRestart: '0001-01-01T00:00:00Z', StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z', Events: [{ Type: 'Started' }], Paused: '' } },
          })),
        },
      });
    }
    await c.scheduler('POST', `/v1/allocation/${all.find((a) => a.JobID === 'web')!.ID}/stop`);
    // A new version of the job (its record and stub rewritten).
    await run({ ...mockJob('web', 4), Meta: { v: '2' } });
    await c.scheduler('DELETE', '/v1/job/gone', { query: { purge: true } });
    await until(() => c.scheduler<{ Status: string }>('GET', '/v1/job/batch'), (j) => j.body.Status === 'dead', 'batch dead');
    await c.scheduler('PUT', '/v1/system/gc');
    await srv.close();
    srv = undefined;

    let store = await openLmdbStore({ dir: path.join(dir, 'state'), migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
    const counts = expectStubsMatch(store);
    // Something of each kind was written, changed and removed.
    expect(counts.jobs).toBe(1);
    expect(counts.allocs).toBeGreaterThanOrEqual(4);
    expect(store.list<Fields>(ALLOCS_TABLE).some((e) => readAlloc(e.value).ClientDescription === 'reported')).toBe(true);

    // As written by a build before the stub tables: no stubs, allocations keyed by ID, schema one step back.
    const stubVersion = SCHEMA_MIGRATIONS.find((m) => m.description === 'allocation and job list stubs')!.version;
    await store.write((tx) => {
      toSchema4AllocLayout(tx);
      for (const table of [ALLOC_STUBS, JOB_STUBS]) for (const { key } of tx.list(table)) tx.delete(table, key);
      tx.put(SCHEMA_TABLE, SCHEMA_KEY, stubVersion - 1);
    });
    await store.close();
    store = await openLmdbStore({ dir: path.join(dir, 'state'), migrations: SCHEMA_MIGRATIONS, memoryTables: ALLOC_MEMORY_TABLES });
    expect(store.get(SCHEMA_TABLE, SCHEMA_KEY)).toBe(Math.max(...SCHEMA_MIGRATIONS.map((m) => m.version)));
    expect(expectStubsMatch(store)).toEqual(counts);
    await store.close();

    // The server runs on the migrated dir, and its listing reads the rebuilt stubs.
    srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000, dataDir: dir });
    const listed = (await srv.client(root).scheduler<Array<{ ID: string; JobType: string }>>('GET', '/v1/allocations')).body;
    expect(listed.length).toBe(counts.allocs);
    expect(listed.every((a) => a.JobType === 'service')).toBe(true);
  });
});
