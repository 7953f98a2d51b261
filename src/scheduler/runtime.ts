/**
 * The scheduler's moving parts in one server process: the evaluation broker, node heartbeats, the
 * deployment watcher (progress deadlines), the periodic launcher, the node drainer, garbage collection,
 * and the nodes this server can reach directly (its own), to which signal, restart, exec and file
 * requests are forwarded.
 */
import type { Logger } from '../shared/log.js';
import type { Store } from '../storage/store.js';
import { EvalBroker } from './broker.js';
import { Heartbeats, type HeartbeatOptions } from './heartbeats.js';
import { schedulerFor } from './sched/index.js';
import { enforceProgressDeadlines } from './state/deployments.js';
import { PeriodicLauncher } from './periodic/launcher.js';
import { NodeDrainer } from './drainer/drainer.js';
import { collectGarbage, type GcResult } from './state/gc.js';
import type { ExecRequest, PreparedExec } from '../client/exec/types.js';
import type { PauseRequest, ScheduleState } from '../client/schedule/schedule-state.js';
import type { AllocCheckResults } from './structs/check-result.js';

/** How often running deployments are checked against their progress deadlines. */
const DEPLOYMENT_WATCH_MS = 1000;
/** How often the state is garbage collected (Nomad's eval_gc_interval and job_gc_interval). */
const GC_INTERVAL_MS = 5 * 60_000;

export interface NodeControl {
  signal(allocId: string, signal: string, task?: string): Promise<void>;
  restart(allocId: string, opts: { task?: string; allTasks?: boolean }): Promise<void>;
  /** the host path of the allocation's directory on this node; undefined when the node never ran it */
  allocDir(allocId: string): string | undefined;
  /** checks a command to run inside a running task of the allocation (its environment, directory and isolation) */
  exec(allocId: string, req: ExecRequest): Promise<PreparedExec>;
  /** one task's pause schedule state (Nomad's ScheduleState) */
  pauseState(allocId: string, task: string): Promise<ScheduleState>;
  /** overrides one task's pause schedule, or (schedule_resume) lets the schedule decide again */
  setPauseState(allocId: string, task: string, state: PauseRequest): Promise<void>;
  /** the latest results of the allocation's service checks, by check ID; empty when the node does not run it */
  checks(allocId: string): AllocCheckResults;
}

export class SchedulerRuntime {
  readonly broker: EvalBroker;
  readonly heartbeats: Heartbeats;
  readonly periodic: PeriodicLauncher;
  private readonly drainer: NodeDrainer;
  readonly localNodes = new Map<string, NodeControl>();
  private deploymentWatch: NodeJS.Timeout | undefined;
  private watching: Promise<unknown> = Promise.resolve();
  private gcTimer: NodeJS.Timeout | undefined;
  private collecting: Promise<GcResult> | undefined;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    heartbeat: Pick<HeartbeatOptions, 'ttlMs' | 'graceMs'> = {},
    private readonly gcIntervalMs = GC_INTERVAL_MS,
  ) {
    this.broker = new EvalBroker(store, log.named('broker'), schedulerFor);
    this.heartbeats = new Heartbeats(store, log.named('heartbeat'), { ...heartbeat, unsettledEvals: () => this.broker.unsettledEvals() });
    this.periodic = new PeriodicLauncher(store, log.named('periodic'));
    this.drainer = new NodeDrainer(store, log.named('drain'));
  }

  start(): void {
    this.heartbeats.start();
    this.broker.start();
    void this.periodic.start();
    this.drainer.start();
    this.deploymentWatch = setInterval(() => {
      this.watching = enforceProgressDeadlines(this.store).catch((err: Error) => this.log.error(`deployment watcher: ${err.message}`));
    }, DEPLOYMENT_WATCH_MS);
    this.deploymentWatch.unref();
    this.gcTimer = setInterval(() => void this.collectGarbage().catch((err: Error) => this.log.error(`garbage collection: ${err.message}`)), this.gcIntervalMs);
    this.gcTimer.unref();
  }

  /** One garbage collection at a time; `force` ignores the age thresholds (`PUT /v1/system/gc`). */
  async collectGarbage(force = false): Promise<GcResult> {
    while (this.collecting) await this.collecting.catch(() => undefined);
    this.collecting = collectGarbage(this.store, { now: Date.now() * 1e6, force });
    try {
      return await this.collecting;
    } finally {
      this.collecting = undefined;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.deploymentWatch);
    clearInterval(this.gcTimer);
    await this.collecting?.catch(() => undefined);
    await this.heartbeats.stop();
    await this.periodic.stop();
    await this.drainer.stop();
    await this.watching;
    await this.broker.stop();
  }
}
