/**
 * The node drainer (Nomad's NodeDrainer): moves allocations off draining nodes as plan.ts decides and
 * ends drains that are done. Everything it needs lives in the node records, so after a server restart
 * it simply carries on, deadlines included (they are read back from ForceDeadline).
 *
 * It wakes when the nodes table is written (or any table, while some node drains) and plans again only
 * when the nodes table changed, or the allocations table while some node drains, or a drain deadline
 * came; otherwise a wake costs two index reads. What it decides is re-decided inside the write transaction, so a drain cancelled meanwhile, or
 * an allocation that stopped, is never acted on from a stale read.
 */
import type { Logger } from '../../shared/log.js';
import type { Store } from '../../storage/store.js';
import { ALLOCS_TABLE } from '../state/allocs.js';
import { completeNodeDrain, markForMigration } from '../state/node-drain.js';
import { NODES_TABLE } from '../state/nodes.js';
import { planDrains, type DrainPlan } from './plan.js';
import { drainView } from './view.js';
import { WriteKind } from '../events/kinds.js';

/** Upper bound of one wait for a write, so stop() is noticed. */
const POLL_MS = 1000;
/**
 * Nomad's BatchUpdateInterval: marks are written together after this window, so a burst of changes
 * (many allocations becoming healthy) is one write and one evaluation per job.
 */
const BATCH_WINDOW_MS = 1000;
/** How long a failed pass waits before the next. */
const RETRY_MS = 1000;

export class NodeDrainer {
  private stopped = false;
  private loopDone: Promise<void> | undefined;
  private interrupt: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly batchWindowMs = BATCH_WINDOW_MS,
  ) {}

  start(): void {
    this.loopDone ??= this.loop().catch((err: Error) => this.log.error(`node drainer stopped: ${err.stack ?? err.message}`));
  }

  /** Lets a write in progress finish, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt?.();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    let handled = '';
    let draining = 0;
    let nextDeadlineMs: number | undefined;
    while (!this.stopped) {
      const seen = this.store.index();
      const nodes = this.store.tableIndex(NODES_TABLE);
      const key = draining > 0 ? `${nodes}:${this.store.tableIndex(ALLOCS_TABLE)}` : `${nodes}`;
      const now = Date.now();
      if (key !== handled || (nextDeadlineMs !== undefined && nextDeadlineMs <= now)) {
        try {
          const plan = await this.pass();
          draining = plan.draining;
          nextDeadlineMs = plan.nextDeadlineMs;
          handled = key;
        } catch (err) {
          this.log.error(`node drain pass failed: ${(err as Error).stack ?? String(err)}`);
          await this.pause(RETRY_MS);
        }
        continue;
      }
      const until = Math.min(POLL_MS, (nextDeadlineMs ?? Infinity) - now);
      // With no drain under way only the nodes table can start one: other writes need not wake it.
      const wakeOn = draining > 0 ? this.store.waitForIndex(seen, Math.max(1, until)) : this.store.waitForIndex(nodes, Math.max(1, until), NODES_TABLE);
      await Promise.race([wakeOn, this.interrupted()]);
    }
  }

  /** Plans; when there is something to do, waits out the batch window and writes what still holds then. */
  private async pass(): Promise<DrainPlan> {
    const plan = planDrains(drainView(this.store), Date.now());
    if (plan.migrate.length === 0 && plan.complete.length === 0) return plan;
    if (plan.migrate.length > 0) await this.pause(this.batchWindowMs);
    if (this.stopped) return plan;
    const { result } = await this.store.write((tx) => {
      tx.describe(WriteKind.AllocUpdateDesiredTransition);
      const fresh = planDrains(drainView(tx), Date.now());
      const marked = markForMigration(tx, fresh.migrate);
      for (const { node, deadlineReached } of fresh.complete) completeNodeDrain(tx, node, deadlineReached);
      return { fresh, marked };
    });
    if (result.marked > 0) this.log.info(`marked ${result.marked} allocation(s) for migration`);
    for (const { node, deadlineReached } of result.fresh.complete) this.log.info(`node ${node.ID} completed draining${deadlineReached ? ' (deadline reached)' : ''}`);
    return result.fresh;
  }

  private interrupted(): Promise<void> {
    return new Promise((resolve) => (this.interrupt = resolve));
  }

  private async pause(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), this.interrupted()]);
    clearTimeout(timer);
  }
}
