/**
 * The deployment monitor of `job run` and `deployment status -monitor`: follows a
 * deployment with blocking queries on /v1/deployment/:id until it ends, showing its state each time it
 * changes:
 *
 *   ==> 2026-08-21T10:00:01Z: Monitoring deployment "3eefc5eb"
 *
 *       2026-08-21T10:00:03Z
 *       ID          = 3eefc5eb
 *       Job ID      = web
 *       Job Version = 0
 *       Status      = successful
 *       Description = Deployment completed successfully
 *
 *       Deployed
 *       Task Group  Desired  Placed  Healthy  Unhealthy  Progress Deadline
 *       web         2        2       2        0          2026-08-21T10:10:03Z
 *
 *     ✓ Deployment "3eefc5eb" successful
 *
 * On a terminal the block is redrawn in place (the terminal's own cursor movement); elsewhere (CI logs,
 * pipes) each new state is printed below the last. While the deployment runs, a spinner on stderr says
 * `Deployment "3eefc5eb" in progress...` when stderr is a terminal (src/cli/spinner.ts: ora, which takes
 * it off the screen around each redraw and draws it again below the block). A failed deployment that is
 * rolling back (auto_revert) is reported, then the job's next deployment, the rollback, is followed too.
 *
 * The result is the exit code: 0 when the deployment succeeded, 1 otherwise, also when the rollback
 * succeeded: the version that was asked for did not deploy.
 */
import { stripVTControlCharacters } from 'node:util';
import type { ApiClient } from '../api/http/client.js';
import type { Io } from './io.js';
import { ApiError } from '../shared/errors.js';
import { deploymentAllocations, getDeployment, jobDeployments, type Deployment } from '../api/deployments.js';
import { allocListTable, formatTime, limit, newestFirst, quote } from './output/nomad.js';
import { TERMINAL_DEPLOYMENT_STATUSES, formatDeployment, monitorBlock, monitorStatusLine, rollbackVersion } from './output/deployment.js';
import { colours } from './output/colour.js';
import { startSpinner, type SpinnerIo } from './spinner.js';

/** A terminal's stream, which a region redraws on (what tty.WriteStream offers). */
export interface TerminalStream {
  columns?: number;
  write(text: string): unknown;
  moveCursor(dx: number, dy: number): unknown;
  cursorTo(x: number): unknown;
  clearScreenDown(): unknown;
}

export interface DeploymentMonitorOptions {
  client: Pick<ApiClient, 'scheduler'>;
  io: Pick<Io, 'out' | 'err'> & SpinnerIo & { stdout: { isTTY?: boolean; columns?: number; write(text: string): unknown } & Partial<TerminalStream> };
  /** ID length: 8, or 36 with -verbose */
  length: number;
  /** also show the deployment's allocations (-verbose) */
  verbose?: boolean;
  /** redraw in place; by default when stdout is a terminal */
  tty?: boolean;
  /** how long the server may hold each blocking query (a Go duration) */
  wait?: string;
  /** how long to wait for the rollback deployment of a failed deployment to appear */
  rollbackWaitMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

/** The terminal rows `text` takes when lines wrap at `columns`. */
export function terminalRows(text: string, columns: number | undefined): number {
  const width = columns && columns > 0 ? columns : Infinity;
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(stripVTControlCharacters(line).length / width)), 0);
}

/**
 * A block of whole lines redrawn in place on a terminal. The cursor stays at the start of the row below
 * it, where a spinner may draw; a redraw moves up to the block's first row, clears to the end of the
 * screen and writes the new text.
 */
export class LiveRegion {
  private rows = 0;

  constructor(private readonly stream: TerminalStream) {}

  /** Replaces the region's text, which ends with a newline. */
  draw(text: string): void {
    if (this.rows > 0) {
      this.stream.moveCursor(0, -this.rows);
      this.stream.cursorTo(0);
      this.stream.clearScreenDown();
    }
    this.stream.write(text);
    this.rows = terminalRows(text.replace(/\n$/, ''), this.stream.columns);
  }
}

const isTerminal = (stream: Partial<TerminalStream>): stream is TerminalStream =>
  typeof stream.moveCursor === 'function' && typeof stream.cursorTo === 'function' && typeof stream.clearScreenDown === 'function';

function describe(err: unknown): string {
  if (err instanceof ApiError) return `Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`;
  return (err as Error)?.message ?? String(err);
}

class DeploymentMonitor {
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly tty: boolean;

  constructor(private readonly opts: DeploymentMonitorOptions) {
    this.now = opts.now ?? (() => new Date());
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.tty = opts.tty ?? opts.io.stdout.isTTY === true;
  }

  private info(msg: string): void {
    this.opts.io.out(`==> ${formatTime(this.now())}: ${msg}`);
  }

  private async allocations(d: Deployment): Promise<string | undefined> {
    if (!this.opts.verbose) return undefined;
    try {
      const allocs = await deploymentAllocations(this.opts.client, d.ID, d.Namespace);
      return allocListTable(newestFirst(allocs), true, this.now().getTime());
    } catch (err) {
      return `Error fetching allocations: ${describe(err)}\n`;
    }
  }

  /** Follows one deployment to its end; answers its last state, or undefined when it could not be read. */
  private async watch(id: string, namespace: string | undefined): Promise<Deployment | undefined> {
    const { io, length } = this.opts;
    const region = this.tty && isTerminal(io.stdout) ? new LiveRegion(io.stdout) : undefined;
    const spinner = startSpinner(io, monitorStatusLine(id, 'running', length).trim());
    let index = 0;
    let shown = '';
    try {
      for (;;) {
        let answer;
        try {
          answer = await getDeployment(this.opts.client, id, { index, wait: this.opts.wait ?? '30s', namespace });
        } catch (err) {
          spinner.stop();
          io.err(`${formatTime(this.now())}: Error fetching deployment: ${describe(err)}`);
          return undefined;
        }
        const d = answer.deployment;
        namespace = d.Namespace || namespace;
        const allocations = await this.allocations(d);
        const key = formatDeployment(d, length) + (allocations ?? '');
        if (key !== shown) {
          shown = key;
          const block = `\n${monitorBlock(d, { length, time: this.now(), allocations })}`;
          if (region) region.draw(block);
          else io.out(block);
        }
        if (TERMINAL_DEPLOYMENT_STATUSES.has(d.Status)) {
          spinner.stop();
          io.out(`\n${monitorStatusLine(id, d.Status, length, colours())}`);
          return d;
        }
        const next = Math.max(answer.index, d.ModifyIndex);
        // A server that does not block answers at once with the same index: do not spin.
        if (next <= index) await this.sleep(250);
        index = next;
      }
    } finally {
      spinner.stop();
    }
  }

  /** The job's next deployment after `failed`: the rollback, once the reverted version is scheduled. */
  private async rollbackOf(failed: Deployment): Promise<Deployment | undefined> {
    const deadline = this.now().getTime() + (this.opts.rollbackWaitMs ?? 10_000);
    let index = 0;
    for (;;) {
      let answer;
      try {
        answer = await jobDeployments(this.opts.client, failed.JobID, { namespace: failed.Namespace, index, wait: '1s' });
      } catch (err) {
        this.opts.io.err(`${formatTime(this.now())}: Error fetching rollback deployment: ${describe(err)}`);
        return undefined;
      }
      const later = answer.deployments.filter((d) => d.ID !== failed.ID && d.CreateIndex > failed.CreateIndex).sort((a, b) => a.CreateIndex - b.CreateIndex);
      if (later.length > 0) return later[0];
      if (this.now().getTime() >= deadline) return undefined;
      if (answer.index <= index) await this.sleep(250);
      index = answer.index;
    }
  }

  async run(id: string, namespace?: string): Promise<number> {
    this.info(`Monitoring deployment ${quote(limit(id, this.opts.length))}`);
    const last = await this.watch(id, namespace);
    if (!last) return 1;
    if (last.Status === 'successful') return 0;
    if (last.Status === 'failed' && rollbackVersion(last.StatusDescription) !== undefined) {
      const rollback = await this.rollbackOf(last);
      if (rollback) {
        this.opts.io.out('');
        this.info(`Monitoring rollback deployment ${quote(limit(rollback.ID, this.opts.length))}`);
        await this.watch(rollback.ID, rollback.Namespace);
      }
    }
    return 1;
  }
}

/**
 * Follows a deployment (and the rollback of a failed one) to its end; answers the exit code: 0 when it
 * succeeded, 1 when it failed, was cancelled, or could not be read.
 */
export function monitorDeployment(opts: DeploymentMonitorOptions, deploymentId: string, namespace?: string): Promise<number> {
  return new DeploymentMonitor(opts).run(deploymentId, namespace);
}
