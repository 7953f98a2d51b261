import { describe, expect, it } from 'vitest';
import { RESTART_REASONS, RestartTracker, restartsOnSuccess } from '../../src/client/restart-tracker.js';
import type { RestartPolicy } from '../../src/scheduler/structs/policies.js';

const SEC = 1e9;
const MIN = 60 * SEC;
const policy = (p: Partial<RestartPolicy> = {}): RestartPolicy => ({ Attempts: 2, Interval: 30 * MIN, Delay: 15 * SEC, Mode: 'fail', RenderTemplates: false, ...p });
const T0 = 1_700_000_000_000;

describe('restartsOnSuccess', () => {
  it('restarts services and system jobs after exit 0, not batch work', () => {
    expect(restartsOnSuccess('service', null)).toBe(true);
    expect(restartsOnSuccess('system', null)).toBe(true);
    expect(restartsOnSuccess('batch', null)).toBe(false);
    expect(restartsOnSuccess('sysbatch', null)).toBe(false);
  });

  it('treats lifecycle tasks by hook and sidecar, whatever the job type', () => {
    expect(restartsOnSuccess('service', { Hook: 'prestart', Sidecar: false })).toBe(false);
    expect(restartsOnSuccess('batch', { Hook: 'prestart', Sidecar: true })).toBe(true);
    expect(restartsOnSuccess('service', { Hook: 'poststart', Sidecar: false })).toBe(false);
    expect(restartsOnSuccess('service', { Hook: 'poststart', Sidecar: true })).toBe(true);
    expect(restartsOnSuccess('service', { Hook: 'poststop', Sidecar: false })).toBe(false);
  });
});

describe('RestartTracker', () => {
  it('ends a successful batch task without using an attempt', () => {
    const t = new RestartTracker(policy(), 'batch', null);
    expect(t.onExit(true, T0)).toEqual({ kind: 'done' });
    expect(t.state().count).toBe(0);
  });

  it('restarts a service after exit 0', () => {
    const t = new RestartTracker(policy(), 'service', null, undefined, () => 0);
    expect(t.onExit(true, T0)).toEqual({ kind: 'restart', delayNs: 15 * SEC, reason: RESTART_REASONS.withinPolicy });
  });

  it('adds up to 25% of the delay as jitter', () => {
    const low = new RestartTracker(policy(), 'service', null, undefined, () => 0).onExit(false, T0);
    const high = new RestartTracker(policy(), 'service', null, undefined, () => 0.999999).onExit(false, T0);
    expect(low).toMatchObject({ kind: 'restart', delayNs: 15 * SEC });
    expect(high.kind === 'restart' && high.delayNs).toBeGreaterThan(18.7 * SEC);
    expect(high.kind === 'restart' && high.delayNs).toBeLessThan(18.75 * SEC);
  });

  it('fails with the exact reason once attempts in the interval are used up (mode fail)', () => {
    const t = new RestartTracker(policy(), 'service', null, undefined, () => 0);
    expect(t.onExit(false, T0).kind).toBe('restart');
    expect(t.onExit(false, T0 + 20_000).kind).toBe('restart');
    expect(t.onExit(false, T0 + 40_000)).toEqual({ kind: 'fail', reason: 'Exceeded allowed attempts 2 in interval 30m0s and mode is "fail"' });
  });

  it('formats the interval as Go does', () => {
    const t = new RestartTracker(policy({ Attempts: 1, Interval: 60 * MIN }), 'batch', null, undefined, () => 0);
    t.onExit(false, T0);
    expect(t.onExit(false, T0 + 1)).toEqual({ kind: 'fail', reason: 'Exceeded allowed attempts 1 in interval 1h0m0s and mode is "fail"' });
  });

  it('allows no restarts with attempts = 0, even for a start error', () => {
    expect(new RestartTracker(policy({ Attempts: 0 }), 'service', null).onExit(false, T0)).toEqual({ kind: 'fail', reason: 'Policy allows no restarts' });
    expect(new RestartTracker(policy({ Attempts: 0 }), 'service', null).onStartError(true, T0)).toEqual({ kind: 'fail', reason: 'Policy allows no restarts' });
  });

  it('does not retry an unrecoverable start error', () => {
    expect(new RestartTracker(policy(), 'service', null).onStartError(false, T0)).toEqual({ kind: 'fail', reason: 'Error was unrecoverable' });
  });

  it('mode delay waits until the interval ends, then counts afresh', () => {
    const t = new RestartTracker(policy({ Attempts: 1, Interval: 10 * SEC, Delay: 1 * SEC, Mode: 'delay' }), 'service', null, undefined, () => 0);
    expect(t.onExit(false, T0)).toMatchObject({ kind: 'restart', delayNs: 1 * SEC });
    expect(t.onExit(false, T0 + 3000)).toEqual({ kind: 'restart', delayNs: 7 * SEC, reason: 'Exceeded allowed attempts, applying a delay' });
    // after the wait the window has ended: a normal restart again
    expect(t.onExit(false, T0 + 10_001)).toMatchObject({ kind: 'restart', delayNs: 1 * SEC, reason: 'Restart within policy' });
    expect(t.state()).toEqual({ count: 1, windowStartMs: T0 + 10_001 });
  });

  it('resets the count when the interval has passed since the first restart of the window', () => {
    const t = new RestartTracker(policy({ Attempts: 1, Interval: 10 * SEC }), 'service', null, undefined, () => 0);
    expect(t.onExit(false, T0).kind).toBe('restart');
    // 9s later: same window, second failure exceeds
    const t2 = new RestartTracker(policy({ Attempts: 1, Interval: 10 * SEC }), 'service', null, t.state(), () => 0);
    expect(t2.onExit(false, T0 + 9000).kind).toBe('fail');
    // 11s later: new window
    expect(t.onExit(false, T0 + 11_000).kind).toBe('restart');
  });

  it('carries on counting from saved state (a restarted server)', () => {
    const before = new RestartTracker(policy(), 'service', null, undefined, () => 0);
    before.onExit(false, T0);
    before.onExit(false, T0 + 1);
    const after = new RestartTracker(policy(), 'service', null, before.state(), () => 0);
    expect(after.onExit(false, T0 + 2).kind).toBe('fail');
  });
});
