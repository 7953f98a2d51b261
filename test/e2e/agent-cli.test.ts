/**
 * `svc agent-info` and `svc monitor` through the built bin/svc, against a real server: the stats sections
 * of GET /v1/agent/self, and the log stream of GET /v1/agent/monitor (debug lines of an info server,
 * JSON lines, the ACL, the end of the stream when the server stops).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, SVC_BIN, type TestServer } from '../support/server.js';
import { statusOf, until } from '../support/wait.js';
import { agentMonitor } from '../../src/api/agent.js';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.close();
});

/** bin/svc monitor as a child process, its output collected as it comes. */
function startMonitor(server: TestServer, args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SVC_BIN, 'monitor', ...args], {
    env: { PATH: process.env.PATH, SVC_ADDR: server.url, SVC_TOKEN: server.rootToken, NO_COLOR: '1', HOME: '/nonexistent' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

const registerJob = (server: TestServer, id: string) =>
  server.client().scheduler('POST', '/v1/jobs', {
    body: { Job: { ID: id, Name: id, Type: 'batch', Datacenters: ['nowhere'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] } },
  });

describe('svc agent-info', () => {
  it('prints the client, nomad and runtime sections, keys sorted', async () => {
    const r = await srv.cli(['agent-info']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const nodeId = (await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/nodes')).body[0].ID;
    const port = new URL(srv.url).port;
    const sections = r.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('  '));
    expect(sections).toEqual(['client', 'nomad', 'runtime']);
    expect(r.stdout).toContain(`client\n  heartbeat_ttl = 10s\n  known_servers = 127.0.0.1:${port}\n  node_id = ${nodeId}\n  num_allocations = 0\n`);
    expect(r.stdout).toContain(`nomad\n  bootstrap = true\n  known_regions = 1\n  leader = true\n  leader_addr = 127.0.0.1:${port}\n  server = true\n`);
    expect(r.stdout).toMatch(/runtime\n {2}arch = \S+\n {2}cpu_count = \d+\n {2}kernel\.name = linux\n {2}version = v\d+\.\d+\.\d+\n$/);
  });

  it('-json prints the answer of GET /v1/agent/self', async () => {
    const r = await srv.cli(['agent-info', '-json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await srv.client().scheduler('GET', '/v1/agent/self')).body);
  });
});

describe('svc monitor', () => {
  it('streams the server\'s lines from -log-level up: debug lines of an info server', async () => {
    const m = startMonitor(srv, ['-log-level=debug']);
    try {
      // Each registration is evaluated, and the broker logs every evaluation at debug.
      await until(
        async () => {
          await registerJob(srv, 'monitored');
          return m.stdout();
        },
        (out) => /\[DEBUG\] (?:[\w.]+: )?evaluation \S+ \(job-register, job monitored\)/.test(out),
        'the evaluation\'s debug line',
      );
      expect(m.stderr()).toBe('');
    } finally {
      m.child.kill('SIGINT');
      expect(await m.exited).toBe(0);
    }
  });

  it('-json prints hclog\'s JSON lines', async () => {
    const m = startMonitor(srv, ['-log-level=DEBUG', '-json']);
    try {
      const out = await until(
        async () => {
          await registerJob(srv, 'monitored-json');
          return m.stdout();
        },
        (text) => text.includes('job monitored-json'),
        'a JSON line',
      );
      const line = out.split('\n').find((l) => l.includes('job monitored-json'))!;
      expect(JSON.parse(line)).toMatchObject({ '@level': 'debug', '@message': expect.stringContaining('job monitored-json'), '@timestamp': expect.stringMatching(/^\d{4}-/) });
    } finally {
      m.child.kill('SIGINT');
      await m.exited;
    }
  });

  it('needs a management token; an unknown level is a 400', async () => {
    const token = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } }))?.auth?.client_token);
    expect((await statusOf(srv.client(token).scheduler('GET', '/v1/agent/monitor'))).code).toBe(403);
    expect(await statusOf(srv.client().scheduler('GET', '/v1/agent/monitor', { query: { log_level: 'loud' } }))).toEqual({ code: 400, message: expect.stringContaining('Unknown log level: loud') });
    const r = await srv.cli(['monitor', '-log-level=loud']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error starting monitor: Unexpected response code: 400 (Unknown log level: loud)');
  });

  it('the stream ends cleanly when the server stops; the CLI says the remote side ended it', async () => {
    const other = await startTestServer({ client: false });
    let closed = false;
    try {
      const frames = await agentMonitor(other.client(), { logLevel: 'debug' });
      const m = startMonitor(other, ['-log-level=debug']);
      const seen: string[] = [];
      const reading = (async () => {
        for await (const f of frames) seen.push(f.data.toString());
      })();
      await until(async () => {
        await registerJob(other, 'last');
        return seen.join('') + m.stdout();
      }, () => seen.join('').includes('job last') && m.stdout().includes('job last'), 'a line before the stop, on both');
      await other.close();
      closed = true;
      // The iteration ends without an error: the server ended the body instead of cutting it.
      await expect(reading).resolves.toBeUndefined();
      expect(await m.exited).toBe(1);
      expect(m.stderr()).toBe('Remote side ended the monitor! This usually means that the\nremote side has exited or crashed.\n');
    } finally {
      if (!closed) await other.close();
    }
  });
});
