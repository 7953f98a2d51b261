/**
 * Node liveness. Heartbeats live in memory, as in Nomad: writing each one would cost a durable write per
 * node every few seconds for nothing. A node silent for its TTL and then Nomad's heartbeat_grace is
 * marked down, which re-evaluates its jobs. After a server restart every ready node gets a fresh TTL
 * (and the grace) to check in.
 *
 * Silence is measured on the server's clock minus the time its event loop stalled (loop-stalls.ts): a
 * server too busy to read heartbeats must not mark nodes down for its own lateness, so every expiry is
 * deferred by the stall. One periodic sweep finds the silent nodes, and marks all it finds down in one
 * write, with one evaluation per affected job.
 *
 * The TTL grows with the number of nodes, as Nomad's does, so the server answers at most
 * MAX_HEARTBEATS_PER_SECOND heartbeats however many nodes there are.
 */
import type { Logger } from '../shared/log.js';
import type { Store } from '../storage/store.js';
import { LoopStalls, type StallSource } from './loop-stalls.js';
import { HEARTBEAT_TTL_MS } from './structs/node.js';
import { listNodes } from './state/nodes.js';
import { markNodesDown } from './state/nodes-down.js';
import { heartbeatsMissed, heartbeatsReceived } from './telemetry.js';

/** Nomad's max_heartbeats_per_second. */
const MAX_HEARTBEATS_PER_SECOND = 50;
/** Nomad's heartbeat_grace. */
export const HEARTBEAT_GRACE_MS = 10_000;
/**
 * Nomad's failover_heartbeat_ttl: what every ready node gets when a server takes the lead (or starts
 * alone on its state), since nobody knows when each last beat. The last leader may have given a node of a
 * large cluster a TTL of minutes; a shorter one here would mark nodes down that did nothing wrong.
 */
const FAILOVER_HEARTBEAT_TTL_MS = 5 * 60_000;
/** The sweep runs this many times per grace period, at most once a second. */
const SWEEPS_PER_GRACE = 10;

export interface HeartbeatOptions {
  /** the least TTL a node is given (Nomad's min_heartbeat_ttl) */
  ttlMs?: number;
  /** how long past its TTL a silent node is still waited for */
  graceMs?: number;
  /** the TTL every ready node gets at start (Nomad's failover_heartbeat_ttl) */
  failoverTtlMs?: number;
  /** a monotonic clock in ms */
  now?: () => number;
  /** how long the event loop has stalled; by default measured while the heartbeats run */
  stalls?: StallSource;
  /** see EvalBroker.unsettledEvals: lets a job's waiting evaluation stand in for a new one */
  unsettledEvals?: () => ReadonlySet<string>;
}

export class Heartbeats {
  readonly ttlMs: number;
  readonly graceMs: number;
  /** node ID → the loop time after which the node is down */
  private readonly deadlines = new Map<string, number>();
  private readonly now: () => number;
  private readonly stalls: StallSource;
  private readonly ownStalls: LoopStalls | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<string[]> | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly opts: HeartbeatOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? HEARTBEAT_TTL_MS;
    this.graceMs = opts.graceMs ?? HEARTBEAT_GRACE_MS;
    this.now = opts.now ?? (() => performance.now());
    this.ownStalls = opts.stalls ? undefined : new LoopStalls(this.now);
    this.stalls = opts.stalls ?? this.ownStalls!;
  }

  /**
   * Gives every node the store believes ready the failover TTL (or the TTL their number calls for, if
   * longer) and the grace to heartbeat, and starts sweeping.
   */
  start(): void {
    this.ownStalls?.start();
    const ready = listNodes(this.store).filter((n) => n.Status === 'ready');
    const ttl = Math.max(this.opts.failoverTtlMs ?? FAILOVER_HEARTBEAT_TTL_MS, this.ttlFor(ready.length));
    const deadline = this.loopTime() + ttl + this.graceMs;
    for (const node of ready) this.deadlines.set(node.ID, deadline);
    const every = Math.min(1000, Math.max(10, this.graceMs / SWEEPS_PER_GRACE));
    this.sweeper = setInterval(() => {
      if (!this.sweeping) void this.expire();
    }, every);
    this.sweeper.unref();
  }

  /** Records a heartbeat; answers the TTL the node must beat within. */
  beat(nodeId: string): number {
    const started = performance.now();
    const ttl = this.ttlFor(this.deadlines.size);
    if (!this.stopped) this.deadlines.set(nodeId, this.loopTime() + ttl + this.graceMs);
    heartbeatsReceived.since(started);
    return ttl;
  }

  /** How many nodes' heartbeats are watched (Nomad's nomad.heartbeat.active). */
  get active(): number {
    return this.deadlines.size;
  }

  /** The TTL that keeps `nodes` nodes within MAX_HEARTBEATS_PER_SECOND, and never under the least TTL. */
  private ttlFor(nodes: number): number {
    return Math.max(this.ttlMs, Math.ceil((nodes / MAX_HEARTBEATS_PER_SECOND) * 1000));
  }

  /**
   * Marks down, in one write, every node silent past its TTL and grace on the loop's clock; answers the
   * nodes marked. Runs after a sweep already under way, never beside it.
   */
  async expire(): Promise<string[]> {
    while (this.sweeping) await this.sweeping.catch(() => undefined);
    if (this.stopped) return [];
    const now = this.loopTime();
    const silent: string[] = [];
    for (const [id, deadline] of this.deadlines) if (deadline <= now) silent.push(id);
    if (silent.length === 0) return [];
    this.sweeping = this.markDown(silent);
    try {
      return await this.sweeping;
    } finally {
      this.sweeping = undefined;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    this.ownStalls?.stop();
    await this.sweeping?.catch(() => undefined);
    this.deadlines.clear();
  }

  private async markDown(silent: string[]): Promise<string[]> {
    // Heard from since it was found silent: the write must leave it alone.
    const stillSilent = (id: string): boolean => (this.deadlines.get(id) ?? Infinity) <= this.loopTime();
    const started = performance.now();
    try {
      const { down } = await markNodesDown(this.store, silent, {
        description: 'node heartbeat missed',
        stillSilent,
        unsettled: this.opts.unsettledEvals?.(),
      });
      // Down, gone or already down elsewhere: nothing to watch until the node checks in again.
      for (const id of silent) if (stillSilent(id)) this.deadlines.delete(id);
      for (let i = 0; i < down.length; i++) heartbeatsMissed.since(started);
      if (down.length > 0) {
        const shown = down.slice(0, 10).join(', ') + (down.length > 10 ? ` and ${down.length - 10} more` : '');
        this.log.warn(`${down.length === 1 ? 'node' : `${down.length} nodes`} missed heartbeats, marked down: ${shown}`);
      }
      return down;
    } catch (err) {
      if (!this.stopped) this.log.error(`marking nodes down failed: ${(err as Error).message}`);
      return [];
    }
  }

  /** The clock silence is measured on: it stands still while the event loop is stalled. */
  private loopTime(): number {
    return this.now() - this.stalls.stalledMs();
  }
}
