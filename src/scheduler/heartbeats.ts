/**
 * Node liveness. Heartbeats live in memory, as in Nomad: writing each one would cost a durable write per
 * node every few seconds for nothing. A node that misses its TTL is marked down (one write), which
 * re-evaluates its jobs. After a server restart every ready node gets a fresh TTL to check in.
 *
 * The TTL grows with the number of nodes, as Nomad's does, so the server answers at most
 * MAX_HEARTBEATS_PER_SECOND heartbeats however many nodes there are.
 */
import type { Logger } from '../shared/log.js';
import type { Store } from '../storage/store.js';
import { HEARTBEAT_TTL_MS } from './structs/node.js';
import { listNodes, setNodeStatus } from './state/nodes.js';

const MAX_HEARTBEATS_PER_SECOND = 50;

export class Heartbeats {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    readonly ttlMs: number = HEARTBEAT_TTL_MS,
  ) {}

  /** Gives every node the store believes ready one TTL to heartbeat. */
  start(): void {
    for (const node of listNodes(this.store)) if (node.Status === 'ready') this.beat(node.ID);
  }

  /** Records a heartbeat; answers the TTL the node must beat within. */
  beat(nodeId: string): number {
    const ttl = Math.max(this.ttlMs, Math.ceil((this.timers.size / MAX_HEARTBEATS_PER_SECOND) * 1000));
    if (this.stopped) return ttl;
    clearTimeout(this.timers.get(nodeId));
    const timer = setTimeout(() => this.expire(nodeId), ttl);
    timer.unref();
    this.timers.set(nodeId, timer);
    return ttl;
  }

  private expire(nodeId: string): void {
    this.timers.delete(nodeId);
    if (this.stopped) return;
    this.log.warn(`node ${nodeId} missed its heartbeat; marking it down`);
    setNodeStatus(this.store, nodeId, 'down', 'node heartbeat missed').catch((err: Error) => {
      if (!this.stopped) this.log.error(`marking node ${nodeId} down failed: ${err.message}`);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
