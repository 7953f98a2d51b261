/**
 * The server restarting under running tasks: a runner is dropped without stopping its tasks (detach, or
 * the whole process killed), then rebuilt from the alloc dir by restoreAllocRunner.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { restoreAllocRunner } from '../../src/client/alloc-runner.js';
import type { AllocClientUpdate, ClientAlloc } from '../../src/client/types.js';
import { isSameProcessAlive } from '../../src/client/drivers/proc.js';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, quietLog, rawTask, startRunner, taskState, tempDir, testNode, track, waitFor } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function restore(alloc: ClientAlloc) {
  const updates: AllocClientUpdate[] = [];
  const runner = track(restoreAllocRunner({ alloc, node: await testNode(), allocsDir: tmp.dir, log: quietLog, onUpdate: (u) => updates.push(u) }));
  return { runner, updates };
}

/** The executor's record of the task's single launch. */
function executorState(alloc: ClientAlloc, task: string): { executorPid: number; executorStartTime: string; taskPid: number; pgid: number } {
  const dir = path.join(tmp.dir, alloc.ID, '.svc/tasks', task);
  const [launch] = readdirSync(dir);
  return JSON.parse(readFileSync(path.join(dir, launch, 'executor.json'), 'utf8'));
}

describe('restoreAllocRunner', () => {
  it('follows a task that kept running, and records its exit code', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('job', 'sleep 1; exit 3')] });
    const first = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(first.runner, 'job').State === 'running', 'the task to run');
    const startedAt = taskState(first.runner, 'job').StartedAt;
    const pid = executorState(alloc, 'job').taskPid;
    first.runner.detach();

    const { runner } = await restore(alloc);
    // rebuilt from disk: still running, same start, no second Started
    expect(taskState(runner, 'job')).toMatchObject({ State: 'running', StartedAt: startedAt });
    await new Promise((r) => setTimeout(r, 100));
    expect(executorState(alloc, 'job').taskPid).toBe(pid);
    await allDead(runner);
    expect(events(runner, 'job')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated', 'Not Restarting']);
    expect(lastEvent(runner, 'job', 'Terminated')?.DisplayMessage).toBe('Exit Code: 3');
    expect(runner.state().ClientStatus).toBe('failed');
    // the dropped runner saw nothing after it was detached
    expect(taskState(first.runner, 'job').State).toBe('running');
  });

  it('records an exit that happened while nobody watched', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('quick', 'sleep 0.3')] });
    const first = await startRunner(alloc, tmp.dir);
    // Started, and on a loaded machine perhaps ended already: either way its executor state is written.
    await waitFor(() => events(first.runner, 'quick').includes('Started'), 'the task to start');
    const { executorPid, executorStartTime } = executorState(alloc, 'quick');
    first.runner.detach();
    await waitFor(() => !isSameProcessAlive(executorPid, executorStartTime), 'the executor to finish', 5000);

    const { runner } = await restore(alloc);
    await allDead(runner);
    expect(events(runner, 'quick')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('treats a task that vanished meanwhile as failed, and restarts it as its policy allows', async () => {
    const alloc = makeAlloc({
      type: 'service',
      tasks: [rawTask('web', 'while :; do sleep 0.05; done')],
      group: { RestartPolicy: { Attempts: 1, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' } },
    });
    const first = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(first.runner, 'web').State === 'running', 'the task to run');
    const st = executorState(alloc, 'web');
    first.runner.detach();
    // the machine "lost" the task and its executor: nothing recorded how it ended. The executor goes
    // first: killed second, it could still see the task die and record that as an ordinary exit.
    process.kill(st.executorPid, 'SIGKILL');
    process.kill(-st.pgid, 'SIGKILL');
    await waitFor(() => !isSameProcessAlive(st.executorPid, st.executorStartTime), 'the executor to die');

    const { runner } = await restore(alloc);
    await waitFor(() => events(runner, 'web').filter((e) => e === 'Started').length === 2 && taskState(runner, 'web').State === 'running', 'a new start');
    expect(events(runner, 'web')).toEqual(['Received', 'Task Setup', 'Started', 'Failed Restoring Task', 'Restarting', 'Started']);
    expect(lastEvent(runner, 'web', 'Failed Restoring Task')?.DisplayMessage).toBe('task was lost while the server was down');
    expect(taskState(runner, 'web').Restarts).toBe(1);
    expect(executorState(alloc, 'web').taskPid).not.toBe(st.taskPid);
    await runner.shutdown();
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('survives the server process being killed (runner and executor from a CommonJS bundle, as in dist/)', async () => {
    // Bundle the alloc runner the way the build does, with the executor copied next to it.
    const dist = path.join(tmp.dir, 'dist');
    await build({ entryPoints: ['src/client/alloc-runner.ts'], bundle: true, format: 'cjs', platform: 'node', target: 'node20', outfile: path.join(dist, 'alloc-runner.cjs'), logLevel: 'silent' });
    copyFileSync('src/client/executor/executor.cjs', path.join(dist, 'executor.cjs'));

    const alloc = makeAlloc({ tasks: [rawTask('survivor', 'sleep 1.2; echo done; exit 4')] });
    const input = path.join(tmp.dir, 'server-input.json');
    writeFileSync(input, JSON.stringify({ alloc, node: await testNode(), allocsDir: tmp.dir }));
    const script = `
      const { createAllocRunner } = require(${JSON.stringify(path.join(dist, 'alloc-runner.cjs'))});
      const { alloc, node, allocsDir } = JSON.parse(require('fs').readFileSync(${JSON.stringify(input)}, 'utf8'));
      const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, named() { return log; } };
      createAllocRunner({ alloc, node, allocsDir, log, onUpdate(u) {
        if (u.TaskStates.survivor.State === 'running') process.stdout.write('running\\n');
      } });
      setInterval(() => {}, 1000);
    `;
    const server = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', (b: Buffer) => b.toString().includes('running') && resolve());
      server.once('exit', (code) => reject(new Error(`server exited early: ${code}`)));
    });
    const st = executorState(alloc, 'survivor');
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    expect(isSameProcessAlive(st.executorPid, st.executorStartTime)).toBe(true);

    const { runner } = await restore(alloc);
    expect(taskState(runner, 'survivor').State).toBe('running');
    await allDead(runner);
    expect(lastEvent(runner, 'survivor', 'Terminated')?.DisplayMessage).toBe('Exit Code: 4');
    expect(readFileSync(path.join(tmp.dir, alloc.ID, 'alloc/logs/survivor.stdout.0'), 'utf8')).toBe('done\n');
    expect(events(runner, 'survivor').filter((e) => e === 'Started')).toHaveLength(1);
  });
});
