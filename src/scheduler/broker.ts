/**
 * The evaluation broker and its worker. The queue is the store's `evals-pending` table, so what an
 * acknowledged register created is never lost: on start the broker simply finds it there. Evaluations
 * run one at a time, highest priority first, then oldest; delayed ones wait for their WaitUntil.
 *
 * One worker is enough on one process: scheduling is CPU work on Node's one thread, so a second worker
 * would only interleave with the first; and it means two plans never compete for the same node.
 */
import type { Logger } from '../shared/log.js';
import type { Store } from '../storage/store.js';
import { failEval, applyPlan } from './plan-apply.js';
import type { Scheduler } from './sched/types.js';
import { EVALS_PENDING, getEval, pendingEvals, type PendingEntry } from './state/evals.js';
import { getJob } from './state/jobs.js';
import { storeState } from './state/scheduler-state.js';

/** Nomad's delivery limit: an evaluation that fails this many times in a row is marked failed. */
const DELIVERY_LIMIT = 3;
/** How long a failed attempt waits before the next one. */
const RETRY_DELAY_MS = 1000;
/** Upper bound of one wait for new work, so stop() is noticed. */
const POLL_MS = 1000;

export interface BrokerStats {
  processed: number;
  failed: number;
}

export class EvalBroker {
  private stopped = false;
  private loopDone: Promise<void> | undefined;
  private readonly attempts = new Map<string, { count: number; retryAt: number }>();
  readonly stats: BrokerStats = { processed: 0, failed: 0 };

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly schedulerFor: (jobType: string) => Scheduler,
  ) {}

  start(): void {
    this.loopDone ??= this.loop().catch((err: Error) => this.log.error(`evaluation broker stopped: ${err.stack ?? err.message}`));
  }

  /** Lets the evaluation being processed finish, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loopDone;
  }

  private next(now: number): { entry?: PendingEntry; wakeAt: number } {
    let best: PendingEntry | undefined;
    let wakeAt = now + POLL_MS;
    for (const e of pendingEvals(this.store)) {
      const notBefore = Math.max(e.waitUntil, this.attempts.get(e.id)?.retryAt ?? 0);
      if (notBefore > now) {
        wakeAt = Math.min(wakeAt, notBefore);
        continue;
      }
      if (!best || e.priority > best.priority || (e.priority === best.priority && e.createIndex < best.createIndex)) best = e;
    }
    return { entry: best, wakeAt };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const now = Date.now();
      const seen = this.store.tableIndex(EVALS_PENDING);
      const { entry, wakeAt } = this.next(now);
      if (!entry) {
        await this.store.waitForIndex(seen, Math.max(1, wakeAt - now), EVALS_PENDING);
        continue;
      }
      await this.process(entry);
    }
  }

  private async process(entry: PendingEntry): Promise<void> {
    const evaluation = getEval(this.store, entry.id);
    if (!evaluation || evaluation.Status !== 'pending') return;
    const started = performance.now();
    try {
      const job = getJob(this.store, evaluation.Namespace, evaluation.JobID);
      const scheduler = this.schedulerFor(job?.Type ?? evaluation.Type);
      const result = await scheduler(evaluation, storeState(this.store));
      const outcome = await applyPlan(this.store, evaluation, result);
      this.attempts.delete(evaluation.ID);
      this.stats.processed++;
      this.log.debug(
        `evaluation ${evaluation.ID} (${evaluation.TriggeredBy}, job ${evaluation.JobID}): placed ${outcome.placed}, updated ${outcome.updated} in ${(performance.now() - started).toFixed(0)}ms`,
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const tries = (this.attempts.get(evaluation.ID)?.count ?? 0) + 1;
      this.log.error(`evaluation ${evaluation.ID} of job ${evaluation.JobID} failed (attempt ${tries}): ${err instanceof Error ? err.stack : message}`);
      if (tries < DELIVERY_LIMIT) {
        this.attempts.set(evaluation.ID, { count: tries, retryAt: Date.now() + RETRY_DELAY_MS });
        return;
      }
      this.attempts.delete(evaluation.ID);
      this.stats.failed++;
      await failEval(this.store, evaluation, `evaluation failed ${tries} times: ${message}`);
    }
  }
}
