/**
 * `svc agent` with two servers of one cluster (one PostgreSQL database): when the server it talks to is
 * killed (-9), the agent moves on to the other, which takes the lead; the node stays in the cluster and
 * runs the jobs registered afterwards.
 */
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { running, spawnServer } from '../support/spawn-server.js';
import { runningAgents, spawnAgent, stopAgent } from '../support/spawn-agent.js';
import { until } from '../support/wait.js';

let postgres: Postgres;
let work: string;

beforeAll(async () => {
  postgres = await startPostgres();
  work = await makeTempDir('svc-e2e-agent-cluster-');
});

afterAll(async () => {
  for (const child of [...runningAgents, ...running]) child.kill('SIGKILL');
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
});

const batchJob = (id: string) => ({
  Job: { ID: id, Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] },
});

describe('svc agent in a cluster', () => {
  it('survives the death of the server it talked to', async () => {
    const url = await createDatabase(postgres.url, 'svc_agent_cluster');
    const home = path.join(work, 'home');
    await mkdir(home);
    const dir = (name: string) => path.join(work, name);
    const start = (name: string) => spawnServer(['-data-dir', dir(name), '-storage-url', url, '-port=0', '-client=false', '-log-level=warn'], { HOME: home });
    const a = await start('a');
    // The servers of a cluster share the keyring that seals the database's secrets.
    await mkdir(dir('b'), { mode: 0o700 });
    await copyFile(path.join(dir('a'), 'keyring.json'), path.join(dir('b'), 'keyring.json'));
    const b = await start('b');
    const token = a.rootToken!;
    const viaB = new ApiClient({ address: b.url, token });

    const dataDir = dir('agent');
    const agent = await spawnAgent([`-servers=${a.url},${b.url}`, `-data-dir=${dataDir}`, '-token', token, '-log-level=warn'], { HOME: home });
    const id = (await readFile(path.join(dataDir, 'client', 'node-id'), 'utf8')).trim();
    await until(() => viaB.scheduler<{ Status: string }>('GET', `/v1/node/${id}`).then((r) => r.body), (n) => n.Status === 'ready', 'the node to join through the first server');

    a.child.kill('SIGKILL');
    await a.exited;
    await until(() => Promise.resolve(agent.stderr()), (err) => err.includes(`using ${b.url}`), 'the agent to move on to the second server');

    await viaB.scheduler('POST', '/v1/jobs', { body: batchJob('after-the-fall') });
    const [alloc] = await until(
      () => viaB.scheduler<Array<{ NodeID: string; ClientStatus: string }>>('GET', '/v1/job/after-the-fall/allocations').then((r) => r.body),
      (l) => l[0]?.ClientStatus === 'complete',
      'the job registered after the kill to complete on the agent',
      60_000,
    );
    expect(alloc.NodeID).toBe(id);
    expect((await viaB.scheduler<{ Status: string }>('GET', `/v1/node/${id}`)).body.Status).toBe('ready');
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
  });
});
