import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, rawTask, startRunner, taskState, tempDir, waitFor } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const allocDir = (id: string) => path.join(tmp.dir, id);

describe('raw_exec through the alloc runner', () => {
  it('a task whose directory cannot be built fails with "Setup Failure" and never starts', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('blocked', 'echo never')] });
    // A file where the task's directory must go.
    mkdirSync(allocDir(alloc.ID), { recursive: true });
    writeFileSync(path.join(allocDir(alloc.ID), 'blocked'), 'in the way');
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'blocked')).toEqual(['Received', 'Task Setup', 'Setup Failure', 'Not Restarting']);
    const failure = lastEvent(runner, 'blocked', 'Setup Failure');
    expect(failure).toMatchObject({ FailsTask: true, Details: { fails_task: 'true' } });
    expect(failure?.SetupError).toMatch(/^failed to build task directory for "blocked": /);
    expect(failure?.DisplayMessage).toBe(failure?.SetupError);
    expect(taskState(runner, 'blocked')).toMatchObject({ State: 'dead', Failed: true, Restarts: 0 });
    expect(runner.state().ClientStatus).toBe('failed');
  });

  it('runs a batch task to completion with Nomad’s event sequence, its output in the log, and NOMAD_ variables in its environment', async () => {
    const alloc = makeAlloc({
      tasks: [rawTask('hello', 'echo out-line; echo err-line >&2; env > "$NOMAD_TASK_DIR/env.txt"', { Env: { GREETING: 'hi ${NOMAD_TASK_NAME}' } })],
      ports: [{ Label: 'http', Value: 21000, To: 0, HostIP: '127.0.0.1' }],
    });
    const { runner, updates } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'hello')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(lastEvent(runner, 'hello', 'Task Setup')?.DisplayMessage).toBe('Building Task Directory');
    expect(lastEvent(runner, 'hello', 'Terminated')).toMatchObject({ DisplayMessage: 'Exit Code: 0', ExitCode: 0, Details: { exit_code: '0', signal: '0', oom_killed: 'false' } });
    const st = taskState(runner, 'hello');
    expect(st).toMatchObject({ State: 'dead', Failed: false, Restarts: 0 });
    expect(st.StartedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(Date.parse(st.FinishedAt)).toBeGreaterThanOrEqual(Date.parse(st.StartedAt));
    expect(runner.state()).toMatchObject({ ClientStatus: 'complete', ClientDescription: 'All tasks have completed' });
    await waitFor(() => updates.at(-1)?.ClientStatus === 'complete', 'the last update to say complete');

    const logs = path.join(allocDir(alloc.ID), 'alloc/logs');
    expect(readFileSync(path.join(logs, 'hello.stdout.0'), 'utf8')).toBe('out-line\n');
    expect(readFileSync(path.join(logs, 'hello.stderr.0'), 'utf8')).toBe('err-line\n');

    const env = Object.fromEntries(
      readFileSync(path.join(allocDir(alloc.ID), 'hello/local/env.txt'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(env).toMatchObject({
      NOMAD_ALLOC_ID: alloc.ID,
      NOMAD_TASK_NAME: 'hello',
      NOMAD_ALLOC_DIR: path.join(allocDir(alloc.ID), 'alloc'),
      NOMAD_TASK_DIR: path.join(allocDir(alloc.ID), 'hello/local'),
      NOMAD_PORT_http: '21000',
      SVC_ALLOC_ID: alloc.ID,
      GREETING: 'hi hello',
      // the host environment is inherited by raw_exec tasks
      PATH: process.env.PATH,
    });
    expect(statSync(path.join(allocDir(alloc.ID), 'hello/secrets')).mode & 0o777).toBe(0o700);
  });

  it('exhausts the restart policy: Restarting with the delay, then Not Restarting with the exact reason', async () => {
    const alloc = makeAlloc({
      tasks: [rawTask('flaky', 'exit 3')],
      group: { RestartPolicy: { Attempts: 2, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' } },
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    // 11 events happened; the first (Received) fell out of the latest 10
    expect(events(runner, 'flaky')).toEqual(['Task Setup', 'Started', 'Terminated', 'Restarting', 'Started', 'Terminated', 'Restarting', 'Started', 'Terminated', 'Not Restarting']);
    const restarting = lastEvent(runner, 'flaky', 'Restarting')!;
    expect(restarting.StartDelay).toBeGreaterThanOrEqual(100 * MS);
    expect(restarting.StartDelay).toBeLessThanOrEqual(125 * MS);
    expect(restarting.DisplayMessage).toMatch(/^Task restarting in 1\d\d(\.\d+)?ms$/);
    expect(lastEvent(runner, 'flaky', 'Terminated')?.DisplayMessage).toBe('Exit Code: 3');
    expect(lastEvent(runner, 'flaky', 'Not Restarting')).toMatchObject({
      DisplayMessage: 'Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"',
      FailsTask: true,
    });
    expect(taskState(runner, 'flaky')).toMatchObject({ State: 'dead', Failed: true, Restarts: 2 });
    expect(taskState(runner, 'flaky').LastRestart).not.toBe('0001-01-01T00:00:00Z');
    expect(runner.state()).toMatchObject({ ClientStatus: 'failed', ClientDescription: 'Failed tasks' });
  });

  it('reports a command that does not exist as a driver failure that is not retried', async () => {
    const alloc = makeAlloc({
      tasks: [{ Name: 'bad', Driver: 'raw_exec', Config: { command: 'no-such-command-xyz' } }],
      group: { RestartPolicy: { Attempts: 3, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' } },
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'bad')).toEqual(['Received', 'Task Setup', 'Driver Failure', 'Not Restarting']);
    expect(lastEvent(runner, 'bad', 'Driver Failure')?.DisplayMessage).toBe(
      'failed to launch command with executor: exec: "no-such-command-xyz": executable file not found in $PATH',
    );
    expect(lastEvent(runner, 'bad', 'Not Restarting')?.DisplayMessage).toBe('Error was unrecoverable');
    expect(runner.state().ClientStatus).toBe('failed');
  });

  it('with attempts = 0 a failing task is not restarted', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('once', 'exit 1')] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'once')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated', 'Not Restarting']);
    expect(lastEvent(runner, 'once', 'Not Restarting')?.DisplayMessage).toBe('Policy allows no restarts');
  });

  it('delivers a signal to the task (a shell trap records it)', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [rawTask('trap', 'trap "echo got-usr1 >> $NOMAD_TASK_DIR/sig" USR1; echo ready > $NOMAD_TASK_DIR/ready; while :; do sleep 0.05; done')] });
    const { runner } = await startRunner(alloc, tmp.dir);
    const dir = path.join(allocDir(alloc.ID), 'trap/local');
    await waitFor(() => existsSync(path.join(dir, 'ready')) && taskState(runner, 'trap').State === 'running', 'the trap to be installed');
    await runner.signal('SIGUSR1', 'trap');
    await waitFor(() => existsSync(path.join(dir, 'sig')), 'the trap to run');
    expect(readFileSync(path.join(dir, 'sig'), 'utf8')).toBe('got-usr1\n');
    expect(lastEvent(runner, 'trap', 'Signaling')).toMatchObject({ DisplayMessage: 'Task being sent signal SIGUSR1', TaskSignal: 'SIGUSR1' });
    expect(taskState(runner, 'trap').State).toBe('running');
    await expect(runner.signal('SIGNOPE', 'trap')).rejects.toThrow('invalid signal "SIGNOPE"');
    await expect(runner.signal('SIGUSR1', 'other')).rejects.toThrow('unknown task "other"');
    await runner.shutdown();
  });

  it('kills with kill_signal, then SIGKILL after kill_timeout when the task ignores it', async () => {
    const alloc = makeAlloc({
      type: 'service',
      tasks: [rawTask('stubborn', 'trap "" TERM; echo ready > $NOMAD_TASK_DIR/ready; while :; do sleep 0.05; done', { KillSignal: 'SIGTERM', KillTimeout: 600 * MS })],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => existsSync(path.join(allocDir(alloc.ID), 'stubborn/local/ready')), 'the task to run');
    const t0 = Date.now();
    await runner.shutdown();
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(550);
    expect(took).toBeLessThan(3000);
    expect(events(runner, 'stubborn').slice(-3)).toEqual(['Killing', 'Terminated', 'Killed']);
    expect(lastEvent(runner, 'stubborn', 'Killing')?.DisplayMessage).toBe('Sent interrupt. Waiting 600ms before force killing');
    expect(lastEvent(runner, 'stubborn', 'Terminated')).toMatchObject({ ExitCode: 137, Signal: 9, DisplayMessage: 'Exit Code: 137, Signal: 9' });
    expect(taskState(runner, 'stubborn')).toMatchObject({ State: 'dead', Failed: false });
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('kills gracefully with the default SIGINT when the task honours it', async () => {
    const alloc = makeAlloc({
      type: 'service',
      tasks: [rawTask('polite', 'trap "echo bye > $NOMAD_TASK_DIR/bye; exit 0" INT; echo ready > $NOMAD_TASK_DIR/ready; while :; do sleep 0.05; done', { KillTimeout: 5 * SEC })],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => existsSync(path.join(allocDir(alloc.ID), 'polite/local/ready')), 'the task to run');
    const t0 = Date.now();
    await runner.shutdown();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(existsSync(path.join(allocDir(alloc.ID), 'polite/local/bye'))).toBe(true);
    expect(lastEvent(runner, 'polite', 'Terminated')?.DisplayMessage).toBe('Exit Code: 0');
    expect(lastEvent(runner, 'polite', 'Killing')?.DisplayMessage).toBe('Sent interrupt. Waiting 5s before force killing');
  });
});

describe('raw_exec config', () => {
  it('runs in work_dir, and names a missing one rather than the command', async () => {
    const alloc = makeAlloc({ tasks: [{ Name: 'wd', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'pwd > "$NOMAD_TASK_DIR/pwd"'], work_dir: 'local' } }] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(readFileSync(path.join(allocDir(alloc.ID), 'wd/local/pwd'), 'utf8').trim()).toBe(path.join(allocDir(alloc.ID), 'wd/local'));

    const bad = makeAlloc({ tasks: [{ Name: 'wd', Driver: 'raw_exec', Config: { command: '/bin/true', work_dir: '/no/such/dir' } }] });
    const second = await startRunner(bad, tmp.dir);
    await allDead(second.runner);
    expect(lastEvent(second.runner, 'wd', 'Driver Failure')?.DisplayMessage).toBe('failed to launch command with executor: chdir /no/such/dir: no such file or directory');
  });

  it('refuses a task without a command', async () => {
    const alloc = makeAlloc({ tasks: [{ Name: 'nocmd', Driver: 'raw_exec', Config: { args: ['x'] } }] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(lastEvent(runner, 'nocmd', 'Driver Failure')?.DisplayMessage).toBe('missing required config "command"');
    expect(lastEvent(runner, 'nocmd', 'Not Restarting')?.DisplayMessage).toBe('Policy allows no restarts');
  });
});
