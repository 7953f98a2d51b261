/**
 * The scheduler's moving parts in one server process: on the cluster's leader only, the evaluation
 * broker, node heartbeats, the deployment watcher (progress deadlines), the periodic launcher, the node
 * drainer and periodic garbage collection; on every server, the nodes it can reach (its own, in process,
 * and those whose tunnel it holds), to which signal, restart, exec and file requests are forwarded.
 */
import type { Logger } from '../shared/log.js';
import { NoLeader } from '../shared/errors.js';
import { NO_LEADER } from '../cluster/forward-to-leader.js';
import type { Store } from '../storage/store.js';
import { EvalBroker } from './broker.js';
import { Heartbeats, type HeartbeatOptions } from './heartbeats.js';
import { HEARTBEAT_TTL_MS } from './structs/node.js';
import { schedulerFor } from './sched/index.js';
import { enforceProgressDeadlines } from './state/deployments.js';
import { PeriodicLauncher } from './periodic/launcher.js';
import { NodeDrainer } from './drainer/drainer.js';
import { collectGarbage, type GcResult } from './state/gc.js';
import type { LocalNodeControl, NodeControl } from './wire/node-control.js';
import { NodeTunnels } from './tunnel/node-tunnels.js';

/** How often running deployments are checked against their progress deadlines. */
const DEPLOYMENT_WATCH_MS = 1000;
/** How often the state is garbage collected (Nomad's eval_gc_interval and job_gc_interval). */
const GC_INTERVAL_MS = 5 * 60_000;

/** The leader's part: built afresh each time this server takes the lead, on the leader's fenced store. */
interface LeaderWork {
  broker: EvalBroker;
  heartbeats: Heartbeats;
  periodic: PeriodicLauncher;
  drainer: NodeDrainer;
  deploymentWatch: NodeJS.Timeout;
  gcTimer: NodeJS.Timeout;
}

export class SchedulerRuntime {
  readonly localNodes = new Map<string, LocalNodeControl>();
  /** the nodes on other machines whose tunnel this server holds */
  readonly tunnels = new NodeTunnels();
  private work: LeaderWork | undefined;
  private watching: Promise<unknown> = Promise.resolve();
  private collecting: Promise<GcResult> | undefined;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    /**
     * Whether the named driver gives its tasks a file system of their own (a chroot). Exec into a task
     * of any other driver runs on the host, which the ACL asks more for; the drivers are the node's, so
     * the server, which builds both, answers for them.
     */
    readonly isolatesFs: (driver: string) => boolean,
    private readonly heartbeat: Pick<HeartbeatOptions, 'ttlMs' | 'graceMs' | 'failoverTtlMs'> = {},
    private readonly gcIntervalMs = GC_INTERVAL_MS,
  ) {}

  /** The node as this server reaches it: in its own process, or through the node's tunnel. */
  nodeControl(nodeId: string): NodeControl | undefined {
    return this.localNodes.get(nodeId) ?? this.tunnels.control(nodeId);
  }

  /** The least heartbeat TTL nodes are given. */
  get heartbeatTtlMs(): number {
    return this.heartbeat.ttlMs ?? HEARTBEAT_TTL_MS;
  }

  /** true while this server runs the leader's work */
  get leading(): boolean {
    return this.work !== undefined;
  }

  /** The broker's queues, while this server leads. */
  brokerCounts(): { ready: number; waiting: number; unacked: number } | undefined {
    return this.work?.broker.counts();
  }

  /** How many nodes' heartbeats the leader watches, while this server leads. */
  activeHeartbeats(): number | undefined {
    return this.work?.heartbeats.active;
  }

  /** Node heartbeats and the periodic launcher: only on the leader. */
  get heartbeats(): Heartbeats {
    return this.leaderWork().heartbeats;
  }

  get periodic(): PeriodicLauncher {
    return this.leaderWork().periodic;
  }

  /**
   * Starts the leader's work: the broker and schedulers, heartbeat expiry (every ready node gets a fresh
   * TTL, as on a new Nomad leader), the periodic launcher, the drainer, the deployment watcher and garbage
   * collection. `store` is the leader's: its writes fail once this server no longer leads.
   */
  lead(store: Store): void {
    if (this.work) return;
    const broker = new EvalBroker(store, this.log.named('broker'), schedulerFor);
    const heartbeats = new Heartbeats(store, this.log.named('heartbeat'), { ...this.heartbeat, unsettledEvals: () => broker.unsettledEvals() });
    const periodic = new PeriodicLauncher(store, this.log.named('periodic'));
    const drainer = new NodeDrainer(store, this.log.named('drain'));
    heartbeats.start();
    broker.start();
    void periodic.start();
    drainer.start();
    const deploymentWatch = setInterval(() => {
      this.watching = enforceProgressDeadlines(store).catch((err: Error) => this.log.error(`deployment watcher: ${err.message}`));
    }, DEPLOYMENT_WATCH_MS);
    deploymentWatch.unref();
    const gcTimer = setInterval(() => void this.collectGarbage(false, store).catch((err: Error) => this.log.error(`garbage collection: ${err.message}`)), this.gcIntervalMs);
    gcTimer.unref();
    this.work = { broker, heartbeats, periodic, drainer, deploymentWatch, gcTimer };
  }

  /** Stops the leader's work; the evaluation in progress and the plans written reach the disk first. */
  async stepDown(): Promise<void> {
    const work = this.work;
    if (!work) return;
    this.work = undefined;
    clearInterval(work.deploymentWatch);
    clearInterval(work.gcTimer);
    await this.collecting?.catch(() => undefined);
    await work.heartbeats.stop();
    await work.periodic.stop();
    await work.drainer.stop();
    await this.watching;
    await work.broker.stop();
  }

  /**
   * One garbage collection at a time; `force` ignores the age thresholds (`PUT /v1/system/gc`, which any
   * server may run: collection is a transaction like any other write).
   */
  async collectGarbage(force = false, store = this.store): Promise<GcResult> {
    while (this.collecting) await this.collecting.catch(() => undefined);
    this.collecting = collectGarbage(store, { now: Date.now() * 1e6, force });
    try {
      return await this.collecting;
    } finally {
      this.collecting = undefined;
    }
  }

  private leaderWork(): LeaderWork {
    // A request that found this server leading, and outlived its lead: the node or caller tries again.
    if (!this.work) throw new NoLeader(NO_LEADER);
    return this.work;
  }
}
