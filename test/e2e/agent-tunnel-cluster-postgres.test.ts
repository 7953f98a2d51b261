/**
 * What reaches into a running task, asked of a server that does not reach the task's node: two servers
 * on one PostgreSQL database, a node in server A's process and `svc agent` whose tunnel A holds; through
 * server B, `alloc logs` (and -f), `alloc fs`, `alloc signal`, `alloc exec` and `job action` are forwarded
 * to A and answer as A would. Once the agent is gone, B says the node is not connected to any server.
 */
import { spawn } from 'node:child_process';
import { appendFile, copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir, runCli, SVC_BIN } from '../support/server.js';
import { createDatabase, startPostgres, type Postgres } from '../support/postgres.js';
import { running, spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { runningAgents, spawnAgent, stopAgent, type SpawnedAgent } from '../support/spawn-agent.js';
import { alive, until } from '../support/wait.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

let postgres: Postgres;
let work: string;
let home: string;
let a: SpawnedServer;
let b: SpawnedServer;
let agent: SpawnedAgent;
let token: string;
let viaB: ApiClient;
const pidFile = () => path.join(work, 'pids');

/** The CLI pointed at server B, which holds no tunnel and runs no node. */
const cliB = (args: string[], input?: string) => runCli(args, { HOME: home, SVC_ADDR: b.url, SVC_TOKEN: token, NO_COLOR: '1' }, input);

const job = (id: string, dc: string, type: string, script: string) => ({
  Job: {
    ID: id,
    Type: type,
    Datacenters: [dc],
    TaskGroups: [
      {
        Name: 'g',
        RestartPolicy: { Attempts: 0, Mode: 'fail' },
        Tasks: [
          {
            Name: 't',
            Driver: 'raw_exec',
            Config: { command: '/bin/sh', args: ['-c', script] },
            KillTimeout: 1_000_000_000,
            Actions: [{ Name: 'where', Command: '/bin/sh', Args: ['-c', 'echo "action in $NOMAD_ALLOC_ID"'] }],
          },
        ],
      },
    ],
  },
});
const service = (greeting: string) => `echo $$ >> ${pidFile()}; trap 'echo got HUP' HUP; echo ${greeting}; while true; do sleep 0.1; done`;

async function running1(id: string): Promise<Stub> {
  const [alloc] = await until(
    () => viaB.scheduler<Stub[]>('GET', `/v1/job/${id}/allocations`).then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === 'running',
    `the allocation of ${id} to run`,
    60_000,
  );
  return alloc;
}

let remote: Stub;
let local: Stub;

beforeAll(async () => {
  postgres = await startPostgres();
  work = await makeTempDir('svc-e2e-tunnel-cluster-');
  home = path.join(work, 'home');
  await mkdir(home);
  const url = await createDatabase(postgres.url, 'svc_tunnel_cluster');
  const dir = (name: string) => path.join(work, name);
  const start = (name: string, client: boolean) => spawnServer(['-data-dir', dir(name), '-storage-url', url, '-port=0', `-client=${client}`, '-node', `node-${name}`, '-log-level=warn'], { HOME: home });
  a = await start('a', true);
  // The servers of a cluster share the keyring that seals the database's secrets.
  await mkdir(dir('b'), { mode: 0o700 });
  await copyFile(path.join(dir('a'), 'keyring.json'), path.join(dir('b'), 'keyring.json'));
  b = await start('b', false);
  token = a.rootToken!;
  viaB = new ApiClient({ address: b.url, token });
  agent = await spawnAgent([`-servers=${a.url}`, `-data-dir=${dir('agent')}`, '-dc=remote', '-token', token, '-log-level=warn'], { HOME: home });

  await viaB.scheduler('POST', '/v1/jobs', { body: job('on-agent', 'remote', 'service', service('hello from the agent')) });
  await viaB.scheduler('POST', '/v1/jobs', { body: job('on-a', 'dc1', 'service', service('hello from server a')) });
  [remote, local] = await Promise.all([running1('on-agent'), running1('on-a')]);
  // B learns who reaches the agent's node from the state A wrote when the tunnel opened.
  await until(() => cliB(['alloc', 'fs', remote.ID]), (r) => r.code === 0, 'server B to reach the agent through server A');
}, 120_000);

afterAll(async () => {
  for (const child of [...runningAgents, ...running]) child.kill('SIGKILL');
  const pids = await readFile(pidFile(), 'utf8').catch(() => '');
  for (const pid of pids.split('\n').filter(Boolean).map(Number)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('through a server that does not reach the node', () => {
  it('reads logs and files, signals, and runs exec on the agent node', async () => {
    const { NodeID } = (await viaB.scheduler<Stub>('GET', `/v1/allocation/${remote.ID}`)).body;
    expect(NodeID).toBe((await readFile(path.join(work, 'agent', 'client', 'node-id'), 'utf8')).trim());
    expect(await cliB(['alloc', 'logs', remote.ID])).toMatchObject({ code: 0, stdout: 'hello from the agent\n' });
    expect((await cliB(['alloc', 'fs', remote.ID, 'alloc/logs'])).stdout).toContain('t.stdout.0');
    expect(await cliB(['alloc', 'fs', remote.ID, 'alloc/logs/t.stdout.0'])).toMatchObject({ code: 0, stdout: 'hello from the agent\n' });
    expect(await cliB(['alloc', 'signal', '-s', 'SIGHUP', remote.ID])).toMatchObject({ code: 0 });
    await until(() => cliB(['alloc', 'logs', remote.ID]), (r) => r.stdout === 'hello from the agent\ngot HUP\n', 'the task to log the signal');
    expect(await cliB(['alloc', 'exec', remote.ID, 'sh', '-c', 'cat; exit 4'], 'piped\n')).toMatchObject({ code: 4, stdout: 'piped\n' });
    expect(await cliB(['job', 'action', '-alloc', remote.ID, '-task', 't', 'where'])).toMatchObject({ code: 0, stdout: `action in ${remote.ID}\n` });
  });

  it("reaches the node in server A's own process too", async () => {
    expect(await cliB(['alloc', 'logs', local.ID])).toMatchObject({ code: 0, stdout: 'hello from server a\n' });
    expect(await cliB(['alloc', 'exec', local.ID, 'echo', 'hi'])).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('follows a log until the task ends', async () => {
    const gate = path.join(work, 'gate');
    await viaB.scheduler('POST', '/v1/jobs', { body: job('short', 'remote', 'batch', `echo first; while [ ! -e ${gate} ]; do sleep 0.1; done; echo last`) });
    const batch = await running1('short');
    const follow = spawn(process.execPath, [SVC_BIN, 'alloc', 'logs', '-f', '-stdout', batch.ID], { env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: b.url, SVC_TOKEN: token, NO_COLOR: '1' } });
    let out = '';
    follow.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => follow.on('close', (code) => resolve(code)));
    await until(async () => out, (o) => o === 'first\n', 'the follow to print the first line');
    await appendFile(gate, '');
    expect(await exited).toBe(0);
    expect(out).toBe('first\nlast\n');
  });

  it('says the node is not connected once the agent is gone', async () => {
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
    const gone = `node ${remote.NodeID} of allocation ${remote.ID} is not connected to any server`;
    const logs = await until(() => cliB(['alloc', 'logs', remote.ID]), (r) => r.code === 1, 'server B to learn the agent is gone');
    expect(logs.stderr).toContain(gone);
    expect((await cliB(['alloc', 'exec', remote.ID, 'true'])).stderr).toContain(gone);

    await viaB.scheduler('DELETE', '/v1/job/on-a?purge=true');
    await stopServer(b);
    await stopServer(a);
  });
});
