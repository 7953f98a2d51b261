/**
 * `check_restart`: when to restart a task whose check keeps failing. Pure, with time passed in, so every
 * rule is tested without waiting. A check that fails `Limit` times in a row restarts its task; failures
 * within `Grace` of the task's (re)start do not count, and a pass starts the count over. Nomad's checks
 * have no warning state, so `IgnoreWarnings` changes nothing here.
 */
import type { CheckRestart, ServiceCheck } from '../../scheduler/structs/service.js';
import type { CheckStatus } from '../../scheduler/wire/check-result.js';

export function triggersRestarts(check: ServiceCheck): check is ServiceCheck & { CheckRestart: CheckRestart } {
  return check.CheckRestart !== null && check.CheckRestart.Limit > 0;
}

export class CheckRestarter {
  private failures = 0;
  private readonly graceUntilMs: number;

  constructor(
    private readonly policy: CheckRestart,
    startedAtMs: number,
  ) {
    this.graceUntilMs = startedAtMs + policy.Grace / 1e6;
  }

  /** Counts one result; true when it is the one that restarts the task. */
  record(status: CheckStatus, nowMs: number): boolean {
    if (status === 'success') {
      this.failures = 0;
      return false;
    }
    if (nowMs < this.graceUntilMs) return false;
    this.failures++;
    if (this.failures < this.policy.Limit) return false;
    this.failures = 0;
    return true;
  }
}

/** The reason of the "Restart Signaled" event, as Nomad words it. */
export const unhealthyReason = (checkName: string): string => `healthcheck: check ${JSON.stringify(checkName)} unhealthy`;
