import { describe, expect, it } from 'vitest';
import { type LifecycleFlags, type TaskView, initialFlags, nextActions } from '../../src/client/alloc-lifecycle.js';

const view = (name: string, v: Partial<TaskView> = {}): TaskView => ({
  name,
  phase: 'main',
  sidecar: false,
  leader: false,
  state: 'pending',
  failed: false,
  began: false,
  everRan: false,
  ...v,
});

function step(tasks: TaskView[], flags: LifecycleFlags = initialFlags()) {
  return nextActions(tasks, flags);
}

describe('nextActions', () => {
  it('starts prestart tasks first and holds main tasks back', () => {
    const { actions, flags } = step([view('init', { phase: 'prestart' }), view('side', { phase: 'prestart', sidecar: true }), view('web')]);
    expect(actions).toEqual([{ type: 'start', tasks: ['init', 'side'] }]);
    expect(flags.mainStarted).toBe(false);
  });

  it('starts main tasks once non-sidecar prestart tasks succeeded and sidecars run', () => {
    const tasks = [
      view('init', { phase: 'prestart', began: true, state: 'dead', everRan: true }),
      view('side', { phase: 'prestart', sidecar: true, began: true, state: 'running', everRan: true }),
      view('web'),
    ];
    expect(step(tasks).actions).toEqual([{ type: 'start', tasks: ['web'] }]);
    // a sidecar that is not running yet holds them back
    tasks[1].state = 'pending';
    expect(step(tasks).actions).toEqual([]);
  });

  it('kills the group when a prestart task fails, poststop runs after', () => {
    const tasks = [view('init', { phase: 'prestart', began: true, state: 'dead', failed: true }), view('web'), view('cleanup', { phase: 'poststop' })];
    const first = step(tasks);
    expect(first.actions).toEqual([{ type: 'kill', tasks: ['web'], reason: { kind: 'sibling-failed', sibling: 'init' } }]);
    tasks[1].state = 'dead';
    expect(step(tasks, first.flags).actions).toEqual([{ type: 'start', tasks: ['cleanup'] }]);
  });

  it('starts poststart tasks once every main task has started', () => {
    const flags = { ...initialFlags(), mainStarted: true };
    const tasks = [view('web', { began: true, state: 'running', everRan: true }), view('api', { began: true }), view('announce', { phase: 'poststart' })];
    expect(step(tasks, flags).actions).toEqual([]);
    tasks[1] = { ...tasks[1], state: 'running', everRan: true };
    expect(step(tasks, flags).actions).toEqual([{ type: 'start', tasks: ['announce'] }]);
  });

  it('stops sidecars with "main dead" once main work is over', () => {
    const flags = { ...initialFlags(), mainStarted: true, poststartStarted: true };
    const tasks = [view('side', { phase: 'prestart', sidecar: true, began: true, state: 'running' }), view('web', { began: true, state: 'dead', everRan: true })];
    const r = step(tasks, flags);
    expect(r.actions).toEqual([{ type: 'kill', tasks: ['side'], reason: { kind: 'main-dead' } }]);
    expect(step(tasks, r.flags).actions).toEqual([]);
  });

  it('kills the rest when the leader dies, once', () => {
    const flags = { ...initialFlags(), mainStarted: true, poststartStarted: true };
    const tasks = [view('lead', { leader: true, began: true, state: 'dead', everRan: true }), view('helper', { began: true, state: 'running' })];
    const r = step(tasks, flags);
    expect(r.actions).toEqual([{ type: 'kill', tasks: ['helper'], reason: { kind: 'leader-dead' } }]);
    expect(step(tasks, r.flags).actions).toEqual([]);
  });

  it('a failure wins over a dead leader as the reason', () => {
    const flags = { ...initialFlags(), mainStarted: true };
    const tasks = [view('lead', { leader: true, began: true, state: 'dead' }), view('bad', { began: true, state: 'dead', failed: true }), view('c', { began: true, state: 'running' })];
    expect(step(tasks, flags).actions[0]).toEqual({ type: 'kill', tasks: ['c'], reason: { kind: 'sibling-failed', sibling: 'bad' } });
  });

  it('starts nothing but poststop while shutting down', () => {
    const flags = { ...initialFlags(), shuttingDown: true };
    const tasks = [view('init', { phase: 'prestart' }), view('web'), view('cleanup', { phase: 'poststop' })];
    expect(step(tasks, flags).actions).toEqual([]);
    tasks[0].state = 'dead';
    tasks[1].state = 'dead';
    expect(step(tasks, flags).actions).toEqual([{ type: 'start', tasks: ['cleanup'] }]);
  });
});
