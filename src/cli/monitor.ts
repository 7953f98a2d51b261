/**
 * The evaluation monitor of `job run`, `job stop`, `job eval`, `alloc stop` and `eval status -monitor`:
 * polls the evaluation and its allocations and prints what changed, Nomad's lines:
 *
 *   ==> 2026-08-21T10:00:00Z: Monitoring evaluation "b9c0dff9"
 *       2026-08-21T10:00:00Z: Evaluation triggered by job "example"
 *       2026-08-21T10:00:00Z: Allocation "b38c1107" created: node "44624543", group "cache"
 *       2026-08-21T10:00:01Z: Evaluation status changed: "pending" -> "complete"
 *   ==> 2026-08-21T10:00:01Z: Evaluation "b9c0dff9" finished with status "complete"
 *
 * It follows NextEval, and ends when the evaluation is terminal. The result is the exit code: 0, 2 when
 * an evaluation failed to place allocations (a blocked evaluation then waits for capacity; the monitor
 * does not wait for it), 1 when the evaluation could not be read; `followEvaluation` also answers the
 * deployment the last evaluation placed into, which `job run` then follows with the deployment monitor
 * (src/cli/deployment-monitor.ts). Lines go to stdout, one per change, on a terminal or not; while it
 * waits, a spinner on stderr when that is a terminal (src/cli/spinner.ts).
 */
import type { ApiClient } from '../api/http/client.js';
import type { Io } from './io.js';
import type { Evaluation } from '../api/evals.js';
import type { AllocStub } from '../api/allocs.js';
import { ApiError } from '../shared/errors.js';
import { formatGoDuration } from '../shared/duration.js';
import { failedPlacementHeading, formatAllocMetrics, formatTime, limit, quote, sortedKeys } from './output/nomad.js';
import { startSpinner, type Spinner, type SpinnerIo } from './spinner.js';

export interface MonitorOptions {
  client: Pick<ApiClient, 'scheduler'>;
  io: Pick<Io, 'out' | 'err'> & SpinnerIo;
  /** ID length on the lines: 8, or 36 with -verbose */
  length: number;
  /** the namespace the evaluation lives in */
  namespace?: string;
  /** first poll interval; it grows to `maxPollMs` (Nomad polls every second) */
  pollMs?: number;
  maxPollMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

interface AllocState {
  group: string;
  node: string;
  desired: string;
  client: string;
  clientDesc: string;
  index: number;
}

interface EvalState {
  status: string;
  node: string;
  job: string;
  deployment: string;
  index: number;
  allocs: Map<string, AllocState>;
}

const freshState = (): EvalState => ({ status: 'pending', node: '', job: '', deployment: '', index: 0, allocs: new Map() });

const TERMINAL = new Set(['complete', 'failed', 'canceled', 'cancelled']);

class Monitor {
  private state = freshState();
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: MonitorOptions) {
    this.now = opts.now ?? (() => new Date());
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private info(msg: string): void {
    this.opts.io.out(`==> ${formatTime(this.now())}: ${msg}`);
  }

  private output(msg: string): void {
    this.opts.io.out(`    ${formatTime(this.now())}: ${msg}`);
  }

  private raw(line: string): void {
    this.opts.io.out(`    ${line}`);
  }

  private id(id: string | undefined): string {
    return limit(id, this.opts.length);
  }

  private query() {
    return this.opts.namespace ? { namespace: this.opts.namespace } : {};
  }

  /** Prints what changed between the last state and this one (Nomad's monitor.update). */
  private update(next: EvalState): void {
    const prev = this.state;
    if (prev.node === '' && next.node !== '') this.output(`Evaluation triggered by node ${quote(this.id(next.node))}`);
    if (prev.job === '' && next.job !== '') this.output(`Evaluation triggered by job ${quote(next.job)}`);
    if (prev.deployment === '' && next.deployment !== '') this.output(`Evaluation within deployment: ${quote(this.id(next.deployment))}`);
    for (const [id, alloc] of next.allocs) {
      const before = prev.allocs.get(id);
      if (!before) {
        if (alloc.index < next.index) {
          this.output(`Allocation ${quote(this.id(id))} modified: node ${quote(this.id(alloc.node))}, group ${quote(alloc.group)}`);
        } else if (alloc.desired === 'run') {
          this.output(`Allocation ${quote(this.id(id))} created: node ${quote(this.id(alloc.node))}, group ${quote(alloc.group)}`);
        }
      } else if (before.client !== alloc.client) {
        const desc = alloc.clientDesc ? ` (${alloc.clientDesc})` : '';
        this.output(`Allocation ${quote(this.id(id))} status changed: ${quote(before.client)} -> ${quote(alloc.client)}${desc}`);
      }
    }
    // Nomad skips transitions into "pending".
    if (prev.status !== '' && next.status !== 'pending' && prev.status !== next.status) {
      this.output(`Evaluation status changed: ${quote(prev.status)} -> ${quote(next.status)}`);
    }
    this.state = next;
  }

  private async read(evalId: string): Promise<{ evaluation: Evaluation; allocs: AllocStub[] } | number> {
    const { client, io } = this.opts;
    let evaluation: Evaluation;
    try {
      evaluation = (await client.scheduler<Evaluation>('GET', `/v1/evaluation/${encodeURIComponent(evalId)}`, { query: this.query() })).body;
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 404) io.err(`No evaluation with id ${quote(evalId)} found`);
      else io.err(`Error reading evaluation: ${describe(err)}`);
      return 1;
    }
    try {
      const allocs = (await client.scheduler<AllocStub[]>('GET', `/v1/evaluation/${encodeURIComponent(evalId)}/allocations`, { query: this.query() })).body ?? [];
      return { evaluation, allocs };
    } catch (err) {
      io.err(`${formatTime(this.now())}: Error reading allocations: ${describe(err)}`);
      return 1;
    }
  }

  /** The deployment of the evaluation looked at last ("" when none). */
  get deployment(): string {
    return this.state.deployment;
  }

  async run(evalId: string): Promise<number> {
    const spinner = startSpinner(this.opts.io, this.waiting(evalId));
    try {
      return await this.follow(evalId, spinner);
    } finally {
      spinner.stop();
    }
  }

  private waiting(evalId: string): string {
    return `Waiting for evaluation ${quote(this.id(evalId))}`;
  }

  private async follow(evalId: string, spinner: Spinner): Promise<number> {
    let schedFailure = false;
    let current = evalId;
    this.state = freshState();
    this.info(`Monitoring evaluation ${quote(this.id(current))}`);
    let interval = this.opts.pollMs ?? 250;
    const maxInterval = this.opts.maxPollMs ?? 1000;
    for (;;) {
      const answer = await this.read(current);
      if (typeof answer === 'number') return answer;
      const { evaluation: e, allocs } = answer;
      const next: EvalState = {
        status: e.Status,
        node: e.NodeID ?? '',
        job: e.JobID ?? '',
        deployment: e.DeploymentID ?? '',
        index: e.CreateIndex,
        allocs: new Map(
          allocs.map((a) => [a.ID, { group: a.TaskGroup, node: a.NodeID, desired: a.DesiredStatus, client: a.ClientStatus, clientDesc: a.ClientDescription, index: a.CreateIndex }]),
        ),
      };
      this.update(next);

      if (e.Status === 'blocked') {
        // Monitoring a blocked evaluation itself: it waits for capacity, which may never come.
        this.info(`Evaluation ${quote(this.id(e.ID))} is blocked, waiting for additional capacity`);
        return 2;
      }
      if (!TERMINAL.has(e.Status)) {
        await this.sleep(interval);
        interval = Math.min(maxInterval, interval * 2);
        continue;
      }

      const failed = e.FailedTGAllocs ?? {};
      if (Object.keys(failed).length === 0) {
        this.info(`Evaluation ${quote(this.id(e.ID))} finished with status ${quote(e.Status)}`);
      } else {
        schedFailure = true;
        this.info(`Evaluation ${quote(this.id(e.ID))} finished with status ${quote(e.Status)} but failed to place all allocations:`);
        for (const group of sortedKeys(failed)) {
          this.output(failedPlacementHeading(group, failed[group]));
          const metrics = formatAllocMetrics(failed[group], false, '  ');
          for (const line of metrics.split('\n')) if (line !== '') this.raw(line);
        }
        if (e.BlockedEval) this.output(`Evaluation ${quote(this.id(e.BlockedEval))} waiting for additional capacity to place remainder`);
      }

      if (!e.NextEval) break;
      if (e.Wait && e.Wait > 0) {
        this.info(`Monitoring next evaluation ${quote(this.id(e.NextEval))} in ${formatGoDuration(e.Wait)}`);
        await this.sleep(e.Wait / 1e6);
      }
      current = e.NextEval;
      spinner.update(this.waiting(current));
      this.state = freshState();
      interval = this.opts.pollMs ?? 250;
      this.info(`Monitoring evaluation ${quote(this.id(current))}`);
    }
    return schedFailure ? 2 : 0;
  }
}

function describe(err: unknown): string {
  if (err instanceof ApiError) return `Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`;
  return (err as Error)?.message ?? String(err);
}

/** Monitors an evaluation to its end; answers the exit code (0, 1, or 2 for placement failures). */
export function monitorEvaluation(opts: MonitorOptions, evalId: string): Promise<number> {
  return new Monitor(opts).run(evalId);
}

export interface EvaluationOutcome {
  /** 0, 1 (the evaluation could not be read) or 2 (allocations could not be placed) */
  code: number;
  /** the deployment the last evaluation of the chain placed into, "" when none */
  deploymentId: string;
}

/** Monitors an evaluation to its end, as monitorEvaluation, and answers its deployment too. */
export async function followEvaluation(opts: MonitorOptions, evalId: string): Promise<EvaluationOutcome> {
  const monitor = new Monitor(opts);
  const code = await monitor.run(evalId);
  return { code, deploymentId: monitor.deployment };
}
