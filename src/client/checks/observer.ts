/**
 * One check of one run of its task (or of the allocation, for a group service's check): runs it every
 * Interval, each run cut at Timeout, and passes each outcome on. The first run comes after half an
 * interval, as Nomad's does: a service just started is rarely up at once, and a full interval is slow.
 * When check_restart says so, asks once for the task to restart; the restart ends this run of the task,
 * and with it this observer.
 */
import type { Logger } from '../../shared/log.js';
import type { ClientAlloc } from '../types.js';
import type { PreparedExec } from '../../scheduler/wire/exec.js';
import { checkTarget } from './address.js';
import { CheckRestarter, triggersRestarts, unhealthyReason } from './check-restart.js';
import type { CheckSpec } from './check-specs.js';
import { runHttpCheck } from './http-check.js';
import type { CheckOutcome } from './outcome.js';
import { runScriptCheck } from './script-check.js';
import { runTcpCheck } from './tcp-check.js';

export interface ObserverDeps {
  /** prepares a command inside a running task of the allocation */
  exec(task: string, command: string[]): Promise<PreparedExec>;
  /** restarts one task, or every running task when `task` is undefined, counted as a failure */
  restart(task: string | undefined, reason: string): Promise<void>;
  log: Logger;
}

const nsToMs = (ns: number) => Math.max(1, ns / 1e6);

export class CheckObserver {
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private stopped = false;
  private readonly restarter: CheckRestarter | undefined;
  private restartAsked = false;

  constructor(
    private readonly spec: CheckSpec,
    private readonly alloc: ClientAlloc,
    /** what this run of the task is (its StartedAt): a new run needs a new observer */
    readonly runKey: string,
    private readonly deps: ObserverDeps,
    private readonly onOutcome: (outcome: CheckOutcome) => void,
  ) {
    const check = spec.check;
    this.restarter = triggersRestarts(check) ? new CheckRestarter(check.CheckRestart, Date.now()) : undefined;
  }

  start(): void {
    this.schedule(nsToMs(this.spec.check.Interval) / 2);
  }

  /** Stops for good, cutting a run in progress short (its outcome is dropped). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort();
  }

  private schedule(ms: number): void {
    // The task's own work keeps the process alive, never its checks.
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const outcome = await this.run().catch((err: Error): CheckOutcome => ({ Status: 'failure', Output: err.message }));
    if (this.stopped) return;
    this.onOutcome(outcome);
    if (this.restarter && !this.restartAsked && this.restarter.record(outcome.Status, Date.now())) {
      this.restartAsked = true;
      const { spec } = this;
      this.deps
        .restart(spec.groupService ? undefined : spec.task, unhealthyReason(spec.check.Name))
        .catch((err: Error) => this.deps.log.warn(`check ${JSON.stringify(spec.check.Name)}: restarting after it failed: ${err.message}`));
    }
    this.schedule(nsToMs(this.spec.check.Interval));
  }

  private async run(): Promise<CheckOutcome> {
    const { check, service, task } = this.spec;
    const timeoutMs = nsToMs(check.Timeout);
    const signal = this.abort.signal;
    switch (check.Type.toLowerCase()) {
      case 'script':
        return runScriptCheck((command) => this.deps.exec(task, command), [check.Command, ...(check.Args ?? [])], timeoutMs, signal);
      case 'http':
        return runHttpCheck(checkTarget(this.alloc, service, check), check, timeoutMs, signal);
      default:
        return runTcpCheck(checkTarget(this.alloc, service, check), timeoutMs, signal);
    }
  }
}
