/** check_restart's counting rules, with time passed in. */
import { describe, expect, it } from 'vitest';
import { CheckRestarter, triggersRestarts, unhealthyReason } from '../../../src/client/checks/check-restart.js';
import type { ServiceCheck } from '../../../src/scheduler/structs/service.js';

const SEC = 1_000_000_000;
const policy = (limit: number, graceS = 0) => ({ Limit: limit, Grace: graceS * SEC, IgnoreWarnings: false });

describe('check_restart', () => {
  it('restarts after Limit failures in a row, and counts again from zero after that', () => {
    const r = new CheckRestarter(policy(3), 0);
    expect([r.record('failure', 1000), r.record('failure', 2000), r.record('failure', 3000)]).toEqual([false, false, true]);
    expect([r.record('failure', 4000), r.record('failure', 5000), r.record('failure', 6000)]).toEqual([false, false, true]);
  });

  it('a pass starts the count over', () => {
    const r = new CheckRestarter(policy(2), 0);
    expect(r.record('failure', 1000)).toBe(false);
    expect(r.record('success', 2000)).toBe(false);
    expect(r.record('failure', 3000)).toBe(false);
    expect(r.record('failure', 4000)).toBe(true);
  });

  it('failures within Grace of the start do not count', () => {
    const r = new CheckRestarter(policy(1, 5), 10_000);
    expect(r.record('failure', 12_000)).toBe(false);
    expect(r.record('failure', 14_999)).toBe(false);
    expect(r.record('failure', 15_000)).toBe(true);
  });

  it('applies only with a check_restart block whose limit is above 0', () => {
    const check = (CheckRestart: ServiceCheck['CheckRestart']) => ({ CheckRestart }) as ServiceCheck;
    expect(triggersRestarts(check(null))).toBe(false);
    expect(triggersRestarts(check(policy(0)))).toBe(false);
    expect(triggersRestarts(check(policy(1)))).toBe(true);
  });

  it('names the check in the restart reason as Nomad does', () => {
    expect(unhealthyReason('alive')).toBe('healthcheck: check "alive" unhealthy');
  });
});
