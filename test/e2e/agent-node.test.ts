/**
 * `svc agent`: a node without a server, as a real child process, against `svc server -client=false`. It
 * joins with a management token, runs a raw_exec batch job (without the token in the task's environment),
 * registers again with its secret alone after a restart, stops with exit 0 on SIGTERM, moves past a server
 * that is not there, connects with a client certificate to a server that requires one, and refuses bad
 * flags with a usage error naming the flag.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import type { ClientTls } from '../../src/api/http/tls.js';
import { makeTempDir, runCli, SVC_BIN } from '../support/server.js';
import { running, spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { runningAgents, spawnAgent, stopAgent } from '../support/spawn-agent.js';
import { writeTestPki, type TestPkiFiles } from '../support/tls.js';
import { alive, until } from '../support/wait.js';

interface NodeView {
  ID: string;
  Name: string;
  Status: string;
  HTTPAddr: string;
  Events: Array<{ Message: string }>;
}

let dir: string;
let home: string;
let pki: TestPkiFiles;
let server: SpawnedServer;
let api: ApiClient;

beforeAll(async () => {
  dir = await makeTempDir('svc-e2e-agent-');
  home = await makeTempDir('svc-e2e-agent-home-');
  pki = await writeTestPki(dir);
  server = await spawnServer(['-dev', '-port=0', '-client=false', '-log-level=warn'], { HOME: home });
  api = new ApiClient({ address: server.url, token: server.rootToken });
});

afterEach(() => {
  for (const child of runningAgents) child.kill('SIGKILL');
});

afterAll(async () => {
  for (const child of [...runningAgents, ...running]) child.kill('SIGKILL');
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

const env = () => ({ HOME: home });
const nodeId = (dataDir: string) => readFile(path.join(dataDir, 'client', 'node-id'), 'utf8').then((t) => t.trim());
const readyNode = (client: ApiClient, id: string, what: string) =>
  until(() => client.scheduler<NodeView>('GET', `/v1/node/${id}`).then((r) => r.body), (n) => n.Status === 'ready', what);

/** An address where nothing listens: the port of a server that was started and stopped. */
async function deadServer(): Promise<string> {
  const gone = await spawnServer(['-dev', '-port=0', '-client=false', '-log-level=warn'], { HOME: home });
  await stopServer(gone);
  return gone.url;
}

describe('svc agent', () => {
  it('joins with a token, runs a batch job, re-registers with its secret after a restart, and stops with exit 0', async () => {
    const dataDir = path.join(dir, 'node-a');
    const envFile = path.join(dir, 'task-env');
    const first = await spawnAgent([`-servers=${server.url}`, `-data-dir=${dataDir}`, '-node=remote-a', '-log-level=warn'], { ...env(), SVC_TOKEN: server.rootToken! });
    const id = await nodeId(dataDir);
    expect(first.stdout()).toContain(`Servers: ${server.url}`);
    expect(first.stdout()).toContain(`Node: remote-a (${id.slice(0, 8)}), datacenter dc1, drivers: raw_exec`);
    const node = await readyNode(api, id, 'the agent node to be ready');
    expect(node.Name).toBe('remote-a');
    // Its own host, not the server's address.
    expect(node.HTTPAddr).not.toBe(new URL(server.url).host);
    expect(node.HTTPAddr).toMatch(/^[\d.]+$/);

    const job = {
      ID: 'on-agent',
      Type: 'batch',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', `env > ${envFile}`] } }] }],
    };
    await api.scheduler('POST', '/v1/jobs', { body: { Job: job } });
    const [alloc] = await until(
      () => api.scheduler<Array<{ NodeID: string; ClientStatus: string }>>('GET', '/v1/job/on-agent/allocations').then((r) => r.body),
      (l) => l[0]?.ClientStatus === 'complete',
      'the batch allocation to complete on the agent',
    );
    expect(alloc.NodeID).toBe(id);
    const taskEnv = await readFile(envFile, 'utf8');
    expect(taskEnv).toContain('NOMAD_ALLOC_ID=');
    expect(taskEnv, 'the management token stays out of the tasks').not.toContain('SVC_TOKEN');

    expect(await stopAgent(first)).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain('==> Caught SIGTERM, shutting down');
    expect(first.stdout()).toContain('==> svc agent stopped');

    // No token this time: the node's secret, kept in the data dir, registers it.
    const again = await spawnAgent([`-servers=${server.url}`, `-data-dir=${dataDir}`, '-node=remote-a', '-log-level=warn'], env());
    const back = await until(
      () => api.scheduler<NodeView>('GET', `/v1/node/${id}`).then((r) => r.body),
      (n) => n.Status === 'ready' && n.Events.length > 1,
      'the node to register again',
    );
    expect(back.Events.at(-1)?.Message).toMatch(/^Node re-?registered/);
    expect(again.stderr()).toBe('');
    expect(await stopAgent(again)).toEqual({ code: 0, signal: null });
  });

  it('leaves its tasks running when stopped, and finds them again when restarted', async () => {
    const dataDir = path.join(dir, 'node-h');
    const pidFile = path.join(dir, 'service.pid');
    const args = [`-servers=${server.url}`, `-data-dir=${dataDir}`, '-dc=dc-keep', '-log-level=warn'];
    let agent = await spawnAgent([...args, '-token', server.rootToken!], env());
    const job = {
      ID: 'kept',
      Datacenters: ['dc-keep'],
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 's', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', `echo $$ > ${pidFile}; exec sleep 300`] }, KillTimeout: 1_000_000_000 }] }],
    };
    await api.scheduler('POST', '/v1/jobs', { body: { Job: job } });
    type Stub = { ID: string; ClientStatus: string; TaskStates: Record<string, { Restarts: number }> | null };
    const [alloc] = await until(() => api.scheduler<Stub[]>('GET', '/v1/job/kept/allocations').then((r) => r.body), (l) => l[0]?.ClientStatus === 'running', 'the service to run');
    const pid = Number((await until(() => readFile(pidFile, 'utf8'), (t) => t.trim() !== '', 'the pid file')).trim());
    const id = await nodeId(dataDir);
    try {
      expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
      expect(alive(pid), 'the task outlives the agent').toBe(true);
      agent = await spawnAgent(args, env());
      await until(() => api.scheduler<NodeView>('GET', `/v1/node/${id}`).then((r) => r.body), (n) => n.Events.length > 1, 'the node to register again');
      const after = (await api.scheduler<Stub>('GET', `/v1/allocation/${alloc.ID}`)).body;
      expect([after.ClientStatus, after.TaskStates?.s.Restarts]).toEqual(['running', 0]);
      // Stopping the job stops the very process started before the restart: the agent found it again.
      await api.scheduler('DELETE', '/v1/job/kept');
      await until(() => Promise.resolve(alive(pid)), (a) => !a, 'the restored task to stop with its job');
      expect(Number((await readFile(pidFile, 'utf8')).trim()), 'no second process was started').toBe(pid);
      expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('refuses to start a node the servers do not know without a token, saying which flag gives one', async () => {
    const dataDir = path.join(dir, 'node-b');
    const result = await runCli(['agent', `-servers=${server.url}`, `-data-dir=${dataDir}`], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the servers do not know node ${await nodeId(dataDir)} yet, and a node's first registration needs a management token: pass -token (or set SVC_TOKEN)`);
    expect(result.stdout).toBe('');
  });

  it('moves past a server that is not there to the next of -servers', async () => {
    const dead = await deadServer();
    const dataDir = path.join(dir, 'node-c');
    const agent = await spawnAgent([`-servers=${dead},${server.url}`, `-data-dir=${dataDir}`, '-token', server.rootToken!, '-log-level=warn'], env());
    await readyNode(api, await nodeId(dataDir), 'the node to register through the second server');
    expect(agent.stderr()).toContain(`server ${dead} failed`);
    expect(agent.stderr()).toContain(`using ${server.url}`);
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
  });

  it('stops on SIGTERM while the server it reached has not answered its registration', async () => {
    const sockets: net.Socket[] = [];
    let connected: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const silent = net.createServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const child = spawn(process.execPath, [SVC_BIN, 'agent', `-servers=http://127.0.0.1:${port}`, `-data-dir=${path.join(dir, 'node-g')}`], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env() } });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await reached;
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toBe('==> Caught SIGTERM, shutting down\n==> svc agent stopped\n');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('connects with a client certificate to a server that requires one', async () => {
    const tlsServer = await spawnServer(
      ['-dev', '-port=0', '-client=false', '-log-level=warn', `-tls-cert=${pki.serverCert}`, `-tls-key=${pki.serverKey}`, `-tls-client-ca=${pki.caCert}`, '-tls-require-client-cert'],
      { HOME: home },
    );
    try {
      const dataDir = path.join(dir, 'node-d');
      const tls: ClientTls = { caCert: pki.caCert, clientCert: pki.clientCert, clientKey: pki.clientKey };
      const agent = await spawnAgent(
        [`-servers=${tlsServer.url}`, `-data-dir=${dataDir}`, '-token', tlsServer.rootToken!, `-ca-cert=${pki.caCert}`, `-client-cert=${pki.clientCert}`, `-client-key=${pki.clientKey}`, '-log-level=warn'],
        env(),
      );
      await readyNode(new ApiClient({ address: tlsServer.url, token: tlsServer.rootToken, tls }), await nodeId(dataDir), 'the node to register over mutual TLS');
      expect(agent.stderr()).toBe('');
      expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
    } finally {
      await stopServer(tlsServer);
    }
  });

  it('refuses bad flags with a usage error naming the flag', async () => {
    const dataDir = path.join(dir, 'node-e');
    const usage = async (args: string[], message: string, extraEnv: Record<string, string> = {}) => {
      const result = await runCli(['agent', ...args], { ...env(), ...extraEnv });
      expect([result.code, result.stderr], args.join(' ')).toEqual([1, expect.stringContaining(message)]);
      expect(result.stderr).toContain('Usage: svc agent');
    };
    await usage([`-data-dir=${dataDir}`], '-servers is required');
    await usage([`-servers=ftp://127.0.0.1:4646`, `-data-dir=${dataDir}`], 'invalid -servers address "ftp://127.0.0.1:4646": expected http(s)://host:port');
    await usage([`-data-dir=${dataDir}`], 'invalid -servers address "127.0.0.1:4646"', { SVC_SERVERS: '127.0.0.1:4646' });
    await usage([`-servers=${server.url}`], '-data-dir is required');
    await usage([`-servers=${server.url.replace('http:', 'https:')}`, `-data-dir=${dataDir}`, `-client-cert=${pki.clientCert}`], 'a client certificate needs its key');
    const serverDir = path.join(dir, 'server-data');
    await mkdir(serverDir);
    await writeFile(path.join(serverDir, 'keyring.json'), '{}');
    await usage([`-servers=${server.url}`, `-data-dir=${serverDir}`], `-data-dir ${serverDir} is a server's data dir`);
    // A server started with a seal key keeps its keyring sealed, under another name.
    const sealedDir = path.join(dir, 'sealed-server-data');
    await mkdir(sealedDir);
    await writeFile(path.join(sealedDir, 'keyring.sealed'), 'sealed');
    await usage([`-servers=${server.url}`, `-data-dir=${sealedDir}`], `-data-dir ${sealedDir} is a server's data dir`);
  });

  it('reads its servers from the client block of -config, which `svc server` refuses', async () => {
    const dataDir = path.join(dir, 'node-f');
    const config = path.join(dir, 'agent.hcl');
    await writeFile(config, `data_dir = "${dataDir}"\nclient {\n  servers = ["${server.url}"]\n  meta {\n    rack = "r2"\n  }\n}\n`);
    const agent = await spawnAgent([`-config=${config}`, '-token', server.rootToken!, '-log-level=warn'], env());
    const node = await readyNode(api, await nodeId(dataDir), 'the node configured by file to register');
    expect((await api.scheduler<{ Meta: Record<string, string> }>('GET', `/v1/node/${node.ID}`)).body.Meta).toEqual({ rack: 'r2' });
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });

    const refused = await runCli(['server', '-dev', '-port=0', `-config=${config}`], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`client.servers in ${config} is for \`svc agent\``);

    const disabled = path.join(dir, 'disabled.hcl');
    await writeFile(disabled, `client {\n  enabled = false\n  servers = ["${server.url}"]\n}\n`);
    const noNode = await runCli(['agent', `-config=${disabled}`, `-data-dir=${dataDir}`], env());
    expect([noNode.code, noNode.stderr]).toEqual([1, expect.stringContaining(`client.enabled = false in ${disabled}: \`svc agent\` is a node`)]);
  });
});
