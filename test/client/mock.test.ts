import { afterAll, describe, expect, it } from 'vitest';
import { restoreAllocRunner } from '../../src/client/alloc-runner.js';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, quietLog, startRunner, taskState, tempDir, testNode, track, waitFor } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const mock = (name: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ Name: name, Driver: 'mock', Config: config, ...extra });

describe('mock driver', () => {
  it('runs for run_for and exits with exit_code, reported like a real task', async () => {
    const alloc = makeAlloc({ tasks: [mock('m', { run_for: '150ms', exit_code: 7, exit_err_msg: 'boom' })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(runner, 'm').State === 'running', 'running');
    const t0 = Date.now();
    await allDead(runner);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    expect(events(runner, 'm')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated', 'Not Restarting']);
    expect(lastEvent(runner, 'm', 'Terminated')?.DisplayMessage).toBe('Exit Code: 7, Exit Message: "boom"');
  });

  it('start_error is a driver failure; recoverable ones are retried under the policy', async () => {
    const alloc = makeAlloc({
      tasks: [mock('m', { start_error: 'no luck', start_error_recoverable: true })],
      group: { RestartPolicy: { Attempts: 1, Interval: 30 * 60 * SEC, Delay: 50 * MS, Mode: 'fail' } },
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'm')).toEqual(['Received', 'Task Setup', 'Driver Failure', 'Restarting', 'Driver Failure', 'Not Restarting']);
    expect(lastEvent(runner, 'm', 'Driver Failure')?.DisplayMessage).toBe('no luck');
  });

  it('kill_after beyond the kill timeout ends in SIGKILL', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [mock('m', { kill_after: '10s' }, { KillTimeout: 200 * MS })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(runner, 'm').State === 'running', 'running');
    await runner.shutdown();
    expect(lastEvent(runner, 'm', 'Terminated')?.DisplayMessage).toBe('Exit Code: 137, Signal: 9');
    expect(lastEvent(runner, 'm', 'Killing')?.DisplayMessage).toBe('Sent interrupt. Waiting 200ms before force killing');
  });

  it('mode "delay" waits out the interval instead of failing', async () => {
    const alloc = makeAlloc({
      type: 'service',
      tasks: [mock('m', { run_for: '10ms', exit_code: 1 })],
      group: { RestartPolicy: { Attempts: 1, Interval: 600 * MS, Delay: 20 * MS, Mode: 'delay' } },
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    const delayed = await waitFor(() => lastEvent(runner, 'm', 'Restarting')?.RestartReason === 'Exceeded allowed attempts, applying a delay' && lastEvent(runner, 'm', 'Restarting'), 'a delayed restart');
    expect(delayed.DisplayMessage).toMatch(/^Exceeded allowed attempts, applying a delay - Task restarting in \d+(\.\d+)?ms$/);
    expect(delayed.StartDelay).toBeGreaterThan(400 * MS);
    expect(taskState(runner, 'm').Failed).toBe(false);
    await runner.shutdown();
    expect(taskState(runner, 'm')).toMatchObject({ State: 'dead', Failed: false });
  });

  it('noShutdownDelay skips the shutdown delay', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [mock('m', {}, { ShutdownDelay: 5 * SEC })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(runner, 'm').State === 'running', 'running');
    const t0 = Date.now();
    await runner.shutdown({ noShutdownDelay: true });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(events(runner, 'm').slice(-4)).toEqual(['Killing', 'Skipping shutdown delay', 'Terminated', 'Killed']);
  });

  it('a restored mock task finishes when its run_for is over', async () => {
    const alloc = makeAlloc({ tasks: [mock('m', { run_for: '300ms' })] });
    const first = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(first.runner, 'm').State === 'running', 'running');
    first.runner.detach();
    const runner = track(restoreAllocRunner({ alloc, node: await testNode(), allocsDir: tmp.dir, log: quietLog, onUpdate: () => {} }));
    expect(taskState(runner, 'm').State).toBe('running');
    await allDead(runner);
    expect(events(runner, 'm')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(runner.state().ClientStatus).toBe('complete');
  });

  it('a node without the mock driver cannot run mock tasks', async () => {
    const node = await testNode();
    const { mock: _dropped, ...drivers } = node.Drivers;
    const alloc = makeAlloc({ tasks: [mock('m', {})] });
    const { runner } = await startRunner(alloc, tmp.dir, { node: { ...node, Drivers: drivers } });
    await allDead(runner);
    expect(lastEvent(runner, 'm', 'Driver Failure')?.DisplayMessage).toBe('driver "mock" is not available on this node');
  });
});
