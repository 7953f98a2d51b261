/**
 * The evaluation broker and its worker. The store's `evals-pending` table is the queue's truth, so what
 * an acknowledged register created is never lost; the broker works from a copy in memory (eval-queue.ts),
 * rebuilt from that table when it starts and then fed from `evals-queued` by table index: each look reads
 * only the entries queued since the last one, whichever server process wrote them. Evaluations run one
 * is scheduled at a time, highest priority first, then oldest; delayed ones wait for their WaitUntil.
 *
 * One worker is enough on one process: scheduling is CPU work on Node's one thread, so a second worker
 * would only interleave with the first. It does not wait for a plan's commit either: it schedules the
 * next evaluation while the store commits (lmdb then writes the plans queued meanwhile in one
 * transaction), reading node usage with the in-flight plans' placements added (in-flight-plans.ts), so
 * two plans never take the same room. It waits for every in-flight plan before an evaluation of a job
 * that has one, and after a plan that changes existing allocations.
 *
 * An evaluation counts as processed once its plan is durable, which is also when the store tells the
 * evaluation's waiters. The broker itself wakes on a new evaluation's commit, not its flush
 * (store.waitForCommit): the plan it writes becomes durable only after the evaluation does, so a
 * flush is saved per evaluation and nothing acknowledged depends on a write a crash could take away.
 */
import type { Logger } from '../shared/log.js';
import type { Store } from '../storage/store.js';
import { EvalQueue } from './eval-queue.js';
import { failEval, applyPlan, writtenInChunks, type ApplyOutcome } from './plan-apply.js';
import { InFlightPlans } from './in-flight-plans.js';
import type { Scheduler } from './sched/types.js';
import type { Evaluation } from './structs/evaluation.js';
import { EVALS_QUEUED, getEval, pendingEvals, queuedSince, type PendingEntry } from './state/evals.js';
import { getJob } from './state/jobs.js';
import { storeState } from './state/scheduler-state.js';
import { failedPlacements, invokeSchedulerCell, placements, planApply } from './telemetry.js';

/** Nomad's delivery limit: an evaluation that fails this many times in a row is marked failed. */
const DELIVERY_LIMIT = 3;
/** How long a failed attempt waits before the next one. */
const RETRY_DELAY_MS = 1000;
/**
 * Upper bound of one wait for new work: stop() is noticed, and so are evaluations queued by another
 * server process, whose writes wake no waiter here.
 */
const POLL_MS = 1000;
/** Plans committing at once: enough to fill a commit while the next ones are scheduled. */
const MAX_IN_FLIGHT = 32;

export interface BrokerStats {
  processed: number;
  failed: number;
}

export class EvalBroker {
  private stopped = false;
  private loopDone: Promise<void> | undefined;
  private readonly queue = new EvalQueue();
  /** The `evals-queued` table index up to which the queue has read the store. */
  private seen = 0;
  private readonly attempts = new Map<string, { count: number; retryAt: number }>();
  private readonly unsettled = new Set<string>();
  private readonly flushing = new Set<Promise<void>>();
  private readonly inFlight = new InFlightPlans();
  /** one promise per in-flight plan, settled once its evaluation is acknowledged or sent back to the queue */
  private readonly committing = new Set<Promise<void>>();
  /** ends the loop's current wait for work (stop() calls it, so a stop does not wait out a poll) */
  private wake: () => void = () => undefined;
  readonly stats: BrokerStats = { processed: 0, failed: 0 };

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly schedulerFor: (jobType: string) => Scheduler,
  ) {}

  start(): void {
    this.loopDone ??= this.loop().catch((err: Error) => this.log.error(`evaluation broker stopped: ${err.stack ?? err.message}`));
  }

  /** Lets the evaluation being processed finish and the plans written reach the disk, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loopDone;
    await this.settle();
    while (this.flushing.size > 0) await Promise.all([...this.flushing]);
  }

  /**
   * Pending evaluations that cannot stand in for a new one: those this broker has begun and not yet
   * committed (their scheduler may have read the state before the change a new one would react to), and
   * those waiting to be retried after a failure. The broker and heartbeats run on one server, as on
   * Nomad's leader, so this is every evaluation in progress.
   */
  unsettledEvals(): ReadonlySet<string> {
    return this.unsettled;
  }

  /** Nomad's broker figures: ready and waiting in the queue, unacknowledged (plans committing). */
  counts(): { ready: number; waiting: number; unacked: number } {
    return { ...this.queue.counts(Date.now()), unacked: this.committing.size };
  }

  private async loop(): Promise<void> {
    this.seen = this.store.tableIndex(EVALS_QUEUED);
    for (const entry of pendingEvals(this.store)) this.queue.offer(entry);
    while (!this.stopped) {
      this.readQueued();
      const now = Date.now();
      const next = this.queue.take(now);
      if (!next.entry) {
        const stopping = new Promise<void>((resolve) => (this.wake = resolve));
        await Promise.race([this.store.waitForCommit(this.seen, Math.max(1, Math.min(POLL_MS, (next.wakeAt ?? Infinity) - now)), EVALS_QUEUED), stopping]);
        continue;
      }
      if (this.inFlight.mustSettleBefore(next.entry.namespace, next.entry.jobId)) await this.settle();
      while (this.committing.size >= MAX_IN_FLIGHT) await Promise.race(this.committing);
      await this.process(next.entry);
      // lmdb runs a transaction's callbacks on this thread: without a turn of the event loop here, the plan
      // just queued would wait for every queued evaluation to be scheduled, and then be committed and
      // flushed while nothing else runs. A turn lets its commit overlap the next evaluation (and lets the
      // heartbeats in). Measured: 10-job batches on a full cluster went from 3,900 to 4,500 placements/s.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Waits until every in-flight plan is visible or sent back. */
  private async settle(): Promise<void> {
    while (this.committing.size > 0) await Promise.all([...this.committing]);
  }

  /** Adds what was queued since the last look; what is read twice (a write racing the look) counts once. */
  private readQueued(): void {
    const index = this.store.tableIndex(EVALS_QUEUED);
    if (index <= this.seen) return;
    for (const entry of queuedSince(this.store, this.seen)) this.queue.offer(entry, this.attempts.get(entry.id)?.retryAt);
    this.seen = index;
  }

  /** Schedules the evaluation and hands its plan to the store; returns before the commit (see above). */
  private async process(entry: PendingEntry): Promise<void> {
    const evaluation = getEval(this.store, entry.id);
    if (!evaluation || evaluation.Status !== 'pending') return;
    const started = performance.now();
    this.unsettled.add(evaluation.ID);
    let outcome: Promise<ApplyOutcome>;
    let chunked: boolean;
    try {
      const job = getJob(this.store, evaluation.Namespace, evaluation.JobID);
      const type = job?.Type ?? evaluation.Type;
      const scheduler = this.schedulerFor(type);
      const invoked = performance.now();
      const result = await scheduler(evaluation, storeState(this.store, this.inFlight));
      invokeSchedulerCell(type).since(invoked);
      countFailedPlacements(result.eval.FailedTGAllocs);
      // Recorded before its commit is queued, so every later read counts it, once: in flight until its
      // transaction's index is known, then by whether the read is of that index or later.
      this.inFlight.add(evaluation.ID, evaluation.Namespace, evaluation.JobID, result.plan);
      const handedOver = performance.now();
      outcome = applyPlan(this.store, evaluation, result, (index) => this.inFlight.committingAt(evaluation.ID, index));
      void outcome.then(() => planApply.since(handedOver), () => undefined);
      chunked = writtenInChunks(result);
    } catch (err) {
      await this.retryOrFail(entry, evaluation, err);
      return;
    }
    const settled = outcome.then(
      (o) => {
        this.inFlight.remove(evaluation.ID);
        this.attempts.delete(evaluation.ID);
        this.unsettled.delete(evaluation.ID);
        this.acknowledge(evaluation, o, started);
      },
      (err: unknown) => {
        this.inFlight.remove(evaluation.ID);
        return this.retryOrFail(entry, evaluation, err);
      },
    );
    this.committing.add(settled);
    void settled.finally(() => this.committing.delete(settled));
    // A plan in chunks is visible a chunk at a time, which the in-flight usage would count twice.
    if (chunked) await settled;
  }

  /** Queues the evaluation again after a failed attempt, or marks it failed after DELIVERY_LIMIT of them. */
  private async retryOrFail(entry: PendingEntry, evaluation: Evaluation, err: unknown): Promise<void> {
    const message = err instanceof Error ? err.message : String(err);
    const tries = (this.attempts.get(evaluation.ID)?.count ?? 0) + 1;
    this.log.error(`evaluation ${evaluation.ID} of job ${evaluation.JobID} failed (attempt ${tries}): ${err instanceof Error ? err.stack : message}`);
    if (tries < DELIVERY_LIMIT) {
      const retryAt = Date.now() + RETRY_DELAY_MS;
      this.attempts.set(evaluation.ID, { count: tries, retryAt });
      this.queue.offer(entry, retryAt);
      return;
    }
    this.attempts.delete(evaluation.ID);
    this.unsettled.delete(evaluation.ID);
    this.stats.failed++;
    await failEval(this.store, evaluation, `evaluation failed ${tries} times: ${message}`).catch((e: Error) =>
      this.log.error(`evaluation ${evaluation.ID}: could not be marked failed: ${e.message}`),
    );
  }

  private acknowledge(evaluation: Evaluation, outcome: ApplyOutcome, started: number): void {
    const done = outcome.durable.then(
      () => {
        this.stats.processed++;
        if (outcome.placed > 0) placements.inc(outcome.placed);
        this.log.debug(
          `evaluation ${evaluation.ID} (${evaluation.TriggeredBy}, job ${evaluation.JobID}): placed ${outcome.placed}, updated ${outcome.updated} in ${(performance.now() - started).toFixed(0)}ms`,
        );
      },
      (err: Error) => this.log.error(`evaluation ${evaluation.ID}: its plan was committed but could not be flushed to disk: ${err.message}`),
    );
    this.flushing.add(done);
    void done.then(() => this.flushing.delete(done));
  }
}

/** A task group's failed placements are its first failure and those coalesced into it, as Nomad counts them. */
function countFailedPlacements(failed: Record<string, { CoalescedFailures?: number }> | null): void {
  if (!failed) return;
  for (const metric of Object.values(failed)) failedPlacements.inc(1 + (metric.CoalescedFailures ?? 0));
}
