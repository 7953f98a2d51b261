/**
 * The scheduler's moving parts in one server process: the evaluation broker, node heartbeats, and the
 * nodes this server can reach directly (its own), to which signal and restart requests are forwarded.
 */
import type { Logger } from '../shared/log.js';
import type { Store } from '../storage/store.js';
import { EvalBroker } from './broker.js';
import { Heartbeats } from './heartbeats.js';
import { schedulerFor } from './sched/index.js';

export interface NodeControl {
  signal(allocId: string, signal: string, task?: string): Promise<void>;
  restart(allocId: string, opts: { task?: string; allTasks?: boolean }): Promise<void>;
}

export class SchedulerRuntime {
  readonly broker: EvalBroker;
  readonly heartbeats: Heartbeats;
  readonly localNodes = new Map<string, NodeControl>();

  constructor(store: Store, log: Logger, heartbeatTtlMs?: number) {
    this.broker = new EvalBroker(store, log.named('broker'), schedulerFor);
    this.heartbeats = new Heartbeats(store, log.named('heartbeat'), heartbeatTtlMs);
  }

  start(): void {
    this.heartbeats.start();
    this.broker.start();
  }

  async stop(): Promise<void> {
    this.heartbeats.stop();
    await this.broker.stop();
  }
}
