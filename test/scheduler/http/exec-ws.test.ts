/**
 * Exec over WebSocket, frame by frame, as a third-party client speaks it: the handshake and header
 * tokens, every refusal (HTTP before the upgrade, close frames after), every frame kind, pipes and a real
 * pseudo-terminal, large and binary data, many sessions at once, and that nothing is left running when
 * the client, the allocation or the server goes away.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ExecDriver } from '../../../src/client/drivers/exec.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';
import { execPath, execWs, stdinFrame } from '../../support/exec-ws.js';
import { pidsWithArg } from '../../support/procs.js';

let srv: TestServer;
let allocId: string;

interface AllocStub {
  ID: string;
  ClientStatus: string;
  TaskStates?: Record<string, { State: string }>;
}

const task = (name: string, script: string, driver = 'raw_exec') => ({
  Name: name,
  Driver: driver,
  Config: { command: '/bin/sh', args: ['-c', script] },
  KillTimeout: 2_000_000_000,
  Resources: { CPU: 20, MemoryMB: 16 },
});

async function runJob(id: string, tasks: unknown[], opts: { type?: string; namespace?: string } = {}): Promise<string> {
  const c = srv.client();
  const Job = { ID: id, Type: opts.type ?? 'service', Namespace: opts.namespace, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: tasks }] };
  await c.scheduler('POST', '/v1/jobs', { body: { Job } });
  const want = opts.type === 'batch' ? 'complete' : 'running';
  const q = opts.namespace ? { namespace: opts.namespace } : undefined;
  // An allocation is running once one of its tasks is: wait for every task, as a slow start of one is no failure.
  const allRunning = (a: AllocStub) => want !== 'running' || (Object.keys(a.TaskStates ?? {}).length === tasks.length && Object.values(a.TaskStates ?? {}).every((s) => s.State === 'running'));
  const list = await until(() => c.scheduler<AllocStub[]>('GET', `/v1/job/${id}/allocations`, { query: q }).then((r) => r.body), (l) => l.length === 1 && l[0].ClientStatus === want && allRunning(l[0]), `${id} ${want}`);
  return list[0].ID;
}

async function tokenWith(policy: string): Promise<string> {
  const c = srv.client();
  const name = `p-${randomBytes(4).toString('hex')}`;
  await c.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy } });
  const answer = await c.secrets('POST', 'auth/token/create', { body: { policies: [name] } });
  return String(answer?.auth?.client_token);
}

const exec = (command: string[], q: Record<string, string | boolean> = {}, opts: Parameters<typeof execWs>[2] = {}) =>
  execWs(srv.url, execPath(allocId, command, { task: 't', ...q }), { token: srv.rootToken, ...opts });

beforeAll(async () => {
  srv = await startTestServer({ execHeartbeatMs: 250 });
  allocId = await runJob('shell', [task('t', 'exec sleep 300'), task('u', 'exec sleep 300')]);
});
afterAll(async () => {
  await srv?.close();
});

describe('frames', () => {
  it('carries stdout and stderr, closes each stream, then the exit code, then a normal close', async () => {
    const r = await exec(['/bin/sh', '-c', 'echo out; echo err >&2; exit 3']);
    expect(r.stdout.toString()).toBe('out\n');
    expect(r.stderr.toString()).toBe('err\n');
    expect(r.frames).toContainEqual({ stdout: { close: true } });
    expect(r.frames).toContainEqual({ stderr: { close: true } });
    expect(r.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 3 } });
    expect(r.closeCode).toBe(1000);
  });

  it('sends exit code 0 as an empty result, as Go omits a zero', async () => {
    const r = await exec(['true']);
    expect(r.exitFrame).toBe('{"exited":true,"result":{}}');
    expect(r.exitCode).toBe(0);
  });

  it('reports a command ended by a signal with 128+n and the signal', async () => {
    const r = await exec(['/bin/sh', '-c', 'kill -TERM $$']);
    expect(r.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 143, signal: 15 } });
  });

  it('runs in the task environment and working directory, with the arguments untouched', async () => {
    const r = await exec(['/bin/sh', '-c', 'echo "$NOMAD_TASK_NAME $NOMAD_ALLOC_ID"; pwd; printf "[%s]" "$@"', 'sh', '-la', 'a b', '--x=1']);
    const [names, cwd, args] = r.stdout.toString().split('\n');
    expect(names).toBe(`t ${allocId}`);
    expect(cwd).toMatch(new RegExp(`/${allocId}/t$`));
    expect(args).toBe('[-la][a b][--x=1]');
  });

  it('passes stdin through byte for byte, and its close ends the input', async () => {
    const input = randomBytes(1024 * 1024);
    const chunks = [];
    for (let at = 0; at < input.length; at += 32 * 1024) chunks.push(stdinFrame(input.subarray(at, at + 32 * 1024)));
    const r = await exec(['cat'], {}, { send: [...chunks, { stdin: { close: true } }] });
    expect(r.exitCode).toBe(0);
    expect(createHash('sha256').update(r.stdout).digest('hex')).toBe(createHash('sha256').update(input).digest('hex'));
  });

  it('streams 10 MB of output whole, in frames of at most 64 KiB', async () => {
    const size = 10 * 1024 * 1024;
    const r = await exec(['/bin/sh', '-c', `yes 0123456789abcde | head -c ${size}`]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBe(size);
    expect(r.stdout.toString().replaceAll('0123456789abcde\n', '')).toBe('0123456789abcde\n'.slice(0, size % 16));
    const sizes = r.frames.filter((f) => (f.stdout as { data?: string })?.data).map((f) => Buffer.from((f.stdout as { data: string }).data, 'base64').length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
  });

  it('loses nothing when the client reads slower than the command writes and the command exits meanwhile', async () => {
    const size = 6 * 1024 * 1024;
    for (const tty of [false, true]) {
      const r = await exec(['/bin/sh', '-c', `head -c ${size} /dev/zero | tr '\\0' x`], { tty }, {
        onOpen: (ws) => {
          // The client stops reading for a while: the server must hold the command back, not drop its output.
          const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
          socket.pause();
          setTimeout(() => socket.resume(), 1500);
        },
      });
      expect({ tty, exit: r.exitCode, length: r.stdout.length }).toEqual({ tty, exit: 0, length: size });
      expect(r.stdout.every((b) => b === 0x78)).toBe(true);
    }
  });

  it('accepts heartbeats and answers nothing to them', async () => {
    const r = await exec(['cat'], {}, { send: [{}, {}, stdinFrame('after heartbeats\n'), {}, { stdin: { close: true } }] });
    expect(r.stdout.toString()).toBe('after heartbeats\n');
    expect(r.exitCode).toBe(0);
  });

  it('closes with 1008 and the reason on a frame that is not JSON, or a binary one', async () => {
    const text = await exec(['cat'], {}, { send: ['not json'] });
    expect(text.closeCode).toBe(1008);
    expect(text.closeReason).toContain('frame is not JSON');
    const binary = await exec(['cat'], {}, { onOpen: (ws) => ws.send(Buffer.from([1, 2, 3]), { binary: true }) });
    expect(binary.closeCode).toBe(1008);
    expect(binary.closeReason).toContain('JSON text frames');
    const size = await exec(['cat'], {}, { send: [{ tty_size: { height: 'tall', width: 80 } }] });
    expect(size.closeCode).toBe(1008);
    expect(size.closeReason).toContain('tty_size');
  });
});

describe('a real terminal', () => {
  it('starts at the size of the first tty_size frame and follows resizes', async () => {
    const r = await exec(['/bin/sh', '-c', 'stty size; tty; read line; stty size'], { tty: true }, {
      send: [{ tty_size: { height: 30, width: 100 } }],
      onOpen: async (ws, live) => {
        await live.waitForStdout('/dev/pts/');
        ws.send(JSON.stringify({ tty_size: { height: 40, width: 120 } }));
        ws.send(JSON.stringify(stdinFrame('go\r')));
      },
    });
    const text = r.stdout.toString();
    expect(text).toMatch(/^30 100\r\n\/dev\/pts\/\d+\r\n/);
    expect(text).toContain('40 120');
    expect(r.exitCode).toBe(0);
    // A terminal merges stderr into stdout.
    expect(r.frames.some((f) => 'stderr' in f)).toBe(false);
  });

  it('runs an interactive shell: typed input is echoed, Ctrl-C interrupts the foreground command only', async () => {
    const r = await exec(['/bin/sh', '-i'], { tty: true }, {
      send: [{ tty_size: { height: 24, width: 80 } }],
      onOpen: async (ws, live) => {
        ws.send(JSON.stringify(stdinFrame('echo $((6*7))\r')));
        await live.waitForStdout('42');
        ws.send(JSON.stringify(stdinFrame('sleep 100\r')));
        await new Promise((resolve) => setTimeout(resolve, 200));
        ws.send(JSON.stringify(stdinFrame('\x03')));
        ws.send(JSON.stringify(stdinFrame('echo alive-$((1+1))\r')));
        await live.waitForStdout('alive-2');
        ws.send(JSON.stringify(stdinFrame('exit 5\r')));
      },
    });
    expect(r.stdout.toString()).toContain('echo $((6*7))');
    expect(r.exitCode).toBe(5);
  });

  it('delivers the last of the output of a command that exits at once (no tail lost at hang-up)', async () => {
    const size = 1_000_000;
    const runs = await Promise.all(Array.from({ length: 6 }, () => exec(['/bin/sh', '-c', `head -c ${size} /dev/zero | tr '\\0' y`], { tty: true })));
    expect(runs.map((r) => [r.exitCode, r.stdout.length])).toEqual(runs.map(() => [0, size]));
  });

  it('treats stdin close as end of input (Ctrl-D)', async () => {
    const r = await exec(['cat'], { tty: true }, { send: [stdinFrame('line\r'), { stdin: { close: true } }] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.toString()).toContain('line');
  });
});

describe('refusals', () => {
  it('refuses before the upgrade with HTTP statuses when the token is in the header', async () => {
    const cases: Array<[string, string | undefined, number, string]> = [
      [execPath(allocId, ['ls'], { task: 't' }), '', 403, 'Permission denied'],
      [execPath(allocId, ['ls'], { task: 't' }), 'not-a-token', 403, 'ACL token not found'],
      [execPath(allocId, ['ls'], {}), undefined, 400, 'must provide task name'],
      [`/v1/client/allocation/${allocId}/exec?task=t`, undefined, 400, 'command is not present'],
      [`/v1/client/allocation/${allocId}/exec?task=t&command=${encodeURIComponent('[ls')}`, undefined, 400, 'command must be a JSON array'],
      [`/v1/client/allocation/${allocId}/exec?task=t&command=${encodeURIComponent('"ls"')}`, undefined, 400, 'command must be a JSON array of strings'],
      [`/v1/client/allocation/${allocId}/exec?task=t&command=${encodeURIComponent('[]')}`, undefined, 400, 'command is not present'],
      [execPath(allocId, ['ls'], { task: 'nope' }), undefined, 400, `task nope not found in allocation ${allocId}`],
      [execPath(allocId, ['ls'], { task: 't', tty: 'maybe' }), undefined, 400, 'field "tty" must be a boolean'],
      [execPath(allocId, ['no-such-command-here'], { task: 't' }), undefined, 400, 'exec: "no-such-command-here": executable file not found in $PATH'],
      [execPath('00000000-0000-0000-0000-000000000000', ['ls'], { task: 't' }), undefined, 404, 'allocation 00000000-0000-0000-0000-000000000000 not found'],
      [execPath(allocId.slice(0, 8), ['ls'], { task: 't' }), undefined, 400, 'is not a full allocation UUID'],
      ['/v1/client/allocation/x/nothing-here', undefined, 404, 'no WebSocket endpoint at /v1/client/allocation/x/nothing-here'],
      ['/v1/client/allocation/x/nothing-here', '', 403, 'Permission denied'],
    ];
    for (const [path, token, status, message] of cases) {
      const r = await execWs(srv.url, path, { token: token ?? srv.rootToken });
      expect({ path, status: r.httpStatus, body: r.httpBody }).toEqual({ path, status, body: expect.stringContaining(message) });
    }
  });

  it('refuses after the upgrade with close frames when the token comes in the handshake frame', async () => {
    const cases: Array<[string, string, number, string]> = [
      [execPath(allocId, ['ls'], { task: 't' }), 'not-a-token', 1008, 'ACL token not found'],
      [execPath(allocId, ['ls'], { task: 'nope' }), srv.rootToken, 1008, `task nope not found in allocation ${allocId}`],
      [execPath('00000000-0000-0000-0000-000000000000', ['ls'], { task: 't' }), srv.rootToken, 1008, 'not found'],
    ];
    for (const [path, token, code, reason] of cases) {
      const r = await execWs(srv.url, path, { token, handshake: true });
      expect({ path, code: r.closeCode, reason: r.closeReason, exit: r.exitFrame }).toEqual({ path, code, reason: expect.stringContaining(reason), exit: undefined });
    }
  });

  it('checks the handshake frame: version 1 only, and the same token as a header one', async () => {
    const url = srv.url.replace('http', 'ws') + execPath(allocId, ['true'], { task: 't', ws_handshake: true });
    const close = (ws: WebSocket) => new Promise<[number, string]>((resolve) => ws.on('close', (c, r) => resolve([c, r.toString()])));
    const v2 = new WebSocket(url);
    v2.on('open', () => v2.send(JSON.stringify({ version: 2, auth_token: srv.rootToken })));
    expect(await close(v2)).toEqual([1008, 'unsupported handshake version 2: only version 1 is spoken']);
    const mismatch = new WebSocket(url, { headers: { 'X-Svc-Token': srv.rootToken } });
    mismatch.on('open', () => mismatch.send(JSON.stringify({ version: 1, auth_token: 'other' })));
    expect(await close(mismatch)).toEqual([1008, 'the handshake token differs from the token in the request header']);
    const garbage = new WebSocket(url);
    garbage.on('open', () => garbage.send('hello'));
    expect((await close(garbage))[0]).toBe(1008);
    const ok = await execWs(srv.url, execPath(allocId, ['/bin/sh', '-c', 'exit 4'], { task: 't' }), { token: srv.rootToken, handshake: true });
    expect(ok.exitCode).toBe(4);
  });

  it('needs alloc-exec, and alloc-node-exec too for a task without file-system isolation (raw_exec)', async () => {
    const execOnly = await tokenWith('namespace "default" { capabilities = ["alloc-exec"] }');
    const both = await tokenWith('namespace "default" { capabilities = ["alloc-exec", "alloc-node-exec"] }');
    const reader = await tokenWith('namespace "default" { policy = "read" }');
    const elsewhere = await tokenWith('namespace "other" { capabilities = ["alloc-exec", "alloc-node-exec"] }');
    const path = execPath(allocId, ['/bin/sh', '-c', 'echo allowed'], { task: 't' });
    for (const token of [execOnly, reader, elsewhere]) {
      expect((await execWs(srv.url, path, { token })).httpStatus).toBe(403);
      const viaHandshake = await execWs(srv.url, path, { token, handshake: true });
      expect([viaHandshake.closeCode, viaHandshake.closeReason]).toEqual([1008, 'Permission denied']);
    }
    expect((await execWs(srv.url, path, { token: both })).stdout.toString()).toBe('allowed\n');
  });

  it('says a plain GET needs the WebSocket upgrade', async () => {
    const answer = await srv.client().request('GET', execPath(allocId, ['ls'], { task: 't' }));
    expect(answer.status).toBe(400);
    expect(answer.body.toString()).toContain('speaks WebSocket');
  });

  it('refuses a task that is not running', async () => {
    const done = await runJob('finished', [task('t', 'exit 0')], { type: 'batch' });
    const r = await execWs(srv.url, execPath(done, ['ls'], { task: 't' }), { token: srv.rootToken });
    expect([r.httpStatus, r.httpBody]).toEqual([404, 'task "t" is not running.']);
  });
});

describe('sessions', () => {
  it('runs many sessions at once, each with its own output and exit code', async () => {
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => exec(['/bin/sh', '-c', `echo session-${i}; exit ${i}`], { tty: i % 2 === 0 })));
    results.forEach((r, i) => {
      expect(r.stdout.toString().trim()).toBe(`session-${i}`);
      expect(r.exitCode).toBe(i);
    });
  });

  it('runs in the named task of several', async () => {
    const r = await execWs(srv.url, execPath(allocId, ['/bin/sh', '-c', 'echo $NOMAD_TASK_NAME'], { task: 'u' }), { token: srv.rootToken });
    expect(r.stdout.toString()).toBe('u\n');
  });

  it('keeps a quiet session open with heartbeat frames until the command ends', async () => {
    const r = await exec(['/bin/sh', '-c', 'sleep 1.5; echo still-here']);
    expect([r.stdout.toString(), r.exitCode, r.closeCode]).toEqual(['still-here\n', 0, 1000]);
    const beforeOutput = r.frames.slice(0, r.frames.findIndex((f) => 'stdout' in f));
    expect(beforeOutput.length).toBeGreaterThanOrEqual(3);
    expect(beforeOutput.every((f) => Object.keys(f).length === 0)).toBe(true);
  });

  it('kills everything the session started when the client disappears', async () => {
    for (const tty of [false, true]) {
      const marker = String(7_000_000 + Math.floor(Math.random() * 1_000_000));
      let opened!: (ws: WebSocket) => void;
      const socket = new Promise<WebSocket>((resolve) => (opened = resolve));
      const done = exec(['/bin/sh', '-c', `sleep ${marker} & sleep ${marker}`], { tty }, { onOpen: opened });
      const ws = await socket;
      await until(async () => pidsWithArg(marker), (p) => p.length === 2, `two sleeps ${marker}`);
      ws.terminate();
      await done;
      await until(async () => pidsWithArg(marker), (p) => p.length === 0, `no sleep ${marker} left`);
    }
  });

  it('ends with the exit frame when the allocation stops, leaving nothing behind', async () => {
    const alloc = await runJob('stopping', [task('t', 'exec sleep 300')]);
    const marker = String(8_000_000 + Math.floor(Math.random() * 1_000_000));
    const session = execWs(srv.url, execPath(alloc, ['sleep', marker], { task: 't' }), { token: srv.rootToken });
    await until(async () => pidsWithArg(marker), (p) => p.length === 1, `sleep ${marker}`);
    await srv.client().scheduler('POST', `/v1/allocation/${alloc}/stop`);
    const r = await session;
    expect(r.frames.at(-1)).toEqual({ exited: true, result: { exit_code: 137, signal: 9 } });
    expect(r.closeCode).toBe(1000);
    expect(pidsWithArg(marker)).toEqual([]);
  });
});

const execFp = await new ExecDriver().fingerprint();

describe.runIf(execFp.healthy)('inside an exec task', () => {
  it('runs in the task root, its namespaces and its environment', async () => {
    const alloc = await runJob('isolated', [task('t', 'exec sleep 300', 'exec')]);
    const r = await execWs(srv.url, execPath(alloc, ['/bin/sh', '-c', 'echo $NOMAD_TASK_DIR; pwd; test -e /local && echo has-local; test -e /work || echo no-host-dirs; ls /proc | grep -c "^[0-9]"'], { task: 't' }), { token: srv.rootToken });
    const [taskDir, cwd, local, host, pids] = r.stdout.toString().trim().split('\n');
    expect([taskDir, cwd, local, host]).toEqual(['/local', '/', 'has-local', 'no-host-dirs']);
    // Its own pid namespace: the task's init, the task, and this command's few processes.
    expect(Number(pids)).toBeLessThan(10);
    expect(r.exitCode).toBe(0);
    const tty = await execWs(srv.url, execPath(alloc, ['/bin/sh', '-c', 'stty size; echo $TERM'], { task: 't', tty: true }), {
      token: srv.rootToken,
      send: [{ tty_size: { height: 21, width: 77 } }],
    });
    expect([tty.stdout.toString(), tty.exitCode]).toEqual(['21 77\r\nxterm-256color\r\n', 0]);
  });

  it('needs only alloc-exec there, and refuses a command missing from the task root', async () => {
    const alloc = await runJob('isolated-acl', [task('t', 'exec sleep 300', 'exec')]);
    const execOnly = await tokenWith('namespace "default" { capabilities = ["alloc-exec"] }');
    expect((await execWs(srv.url, execPath(alloc, ['true'], { task: 't' }), { token: execOnly })).exitCode).toBe(0);
    const missing = await execWs(srv.url, execPath(alloc, ['/work/nothing'], { task: 't' }), { token: srv.rootToken });
    expect(missing.httpStatus).toBe(400);
  });
});

describe('server shutdown', () => {
  it('closes sessions with 1001 and kills their processes', async () => {
    const own = await startTestServer();
    try {
      const c = own.client();
      await c.scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'j', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [task('t', 'exec sleep 300')] }] } } });
      const [alloc] = await until(() => c.scheduler<AllocStub[]>('GET', '/v1/job/j/allocations').then((r) => r.body), (l) => l.length === 1 && l[0].ClientStatus === 'running', 'running');
      const marker = String(9_000_000 + Math.floor(Math.random() * 900_000));
      const session = execWs(own.url, execPath(alloc.ID, ['sleep', marker], { task: 't' }), { token: own.rootToken });
      await until(async () => pidsWithArg(marker), (p) => p.length === 1, `sleep ${marker}`);
      await own.server.close();
      const r = await session;
      expect([r.closeCode, r.closeReason]).toEqual([1001, 'server shutting down']);
      expect(pidsWithArg(marker)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
