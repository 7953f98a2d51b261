/**
 * `svc alloc logs` and `svc alloc fs` through the built bin/svc against a real server running raw_exec
 * tasks: stdout by default, -stderr, -tail -n, -f that exits by itself when the task finishes (and on
 * Ctrl-C), several tasks without a TASK off a terminal, a directory listing and a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

let srv: TestServer;
const c = () => srv.client();
const cli = (args: string[]) => srv.cli(args, { env: { TZ: 'UTC' } });

const OUT_LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);

function task(name: string, script: string) {
  return { Name: name, Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 1_000_000_000, Resources: { CPU: 20, MemoryMB: 16 } };
}

async function runJob(id: string, type: string, tasks: ReturnType<typeof task>[]): Promise<Stub> {
  await c().scheduler('POST', '/v1/jobs', {
    body: { Job: { ID: id, Type: type, Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Mode: 'fail' }, Tasks: tasks }] } },
  });
  const [alloc] = await until(
    () => c().scheduler<Stub[]>('GET', `/v1/job/${id}/allocations`).then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === 'running',
    `the allocation of ${id} to run`,
  );
  return alloc;
}

const allocDir = (a: Stub) => srv.server.services.scheduler.localNodes.get(a.NodeID)!.allocDir(a.ID)!;

/** bin/svc as a child whose output can be watched while it runs. */
function start(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [SVC_BIN, ...args], { env: { PATH: process.env.PATH, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1', HOME: srv.dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

let app: Stub;
let pair: Stub;

beforeAll(async () => {
  srv = await startTestServer();
  [app, pair] = await Promise.all([
    runJob('cli-logs', 'service', [task('app', `for i in $(seq 1 20); do echo line $i; done; echo oops >&2; printf 'data\\n' > "$NOMAD_TASK_DIR/note.txt"; exec sleep 300`)]),
    runJob('cli-pair', 'service', [task('first', 'exec sleep 300'), task('second', 'exec sleep 300')]),
  ]);
  await until(() => cli(['alloc', 'logs', app.ID]), (r) => r.stdout.split('\n').length > OUT_LINES.length, 'the task to write its lines');
});

afterAll(async () => {
  await srv?.close();
});

describe('svc alloc logs', () => {
  it('prints stdout from the start by default, stderr with -stderr, for an ID prefix', async () => {
    const out = await cli(['alloc', 'logs', app.ID.slice(0, 8)]);
    expect(out).toMatchObject({ code: 0, stdout: `${OUT_LINES.join('\n')}\n` });
    const err = await cli(['alloc', 'logs', '-stderr', app.ID.slice(0, 8), 'app']);
    expect(err).toMatchObject({ code: 0, stdout: 'oops\n' });
  });

  it('-tail -n 3 prints the last three lines; -tail -c 8 the last eight bytes', async () => {
    expect(await cli(['alloc', 'logs', '-tail', '-n', '3', app.ID])).toMatchObject({ code: 0, stdout: 'line 18\nline 19\nline 20\n' });
    expect(await cli(['alloc', 'logs', '-tail', '-c', '8', app.ID])).toMatchObject({ code: 0, stdout: '\nline 20\n'.slice(-8) });
    expect(await cli(['alloc', 'logs', '-job', 'cli-logs', '-tail', '-n', '1'])).toMatchObject({ code: 0, stdout: 'line 20\n' });
  });

  it('with several tasks and no TASK, off a terminal, exits 1 listing them', async () => {
    const r = await cli(['alloc', 'logs', pair.ID]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Allocation "${pair.ID.slice(0, 8)}" is running the following tasks:\n  * first\n  * second\n\nPlease specify the task.`);
    expect((await cli(['alloc', 'logs', pair.ID, 'third'])).code).toBe(1);
    expect(await cli(['alloc', 'logs', pair.ID, 'second'])).toMatchObject({ code: 0, stdout: '' });
  });

  it('-f follows stdout and stderr to their own streams and exits 0 once the task has finished', async () => {
    // The task ticks until told to finish: a tick on each stream shows both follows are under way.
    const script = `while [ ! -e "$NOMAD_ALLOC_DIR/data/go" ]; do echo tick; echo tock >&2; sleep 0.1; done; echo last out; echo last err >&2`;
    const short = await runJob('cli-follow', 'batch', [task('t', script)]);
    const follow = start(['alloc', 'logs', '-f', short.ID]);
    await until(async () => follow.out().includes('tick') && follow.err().includes('tock'), (ok) => ok, 'both follows to print a tick');
    await writeFile(path.join(allocDir(short), 'alloc/data/go'), '');
    expect(await follow.exited).toBe(0);
    expect(follow.out()).toMatch(/tick\nlast out\n$/);
    expect(follow.err()).toMatch(/tock\nlast err\n$/);
    expect(follow.out()).not.toContain('tock');
  });

  it('-f ends with exit 0 on Ctrl-C while the task runs on', async () => {
    const follow = start(['alloc', 'logs', '-f', '-stdout', app.ID]);
    await until(async () => follow.out(), (o) => o.includes('line 20'), 'the follow to print the log');
    follow.child.kill('SIGINT');
    expect(await follow.exited).toBe(0);
  });
});

describe('svc alloc fs', () => {
  it('lists a directory as Mode, Size, Modified Time and Name, directories with a slash', async () => {
    const r = await cli(['alloc', 'fs', app.ID]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Mode\s+Size\s+Modified Time\s+Name$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).at(-1))).toEqual(['alloc/', 'app/']);
    expect(lines[1]).toMatch(/^drwxrwxrwx\s+\S+ \S*B\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+alloc\/$/);
    const logs = await cli(['alloc', 'fs', '-H', app.ID, 'alloc/logs']);
    expect(logs.stdout).toMatch(/^-rw-r--r--\s+\d+\s+\S+\s+app\.stdout\.0$/m);
  });

  it('prints a file, its tail, or its information with -stat', async () => {
    expect(await cli(['alloc', 'fs', app.ID, 'app/local/note.txt'])).toMatchObject({ code: 0, stdout: 'data\n' });
    expect(await cli(['alloc', 'fs', '-tail', '-n', '2', app.ID, 'alloc/logs/app.stdout.0'])).toMatchObject({ code: 0, stdout: 'line 19\nline 20\n' });
    const stat = await cli(['alloc', 'fs', '-stat', '-H', app.ID, 'app/local/note.txt']);
    expect(stat.stdout).toMatch(/^Mode\s+Size\s+Modified Time\s+Content Type\s+Name\n\S+\s+5\s+\S+\s+text\/plain; charset=utf-8\s+note\.txt\n$/);
    const outside = await cli(['alloc', 'fs', app.ID, '../../']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/escapes the allocation directory/);
  });
});
