/**
 * Following a node's drain, as Nomad's api.Nodes.MonitorDrain and `node drain` print it: two watches
 * with blocking queries, each line stamped with the time it is printed.
 *
 * - The node: "Drain complete for node <id>" once its drain strategy is gone (the watch ends there),
 *   "Node "<id>" down" while it is down (stderr), and "Node "<id>" drain updated: …" when the strategy
 *   changes.
 * - Its allocations: "Alloc "<id>" marked for migration", "Alloc "<id>" draining" (stopped after being
 *   marked), "Alloc "<id>" status running -> complete"; the watch ends with "All allocations on node
 *   "<id>" have stopped" once none is pending or running (system ones not counted with -ignore-system).
 *
 * Following ends when both watches have; an error ends both (Nomad's monitor does not cancel the drain).
 */
import type { ApiClient } from '../../../api/http/client.js';
import type { AllocStub } from '../../../api/allocs.js';
import type { DrainStrategy, Node } from '../../../api/nodes.js';
import { ApiError } from '../../../shared/errors.js';
import type { Io } from '../../io.js';
import { formatTime } from '../../output/nomad.js';

export interface DrainMonitorOptions {
  client: Pick<ApiClient, 'scheduler'>;
  io: Pick<Io, 'out' | 'err'>;
  nodeId: string;
  /** the index the node was read or changed at: the node watch waits for changes after it */
  index: number;
  /** do not wait for system allocations to stop */
  ignoreSystem: boolean;
  now?: () => Date;
}

type Level = 'normal' | 'info' | 'warn' | 'error';

/** Go's time.Time String() of an RFC3339 wire time, as Nomad's drain-updated line prints ForceDeadline. */
export function goTimeString(rfc3339: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(rfc3339);
  if (!m) return rfc3339;
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const zone = m[4] === 'Z' ? '+0000 UTC' : `${m[4].replace(':', '')} ${m[4].replace(':', '')}`;
  return `${m[1]} ${m[2]}${fraction === '.' ? '' : fraction} ${zone}`;
}

/** Nomad's DrainStrategy.String(). */
export function drainStrategyText(d: DrainStrategy): string {
  return d.IgnoreSystemJobs ? `drain ignoring system jobs and deadline at ${goTimeString(d.ForceDeadline)}` : `drain with deadline at ${goTimeString(d.ForceDeadline)}`;
}

const sameStrategy = (a: DrainStrategy, b: DrainStrategy) => a.ForceDeadline === b.ForceDeadline && a.Deadline === b.Deadline && a.IgnoreSystemJobs === b.IgnoreSystemJobs;

const failure = (err: unknown) => (err instanceof ApiError ? `Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})` : (err as Error).message);

export async function monitorDrain(opts: DrainMonitorOptions): Promise<void> {
  const now = opts.now ?? (() => new Date());
  const stop = new AbortController();
  const emit = (level: Level, message: string) => {
    const line = `${formatTime(now())}: ${message}`;
    if (level === 'warn' || level === 'error') opts.io.err(line);
    else opts.io.out(line);
    if (level === 'error') stop.abort();
  };
  await Promise.all([watchNode(opts, stop.signal, emit), watchAllocs(opts, stop.signal, emit)]);
}

async function watchNode(opts: DrainMonitorOptions, signal: AbortSignal, emit: (level: Level, message: string) => void): Promise<void> {
  const path = `/v1/node/${encodeURIComponent(opts.nodeId)}`;
  let index = opts.index;
  let last: DrainStrategy | undefined;
  while (!signal.aborted) {
    let answer;
    try {
      answer = await opts.client.scheduler<Node>('GET', path, { query: { index }, signal });
    } catch (err) {
      if (!signal.aborted) emit('error', `Error monitoring node: ${failure(err)}`);
      return;
    }
    const node = answer.body;
    if (!node.DrainStrategy) {
      emit('info', `Drain complete for node ${opts.nodeId}`);
      return;
    }
    if (node.Status === 'down') emit('warn', `Node "${opts.nodeId}" down`);
    if (last && !sameStrategy(last, node.DrainStrategy)) emit('info', `Node "${opts.nodeId}" drain updated: ${drainStrategyText(node.DrainStrategy)}`);
    last = node.DrainStrategy;
    index = answer.index;
  }
}

async function watchAllocs(opts: DrainMonitorOptions, signal: AbortSignal, emit: (level: Level, message: string) => void): Promise<void> {
  const path = `/v1/node/${encodeURIComponent(opts.nodeId)}/allocations`;
  const seen = new Map<string, AllocStub>();
  let index = 0;
  while (!signal.aborted) {
    let answer;
    try {
      answer = await opts.client.scheduler<AllocStub[]>('GET', path, { query: index > 0 ? { index } : {}, signal });
    } catch (err) {
      if (!signal.aborted) emit('error', `Error monitoring allocations: ${failure(err)}`);
      return;
    }
    index = answer.index;
    let running = 0;
    // Newest first, as Nomad sorts a node's allocations.
    for (const a of [...(answer.body ?? [])].sort((x, y) => y.CreateIndex - x.CreateIndex)) {
      const before = seen.get(a.ID);
      seen.set(a.ID, a);
      const migrating = a.DesiredTransition?.Migrate === true;
      // An allocation seen for the first time has no change to tell.
      const change = !before
        ? ''
        : before.ClientStatus !== a.ClientStatus
          ? `status ${before.ClientStatus} -> ${a.ClientStatus}`
          : migrating && before.DesiredTransition?.Migrate !== true
            ? 'marked for migration'
            : migrating && before.DesiredStatus !== a.DesiredStatus && a.DesiredStatus === 'stop'
              ? 'draining'
              : '';
      if (change) emit('normal', `Alloc "${a.ID}" ${change}`);
      if (!a.JobType || (opts.ignoreSystem && a.JobType === 'system')) continue;
      if (a.ClientStatus === 'pending' || a.ClientStatus === 'running') running++;
    }
    if (running === 0) {
      emit('info', `All allocations on node "${opts.nodeId}" have stopped`);
      return;
    }
  }
}
