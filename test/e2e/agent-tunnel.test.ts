/**
 * What reaches into a running task, for a node on another machine: `svc agent` joined to `svc server
 * -client=false` keeps a tunnel open to the server, and through it the server answers `alloc logs`
 * (and -f, which ends with the task), `alloc fs`, `alloc signal`, `alloc restart`, the pause state and
 * `alloc exec` (under a terminal too) as it does for its own node. The agent reaches the server through a TCP relay the test can cut: the
 * tunnel opens again and everything keeps working. An agent that is gone is named in a clear error. Over
 * TLS, the agent opens its tunnel with its client certificate where the server requires one of nodes.
 */
import { spawn } from 'node:child_process';
import { appendFile, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir, runCli, SVC_BIN } from '../support/server.js';
import { running, spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { runningAgents, spawnAgent, stopAgent, type SpawnedAgent } from '../support/spawn-agent.js';
import { startPty } from '../support/exec-cli.js';
import { writeTestPki } from '../support/tls.js';
import { alive, until } from '../support/wait.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
  TaskStates: Record<string, { State: string; Restarts: number }> | null;
}

/** A TCP relay to the server whose connections the test can cut, as a NAT or a network failure would. */
interface Relay {
  url: string;
  cut(): void;
  close(): void;
}

async function relayTo(target: string): Promise<Relay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(port), hostname);
    track(inbound);
    track(outbound);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => server.close(),
  };
}

let dir: string;
let home: string;
let server: SpawnedServer;
let relay: Relay;
let agent: SpawnedAgent;
let api: ApiClient;
let service: Stub;
const pidFile = () => path.join(dir, 'pids');
const dataDir = () => path.join(dir, 'agent');

const cli = (args: string[], input?: string) => runCli(args, { HOME: home, SVC_ADDR: server.url, SVC_TOKEN: server.rootToken!, NO_COLOR: '1' }, input);
const startAgent = (extra: string[] = []) => spawnAgent([`-servers=${relay.url}`, `-data-dir=${dataDir()}`, '-log-level=warn', ...extra], { HOME: home });

const job = (id: string, type: string, script: string) => ({
  Job: {
    ID: id,
    Type: type,
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Mode: 'fail' }, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 1_000_000_000 }] }],
  },
});

async function running1(id: string): Promise<Stub> {
  const [alloc] = await until(
    () => api.scheduler<Stub[]>('GET', `/v1/job/${id}/allocations`).then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === 'running',
    `the allocation of ${id} to run on the agent`,
  );
  return alloc;
}

/** The tunnel is open once the server can list the allocation's directory through it. */
const tunnelOpen = (alloc: Stub, what: string) => until(() => cli(['alloc', 'fs', alloc.ID]), (r) => r.code === 0, what);

beforeAll(async () => {
  dir = await makeTempDir('svc-e2e-tunnel-');
  home = await makeTempDir('svc-e2e-tunnel-home-');
  server = await spawnServer(['-dev', '-port=0', '-client=false', '-log-level=warn'], { HOME: home });
  api = new ApiClient({ address: server.url, token: server.rootToken });
  relay = await relayTo(server.url);
  agent = await startAgent(['-token', server.rootToken!]);
  const script = `echo $$ >> ${pidFile()}; trap 'echo got HUP' HUP; echo hello; printf 'greetings\\n' > "$NOMAD_TASK_DIR/greeting.txt"; while true; do sleep 0.1; done`;
  await api.scheduler('POST', '/v1/jobs', { body: job('tunnelled', 'service', script) });
  service = await running1('tunnelled');
  await tunnelOpen(service, 'the agent to open its tunnel');
});

afterAll(async () => {
  for (const child of [...runningAgents, ...running]) child.kill('SIGKILL');
  relay?.close();
  const pids = await readFile(pidFile(), 'utf8').catch(() => '');
  for (const pid of pids.split('\n').filter(Boolean).map(Number)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await stopServer(server);
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('an agent node reached through its tunnel', () => {
  it('answers alloc logs and alloc fs ls, stat and cat', async () => {
    expect(service.NodeID).toBe((await readFile(path.join(dataDir(), 'client', 'node-id'), 'utf8')).trim());
    expect(await cli(['alloc', 'logs', service.ID.slice(0, 8)])).toMatchObject({ code: 0, stdout: 'hello\n' });
    const top = await cli(['alloc', 'fs', service.ID]);
    expect(top.stdout).toMatch(/alloc\/\n.*t\/\n$/);
    expect(await cli(['alloc', 'fs', service.ID, 't/local/greeting.txt'])).toMatchObject({ code: 0, stdout: 'greetings\n' });
    const stat = await cli(['alloc', 'fs', '-stat', service.ID, 't/local/greeting.txt']);
    expect(stat.stdout).toMatch(/-rw-r--r--\s+10 B\s+\S+\s+text\/plain; charset=utf-8\s+greeting.txt/);
    const missing = await cli(['alloc', 'fs', service.ID, 't/local/nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file or directory in the allocation directory: "t/local/nope"');
  });

  it('reads the pause state and the check results of the task', async () => {
    expect((await api.scheduler('GET', `/v1/client/allocation/${service.ID}/pause`, { query: { task: 't' } })).body).toEqual({ ScheduleState: '' });
    expect((await api.scheduler('GET', `/v1/client/allocation/${service.ID}/checks`)).body).toEqual({});
  });

  it('signals and restarts the task', async () => {
    expect(await cli(['alloc', 'signal', '-s', 'SIGHUP', service.ID])).toMatchObject({ code: 0 });
    await until(() => cli(['alloc', 'logs', service.ID]), (r) => r.stdout === 'hello\ngot HUP\n', 'the task to log the signal');
    expect(await cli(['alloc', 'restart', service.ID])).toMatchObject({ code: 0 });
    const after = await until(
      () => api.scheduler<Stub>('GET', `/v1/allocation/${service.ID}`).then((r) => r.body),
      (a) => a.TaskStates?.t.Restarts === 1 && a.TaskStates.t.State === 'running',
      'the task to run again after its restart',
    );
    expect(after.ClientStatus).toBe('running');
    await until(() => cli(['alloc', 'logs', service.ID]), (r) => r.stdout === 'hello\ngot HUP\nhello\n', 'the restarted task to log again');
  });

  it('runs alloc exec in the task, passing stdin and the exit code', async () => {
    expect(await cli(['alloc', 'exec', service.ID, 'echo', 'hi'])).toMatchObject({ code: 0, stdout: 'hi\n' });
    expect(await cli(['alloc', 'exec', service.ID, 'sh', '-c', 'echo to-err >&2; exit 3'])).toMatchObject({ code: 3, stdout: '', stderr: 'to-err\n' });
    expect(await cli(['alloc', 'exec', service.ID, 'sh', '-c', 'cat local/greeting.txt; cat'], 'piped\n')).toMatchObject({ code: 0, stdout: 'greetings\npiped\n' });
    const unknown = await cli(['alloc', 'exec', service.ID, 'no-such-program']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"no-such-program": executable file not found');
  });

  it('runs an interactive shell under a terminal: its size, a resize, and the exit code', async () => {
    const shell = startPty(process.execPath, [SVC_BIN, 'alloc', 'exec', '-i', '-t', service.ID, '/bin/sh'], {
      cols: 101,
      rows: 33,
      env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: server.url, SVC_TOKEN: server.rootToken, NO_COLOR: '1', TERM: 'xterm' },
    });
    try {
      // A round trip first: typed before the shell reads, the next command's output would share a line with its prompt.
      shell.write('echo x$((6*7))y\r');
      await shell.waitFor('x42y');
      shell.write('stty size\r');
      await shell.waitForMatch(/\n33 101\r+\n/);
      shell.resize(120, 40);
      // The new size reaches the remote terminal once the CLI has seen SIGWINCH: ask until it has.
      await until(
        async () => {
          const mark = shell.output().length;
          shell.write('stty size\r');
          return (await shell.waitForMatch(/\n(\d+ \d+)\r+\n/, mark))[1];
        },
        (size) => size === '40 120',
        'stty size to show the resized terminal',
      );
      shell.write('exit 5\r');
      expect(await shell.exited).toBe(5);
    } finally {
      shell.kill();
    }
  });

  it('follows a log with -f until the task ends', async () => {
    const gate = path.join(dir, 'gate');
    await api.scheduler('POST', '/v1/jobs', { body: job('short', 'batch', `echo first; while [ ! -e ${gate} ]; do sleep 0.1; done; echo last`) });
    const batch = await running1('short');
    const follow = spawn(process.execPath, [SVC_BIN, 'alloc', 'logs', '-f', '-stdout', batch.ID], { env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: server.url, SVC_TOKEN: server.rootToken, NO_COLOR: '1' } });
    let out = '';
    follow.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => follow.on('close', (code) => resolve(code)));
    // The follow is under way once it printed the first line; then the task is let go, and the follow ends with it.
    await until(async () => out, (o) => o === 'first\n', 'the follow to print the first line');
    await appendFile(gate, '');
    expect(await exited).toBe(0);
    expect(out).toBe('first\nlast\n');
    expect((await api.scheduler<Stub>('GET', `/v1/allocation/${batch.ID}`)).body.ClientStatus).toBe('complete');
  });

  it('opens the tunnel again when its connection drops, and keeps answering', async () => {
    relay.cut();
    await tunnelOpen(service, 'the tunnel to open again');
    expect(await cli(['alloc', 'exec', service.ID, 'echo', 'again'])).toMatchObject({ code: 0, stdout: 'again\n' });
    expect(await cli(['alloc', 'fs', service.ID, 't/local/greeting.txt'])).toMatchObject({ code: 0, stdout: 'greetings\n' });
  });

  it('answers that a node which is gone is not connected, and serves it again once it is back', async () => {
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
    const gone = `node ${service.NodeID} of allocation ${service.ID} is not connected to any server`;
    const logs = await cli(['alloc', 'logs', service.ID]);
    expect(logs.code).toBe(1);
    expect(logs.stderr).toContain(gone);
    const exec = await cli(['alloc', 'exec', service.ID, 'true']);
    expect(exec.code).toBe(1);
    expect(exec.stderr).toContain(gone);
    expect((await cli(['alloc', 'signal', service.ID])).stderr).toContain(gone);

    agent = await startAgent();
    await tunnelOpen(service, 'the restarted agent to open its tunnel');
    expect(await cli(['alloc', 'exec', service.ID, 'echo', 'back'])).toMatchObject({ code: 0, stdout: 'back\n' });
    await api.scheduler('DELETE', '/v1/job/tunnelled?purge=true');
    await until(() => readFile(pidFile(), 'utf8'), (t) => t.split('\n').filter(Boolean).every((pid) => !alive(Number(pid))), 'the service to stop with its job');
    expect(await stopAgent(agent)).toEqual({ code: 0, signal: null });
  });

  it('opens its tunnel over TLS with a client certificate, where the server requires one of nodes', async () => {
    const pki = await writeTestPki(dir);
    const tlsServer = await spawnServer(
      ['-dev', '-port=0', '-client=false', '-log-level=warn', `-tls-cert=${pki.serverCert}`, `-tls-key=${pki.serverKey}`, `-tls-client-ca=${pki.caCert}`, '-tls-node-client-cert'],
      { HOME: home },
    );
    try {
      const tlsDir = path.join(dir, 'tls-agent');
      const tlsAgent = await spawnAgent(
        [`-servers=${tlsServer.url}`, `-data-dir=${tlsDir}`, '-token', tlsServer.rootToken!, `-ca-cert=${pki.caCert}`, `-client-cert=${pki.clientCert}`, `-client-key=${pki.clientKey}`, '-log-level=warn'],
        { HOME: home },
      );
      const tlsApi = new ApiClient({ address: tlsServer.url, token: tlsServer.rootToken, tls: { caCert: pki.caCert } });
      await tlsApi.scheduler('POST', '/v1/jobs', { body: job('over-tls', 'service', `echo $$ >> ${pidFile()}; while true; do sleep 0.1; done`) });
      const [alloc] = await until(() => tlsApi.scheduler<Stub[]>('GET', '/v1/job/over-tls/allocations').then((r) => r.body), (l) => l[0]?.ClientStatus === 'running', 'the job to run over TLS');
      const tlsCli = (args: string[]) => runCli(args, { HOME: home, SVC_ADDR: tlsServer.url, SVC_TOKEN: tlsServer.rootToken!, SVC_CACERT: pki.caCert, NO_COLOR: '1' });
      const exec = await until(() => tlsCli(['alloc', 'exec', alloc.ID, 'echo', 'over tls']), (r) => r.code === 0, 'exec through the tunnel over TLS');
      expect(exec.stdout).toBe('over tls\n');
      await tlsApi.scheduler('DELETE', '/v1/job/over-tls?purge=true');
      expect(await stopAgent(tlsAgent)).toEqual({ code: 0, signal: null });
      expect(tlsAgent.stderr()).toBe('');
    } finally {
      await stopServer(tlsServer);
    }
  });
});
