import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, rawTask, startRunner, taskState, tempDir, waitFor } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const longRunner = (name: string, extra: Record<string, unknown> = {}) => rawTask(name, 'while :; do sleep 0.05; done', extra);

describe('alloc runner: the group’s tasks together', () => {
  it('a dead leader kills the rest with "Leader Task Dead"', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('lead', 'sleep 0.3', { Leader: true }), longRunner('helper')] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'helper')).toEqual(['Received', 'Task Setup', 'Started', 'Leader Task Dead', 'Killing', 'Terminated', 'Killed']);
    expect(lastEvent(runner, 'helper', 'Leader Task Dead')?.DisplayMessage).toBe('Leader Task in Group dead');
    expect(events(runner, 'lead')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('a failed task kills its siblings with "Sibling Task Failed" and fails the allocation', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [rawTask('bad', 'sleep 0.3; exit 2'), longRunner('good')] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'good')).toEqual(['Received', 'Task Setup', 'Started', 'Sibling Task Failed', 'Killing', 'Terminated', 'Killed']);
    expect(lastEvent(runner, 'good', 'Sibling Task Failed')).toMatchObject({ DisplayMessage: 'Task\'s sibling "bad" failed', FailedSibling: 'bad' });
    expect(taskState(runner, 'good').Failed).toBe(false);
    expect(taskState(runner, 'bad').Failed).toBe(true);
    expect(runner.state()).toMatchObject({ ClientStatus: 'failed', ClientDescription: 'Failed tasks' });
  });

  it('runs prestart before main, poststart after main started, stops sidecars when main is done, poststop last', async () => {
    const stamp = (what: string) => `echo ${what} $(date +%s%N) >> "$NOMAD_ALLOC_DIR/data/order"`;
    const alloc = makeAlloc({
      tasks: [
        // main waits (10 s at most) for the poststart task, which must run while main does, however loaded the machine
        rawTask('main', `${stamp('main-start')}; test -f "$NOMAD_ALLOC_DIR/data/init-done" || exit 9; i=0; until grep -q poststart "$NOMAD_ALLOC_DIR/data/order" || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done; ${stamp('main-end')}`),
        rawTask('init', `sleep 0.2; touch "$NOMAD_ALLOC_DIR/data/init-done"; ${stamp('init-end')}`, { Lifecycle: { Hook: 'prestart', Sidecar: false } }),
        longRunner('side', { Lifecycle: { Hook: 'prestart', Sidecar: true } }),
        rawTask('after', stamp('poststart'), { Lifecycle: { Hook: 'poststart', Sidecar: false } }),
        rawTask('cleanup', stamp('poststop'), { Lifecycle: { Hook: 'poststop', Sidecar: false } }),
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    const order = readFileSync(path.join(tmp.dir, alloc.ID, 'alloc/data/order'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]);
    expect(order).toEqual(['init-end', 'main-start', 'poststart', 'main-end', 'poststop']);
    expect(taskState(runner, 'main')).toMatchObject({ State: 'dead', Failed: false });
    // the sidecar ran alongside and was stopped once main work was over
    expect(events(runner, 'side')).toEqual(['Received', 'Task Setup', 'Started', 'Main Tasks Dead', 'Killing', 'Terminated', 'Killed']);
    expect(Date.parse(taskState(runner, 'side').FinishedAt)).toBeGreaterThanOrEqual(Date.parse(taskState(runner, 'main').FinishedAt));
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('a failing prestart task keeps main tasks from ever starting', async () => {
    const alloc = makeAlloc({ tasks: [longRunner('main'), rawTask('init', 'exit 1', { Lifecycle: { Hook: 'prestart', Sidecar: false } })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'main')).toEqual(['Received', 'Sibling Task Failed']);
    expect(taskState(runner, 'main').StartedAt).toBe('0001-01-01T00:00:00Z');
    expect(runner.state().ClientStatus).toBe('failed');
  });

  it('restarts a task in place on request, without counting it as a failure', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [rawTask('svc', 'echo $$ >> "$NOMAD_TASK_DIR/pids"; while :; do sleep 0.05; done', { KillTimeout: 2 * SEC })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    const pids = path.join(tmp.dir, alloc.ID, 'svc/local/pids');
    await waitFor(() => existsSync(pids) && taskState(runner, 'svc').State === 'running', 'the task to run');
    await runner.restart({ task: 'svc' });
    await waitFor(() => readFileSync(pids, 'utf8').trim().split('\n').length === 2 && taskState(runner, 'svc').State === 'running', 'the second run');
    const [first, second] = readFileSync(pids, 'utf8').trim().split('\n');
    expect(first).not.toBe(second);
    expect(events(runner, 'svc').slice(-4)).toEqual(['Restart Signaled', 'Terminated', 'Restarting', 'Started']);
    expect(lastEvent(runner, 'svc', 'Restart Signaled')?.DisplayMessage).toBe('User requested restart');
    expect(lastEvent(runner, 'svc', 'Restarting')?.DisplayMessage).toBe('Task restarting in 0s');
    expect(taskState(runner, 'svc')).toMatchObject({ Restarts: 1, Failed: false });
    await runner.shutdown();
    await expect(runner.restart({ task: 'svc' })).rejects.toThrow('allocation is shutting down');
  });

  it('stops on DesiredStatus stop, waiting the shutdown delay first', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [longRunner('web', { ShutdownDelay: 300 * MS })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(runner, 'web').State === 'running', 'the task to run');
    const t0 = Date.now();
    runner.update({ ...alloc, DesiredStatus: 'stop' });
    await allDead(runner);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    expect(events(runner, 'web').slice(-4)).toEqual(['Killing', 'Waiting for shutdown delay', 'Terminated', 'Killed']);
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('keeps running through an in-place update', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [longRunner('web')] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(runner, 'web').State === 'running', 'the task to run');
    runner.update({ ...alloc, JobVersion: 1, Job: { ...alloc.Job, Version: 1, Meta: { v: '2' } } });
    await new Promise((r) => setTimeout(r, 200));
    expect(taskState(runner, 'web').State).toBe('running');
    expect(events(runner, 'web')).toEqual(['Received', 'Task Setup', 'Started']);
    await runner.shutdown();
  });

  it('rotates log files: the index grows and only max_files remain', async () => {
    const alloc = makeAlloc({
      tasks: [rawTask('chatty', 'head -c 3670016 /dev/zero | tr "\\0" x', { LogConfig: { MaxFiles: 2, MaxFileSizeMB: 1, Disabled: false } })],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    const logs = path.join(tmp.dir, alloc.ID, 'alloc/logs');
    const files = readdirSync(logs).filter((f) => f.startsWith('chatty.stdout.')).sort();
    expect(files).toEqual(['chatty.stdout.2', 'chatty.stdout.3']);
    expect(statSync(path.join(logs, 'chatty.stdout.2')).size).toBe(1024 * 1024);
    expect(statSync(path.join(logs, 'chatty.stdout.3')).size).toBe(3670016 - 3 * 1024 * 1024);
  });
});
