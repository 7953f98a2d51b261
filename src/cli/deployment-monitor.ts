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
 * On a terminal the block is redrawn in place (ANSI cursor movement) under a spinning
 * `Deployment "3eefc5eb" in progress...` line; elsewhere (CI logs, pipes) each new state is printed
 * below the last. A failed deployment that is rolling back (auto_revert) is reported, then the job's
 * next deployment, the rollback, is followed too.
 *
 * The result is the exit code: 0 when the deployment succeeded, 1 otherwise, also when the rollback
 * succeeded: the version that was asked for did not deploy.
 */
import type { ApiClient } from '../api/client.js';
import type { Io } from './io.js';
import { ApiError } from '../shared/errors.js';
import { deploymentAllocations, getDeployment, jobDeployments, type Deployment } from '../api/deployments.js';
import { allocListTable, formatTime, limit, newestFirst, quote } from './output/nomad.js';
import { TERMINAL_DEPLOYMENT_STATUSES, formatDeployment, monitorBlock, monitorStatusLine, rollbackVersion } from './output/deployment.js';

export interface DeploymentMonitorOptions {
  client: Pick<ApiClient, 'scheduler'>;
  io: Pick<Io, 'out' | 'err' | 'color'> & { stdout: { isTTY?: boolean; columns?: number; write(text: string): unknown } };
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
  /** the spinner's frame interval on a terminal; 0 for none */
  spinnerMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Printable width of a line: without ANSI escapes. */
const visible = (line: string) => line.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').length;

/** The terminal rows `text` takes when lines wrap at `columns`. */
export function terminalRows(text: string, columns: number | undefined): number {
  const width = columns && columns > 0 ? columns : Infinity;
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(visible(line) / width)), 0);
}

/**
 * A block of lines redrawn in place on a terminal: the cursor stays at the end of its last line, and a
 * redraw moves up to its first line, clears to the end of the screen and writes the new text.
 */
export class LiveRegion {
  private rows = 0;

  constructor(private readonly stream: { columns?: number; write(text: string): unknown }) {}

  /** Replaces the region's text (no trailing newline). */
  draw(text: string): void {
    let out = '';
    if (this.rows > 0) out += `\r${this.rows > 1 ? `\x1b[${this.rows - 1}A` : ''}\x1b[J`;
    this.stream.write(out + text);
    this.rows = terminalRows(text, this.stream.columns);
  }

  /** Rewrites only the last line, which must fit on one row (the spinner). */
  redrawLastLine(line: string): void {
    if (this.rows === 0) return;
    this.stream.write(`\r\x1b[K${line}`);
  }

  /** Leaves the region as it is and moves below it. */
  close(): void {
    if (this.rows > 0) this.stream.write('\n');
    this.rows = 0;
  }
}

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
    const region = this.tty ? new LiveRegion(io.stdout) : undefined;
    let frame = 0;
    let block = '';
    let status = 'running';
    const statusLine = () => monitorStatusLine(id, status, length, { spinner: region && this.opts.spinnerMs !== 0 ? SPINNER[frame % SPINNER.length] : undefined, color: io.color });
    const spinnerMs = this.opts.spinnerMs ?? 100;
    const timer =
      region && spinnerMs > 0
        ? setInterval(() => {
            frame++;
            region.redrawLastLine(statusLine());
          }, spinnerMs)
        : undefined;
    timer?.unref();
    const stop = () => {
      if (timer) clearInterval(timer);
      region?.close();
    };

    let index = 0;
    let shown = '';
    try {
      for (;;) {
        let answer;
        try {
          answer = await getDeployment(this.opts.client, id, { index, wait: this.opts.wait ?? '30s', namespace });
        } catch (err) {
          stop();
          io.err(`${formatTime(this.now())}: Error fetching deployment: ${describe(err)}`);
          return undefined;
        }
        const d = answer.deployment;
        namespace = d.Namespace || namespace;
        status = d.Status;
        const allocations = await this.allocations(d);
        const key = formatDeployment(d, length) + (allocations ?? '');
        const terminal = TERMINAL_DEPLOYMENT_STATUSES.has(d.Status);
        if (key !== shown) {
          shown = key;
          block = monitorBlock(d, { length, time: this.now(), allocations });
          if (region) region.draw(`\n${block}\n${statusLine()}`);
          else io.out(`\n${block}`);
        } else if (region && terminal) {
          region.draw(`\n${block}\n${statusLine()}`);
        }
        if (terminal) {
          stop();
          if (!region) io.out(`\n${statusLine()}`);
          return d;
        }
        const next = Math.max(answer.index, d.ModifyIndex);
        // A server that does not block answers at once with the same index: do not spin.
        if (next <= index) await this.sleep(250);
        index = next;
      }
    } finally {
      stop();
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
