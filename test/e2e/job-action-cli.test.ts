/**
 * `svc job action` end to end: the built CLI against a real server whose node runs real raw_exec tasks
 * declaring actions. The action's output and exit code, stdin, the allocation from -job or -alloc, the
 * task from the job's action list, refusals that list what exists, and a run in a real pseudo-terminal.
 */
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { runningAlloc, sleeper, startPty, type PtyRun } from '../support/exec-cli.js';

let srv: TestServer;
let home: string;
let allocId: string;
const ptys: PtyRun[] = [];


/** Prints the task it runs in, and whether its stdout is a terminal. */
const WHERE = 'if [ -t 1 ]; then t=yes; else t=no; fi; echo "task=$NOMAD_TASK_NAME tty=$t"';

/** Task "t" declares hello, upper and where; task "u" declares where too. */
const job = {
  ID: 'act',
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'g',
      Count: 1,
      Tasks: [
        sleeper('t', {
          Actions: [
            { Name: 'hello', Command: '/bin/sh', Args: ['-c', 'echo hi; exit 3'] },
            { Name: 'upper', Command: '/bin/sh', Args: ['-c', 'tr a-z A-Z; echo done >&2'] },
            { Name: 'where', Command: '/bin/sh', Args: ['-c', WHERE] },
          ],
        }),
        sleeper('u', { Actions: [{ Name: 'where', Command: '/bin/sh', Args: ['-c', WHERE] }] }),
      ],
    },
  ],
};

beforeAll(async () => {
  srv = await startTestServer();
  home = await makeTempDir('svc-action-home-');
  allocId = await runningAlloc(srv, job);
});

afterEach(() => {
  for (const p of ptys.splice(0)) p.kill();
});

afterAll(async () => {
  await srv?.close();
  await rm(home, { recursive: true, force: true });
});

describe('svc job action', () => {
  it('runs the action in a running allocation of -job, with its output and exit code', async () => {
    expect(await srv.cli(['job', 'action', '-job', 'act', 'hello'])).toEqual({ code: 3, stdout: 'hi\n', stderr: '' });
  });

  it('runs it in the allocation given with -alloc, whose job it is', async () => {
    expect(await srv.cli(['job', 'action', '-alloc', allocId.slice(0, 8), 'hello'])).toEqual({ code: 3, stdout: 'hi\n', stderr: '' });
  });

  it('feeds piped stdin to the action, and keeps its stderr apart', async () => {
    expect(await srv.cli(['job', 'action', '-job', 'act', 'upper'], { input: 'abc\n' })).toEqual({ code: 0, stdout: 'ABC\n', stderr: 'done\n' });
  });

  it('asks for -task when several tasks of the group declare the action, and runs the one named', async () => {
    const ambiguous = await srv.cli(['job', 'action', '-job', 'act', 'where']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/is running the following tasks:\n {2}\* t\n {2}\* u\n/);
    expect(await srv.cli(['job', 'action', '-job', 'act', '-group', 'g', '-task', 'u', 'where'])).toEqual({ code: 0, stdout: 'task=u tty=no\n', stderr: '' });
  });

  it('refuses an unknown action, or one not declared where asked, listing the job\'s actions', async () => {
    const unknown = await srv.cli(['job', 'action', '-job', 'act', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Job "act" has no action named "nope"; its actions:\n/);
    for (const row of [/hello +g +t +\/bin\/sh -c echo hi; exit 3/, /upper +g +t /, /where +g +t /, /where +g +u /]) expect(unknown.stderr).toMatch(row);

    const elsewhere = await srv.cli(['job', 'action', '-job', 'act', '-group', 'other', 'hello']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/^Action "hello" of job "act" is not declared for task group "other"; it is declared for:\n/);
  });

  it('needs a job: -job, or -alloc', async () => {
    const r = await srv.cli(['job', 'action', 'hello']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^A job ID is required: give -job, or -alloc\n/);
  });

  it('runs under a terminal when stdin and stdout are one', async () => {
    const p = startPty(process.execPath, [SVC_BIN, 'job', 'action', '-job', 'act', '-task', 't', 'where'], {
      cols: 90,
      rows: 30,
      env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1', TERM: 'xterm' },
    });
    ptys.push(p);
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('task=t tty=yes');
  });
});
