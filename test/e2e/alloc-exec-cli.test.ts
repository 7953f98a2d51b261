/**
 * `svc alloc exec` end to end: the built CLI against a real server whose node runs a real raw_exec task.
 * Without a terminal (pipes, as in scripts): exit codes, stdin and its end, binary-safe bytes, stderr,
 * the remote command's own flags, task choice and the server's refusals. In a real pseudo-terminal
 * (node-pty): an interactive shell, the terminal size and its changes, Ctrl-C, the escape sequence, the
 * task prompt, the local terminal restored, and nothing left running remotely when the CLI is killed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';
import { runningAlloc, sleeper, startPty, type PtyRun } from '../support/exec-cli.js';
import { liveProcesses } from '../support/procs.js';

let srv: TestServer;
let home: string;
/** the allocation of the job "exec-test": one group, two tasks (main, side), both sleeping */
let allocId: string;
const ptys: PtyRun[] = [];


beforeAll(async () => {
  srv = await startTestServer();
  home = await makeTempDir('svc-exec-home-');
  allocId = await runningAlloc(srv, { ID: 'exec-test', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('main'), sleeper('side')] }] });
});

afterEach(() => {
  for (const p of ptys.splice(0)) p.kill();
});

afterAll(async () => {
  await srv?.close();
  await rm(home, { recursive: true, force: true });
});

/** Runs bin/svc with bytes on stdin, keeping stdout as bytes. */
function cliBytes(args: string[], input: Buffer): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr }));
    child.stdin.end(input);
  });
}

const ptyEnv = () => ({ PATH: process.env.PATH, HOME: home, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1', TERM: 'xterm' });

/** The CLI itself in a fresh pseudo-terminal. */
function svcInPty(args: string[], size = { cols: 101, rows: 33 }): PtyRun {
  const p = startPty(process.execPath, [SVC_BIN, ...args], { ...size, env: ptyEnv() });
  ptys.push(p);
  return p;
}

describe('svc alloc exec without a terminal', () => {
  it('exits with the remote command\'s exit code', async () => {
    const r = await srv.cli(['alloc', 'exec', '-task', 'main', allocId.slice(0, 8), 'sh', '-c', 'exit 7']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(7);
  });

  it('feeds piped stdin to the command and ends it, so a shell reading a script exits', async () => {
    const r = await srv.cli(['alloc', 'exec', '-task', 'main', allocId, 'sh'], { input: 'echo piped-$((6*7))\nls /\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^piped-42\n/);
    expect(r.stdout).toMatch(/^proc$/m);
  });

  it('carries 1 MB of binary stdin through cat unchanged', async () => {
    const input = randomBytes(1024 * 1024);
    const r = await cliBytes(['alloc', 'exec', '-task', 'main', allocId, 'cat'], input);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(input.length);
    expect(createHash('sha256').update(r.stdout).digest('hex')).toBe(createHash('sha256').update(input).digest('hex'));
  });

  it('writes the command\'s stderr to stderr and its stdout to stdout', async () => {
    const r = await srv.cli(['alloc', 'exec', '-task', 'main', allocId, 'sh', '-c', 'echo to-out; echo to-err >&2; exit 2']);
    expect(r).toEqual({ code: 2, stdout: 'to-out\n', stderr: 'to-err\n' });
  });

  it('passes the command\'s own flags through untouched, after ALLOC and after ALLOC --', async () => {
    const ls = await srv.cli(['alloc', 'exec', '-i=false', '-task', 'main', allocId, 'ls', '-la', '/']);
    expect(ls.code).toBe(0);
    expect(ls.stdout).toMatch(/^total \d+/);
    expect(ls.stdout).toMatch(/ \.\.\n/);
    const echo = await srv.cli(['alloc', 'exec', '-task', 'main', allocId, '--', 'sh', '-c', 'printf "%s|" "$@"', 'x', '-h', '-task', '--', '-t']);
    expect(echo).toMatchObject({ code: 0, stdout: '-h|-task|--|-t|' });
  });

  it('runs in a random running allocation of a job with -job', async () => {
    const r = await srv.cli(['alloc', 'exec', '-job', '-group', 'g', '-task', 'side', 'exec-test', 'sh', '-c', 'echo "$NOMAD_ALLOC_ID $NOMAD_TASK_NAME"']);
    expect(r).toMatchObject({ code: 0, stdout: `${allocId} side\n` });
  });

  it('refuses to guess among several tasks, listing them', async () => {
    const r = await srv.cli(['alloc', 'exec', allocId, 'true']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/is running the following tasks:\n {2}\* main\n {2}\* side\n/);
    expect(r.stderr).toMatch(/specify the task/);
  });

  it('reports the server\'s refusal of an unknown task', async () => {
    const r = await srv.cli(['alloc', 'exec', '-task', 'nope', allocId, 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`failed to exec into task: task nope not found in allocation ${allocId}\n`);
  });

  it('reports a refused token in one line: unknown, or without alloc-exec', async () => {
    const bogus = await srv.cli(['alloc', 'exec', '-task', 'main', allocId, 'true'], { token: 'not-a-token' });
    expect(bogus.code).toBe(1);
    expect(bogus.stderr.trim().split('\n')).toHaveLength(1);
    expect(bogus.stderr).toMatch(/403 \(ACL token not found\)/);

    await srv.client().secrets('PUT', 'sys/policies/acl/exec-reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    const reader = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['exec-reader'] } }))?.auth?.client_token);
    const r = await srv.cli(['alloc', 'exec', '-task', 'main', allocId, 'true'], { token: reader });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'failed to exec into task: Permission denied\n' });
  });
});

describe('svc alloc exec in a terminal', () => {
  it('runs an interactive shell: input, the terminal size and its changes, Ctrl-C, and the exit code', async () => {
    const p = svcInPty(['alloc', 'exec', '-i', '-t', '-task', 'main', allocId, '/bin/sh']);
    p.write('echo x$((6*7))y\r');
    await p.waitFor('x42y');
    p.write('stty size\r');
    // Node's raw mode keeps ONLCR, so the remote terminal's CRLF shows as CR CR LF.
    await p.waitForMatch(/\n33 101\r+\n/);

    p.resize(120, 40);
    // The new size reaches the remote terminal once the CLI has seen SIGWINCH: ask until it has.
    await until(
      async () => {
        const mark = p.output().length;
        p.write('stty size\r');
        return (await p.waitForMatch(/\n(\d+ \d+)\r+\n/, mark))[1];
      },
      (size) => size === '40 120',
      'stty size to show the resized terminal',
    );

    p.write('sleep 987654\r');
    await until(async () => liveProcesses(['sleep', '987654']), (pids) => pids.length === 1, 'the remote sleep to start');
    p.write('\x03');
    await until(async () => liveProcesses(['sleep', '987654']), (pids) => pids.length === 0, 'Ctrl-C to end the remote sleep');
    p.write('echo after-$((1+1))\r');
    await p.waitFor('after-2');

    p.write('exit 5\r');
    expect(await p.exited).toBe(5);
  });

  it('closes the session on ESCAPE . at the start of a line, and sends one ESCAPE for ESCAPE ESCAPE', async () => {
    const p = svcInPty(['alloc', 'exec', '-task', 'main', allocId, '/bin/sh']);
    p.write('read v; echo "[$v]"\r');
    p.write('~~abc\r');
    await p.waitFor('[~abc]');
    p.write('sleep 876543\r');
    await until(async () => liveProcesses(['sleep', '876543']), (pids) => pids.length === 1, 'the remote sleep to start');
    p.write('~.');
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('Connection closed');
    await until(async () => liveProcesses(['sleep', '876543']), (pids) => pids.length === 0, 'the closed session\'s command to be killed');
  });

  it('asks which task when there are several', async () => {
    const p = svcInPty(['alloc', 'exec', allocId, '/bin/sh', '-c', 'echo "task=$NOMAD_TASK_NAME"']);
    await p.waitFor('Which task?');
    p.write('\x1b[B');
    await p.waitFor('❯ side');
    p.write('\r');
    await p.waitFor('task=side');
    expect(await p.exited).toBe(0);
  });

  it('restores the local terminal after a normal end, a refusal, and SIGTERM', async () => {
    const dir = await makeTempDir('svc-exec-tty-');
    try {
      const shell = startPty('/bin/sh', [], { cols: 100, rows: 30, cwd: dir, env: { ...ptyEnv(), PS1: '$ ' } });
      ptys.push(shell);
      const svc = `${process.execPath} ${SVC_BIN} alloc exec -task`;
      shell.write(
        [
          'tty > ttyname; stty -g > before',
          `${svc} main ${allocId} /bin/sh -c 'exit 0'; echo rc1=$?`,
          `${svc} nope ${allocId} /bin/sh; echo rc2=$?`,
          `${svc} main ${allocId} /bin/sh -c 'sleep 765432'; echo rc3=$?`,
          'stty -g > after; echo d""one\r',
        ].join('; '),
      );
      await until(async () => liveProcesses(['sleep', '765432']), (pids) => pids.length === 1, 'the remote sleep to start');
      const [cli] = await until(async () => liveProcesses([process.execPath, SVC_BIN], ['sleep 765432']), (pids) => pids.length === 1, 'the CLI running it');
      // While the session runs, the local terminal is raw: not the state the shell had.
      const during = execFileSync('stty', ['-F', (await readFile(path.join(dir, 'ttyname'), 'utf8')).trim(), '-g'], { encoding: 'utf8' });
      expect(during).not.toBe(await readFile(path.join(dir, 'before'), 'utf8'));
      process.kill(cli, 'SIGTERM');
      await shell.waitFor('done');
      expect(shell.output()).toMatch(/rc1=0\r\n/);
      expect(shell.output()).toMatch(/rc2=1\r\n/);
      expect(shell.output()).toMatch(/rc3=143\r\n/);
      const [before, after] = await Promise.all([readFile(path.join(dir, 'before'), 'utf8'), readFile(path.join(dir, 'after'), 'utf8')]);
      expect(before.trim()).not.toBe('');
      expect(after).toBe(before);
      await until(async () => liveProcesses(['sleep', '765432']), (pids) => pids.length === 0, 'the remote sleep to end with the CLI');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves nothing running remotely when the CLI is killed', async () => {
    const p = svcInPty(['alloc', 'exec', '-task', 'main', allocId, '/bin/sh', '-c', 'sleep 1234567']);
    await until(async () => liveProcesses(['sleep', '1234567']), (pids) => pids.length === 1, 'the remote sleep to start');
    process.kill(p.pid, 'SIGKILL');
    await until(async () => liveProcesses(['sleep', '1234567']), (pids) => pids.length === 0, 'the remote sleep to be killed with the session');
  });
});
