/**
 * The scheduler's series, named as Nomad's leader names them: the broker's queues, the blocked
 * evaluations, the schedulers' and the plan applier's timings, heartbeats, and the job summaries'
 * allocation counts. What the broker holds and the nodes by status are read when scraped, from the
 * server that `watchScheduler` was last given; the summaries' counts are followed from the store's writes
 * once first scraped (summary-totals.ts).
 */
import { Counter, Gauge, Histogram, gaugeAt, type HistogramCell } from '../shared/metrics/registry.js';
import type { Store } from '../storage/store.js';
import { EVALS_BLOCKED } from './state/evals.js';
import { SUMMARY_COUNTS, SummaryTotals } from './state/summary-totals.js';
import { listNodes, NODES_TABLE } from './state/nodes.js';
import type { SchedulerRuntime } from './runtime.js';

const invokeScheduler = new Map<string, HistogramCell>();

/** Nomad's nomad.nomad.worker.invoke_scheduler.<type>: one series per scheduler type, as Nomad names them. */
export function invokeSchedulerCell(type: string): HistogramCell {
  let cell = invokeScheduler.get(type);
  if (!cell) {
    cell = new Histogram(`nomad.nomad.worker.invoke_scheduler.${type}`, `Time to run the ${type} scheduler on one evaluation, in ms.`).child();
    invokeScheduler.set(type, cell);
  }
  return cell;
}

export const planApply = new Histogram('nomad.nomad.plan.apply', "Time from a plan's hand-over to its commit, in ms.").child();
export const placements = new Counter('nomad.nomad.plan.placements', 'Allocations placed by committed plans.').child();
export const failedPlacements = new Counter('nomad.nomad.plan.failed_placements', 'Allocations that evaluations could not place (no node fits).').child();
export const heartbeatsReceived = new Histogram('nomad.nomad.client.update_status', 'Node heartbeats taken by the leader, and how long each took, in ms.').child();
export const heartbeatsMissed = new Histogram(
  'nomad.nomad.heartbeat.invalidate',
  'Nodes marked down for missing their heartbeat TTL (one observation each), and how long marking them down took, in ms.',
).child();
export const execSessions = new Gauge('nomad.nomad.exec.active', 'Exec and job action sessions open on this server.').child();

interface Source {
  store: Store;
  runtime: SchedulerRuntime;
}

let watched: (Source & { summaries: SummaryTotals }) | undefined;

/** Reads the scrape-time gauges from this server's state and runtime, until the answered function is called. */
export function watchScheduler(source: Source): () => void {
  const mine = { ...source, summaries: new SummaryTotals(source.store) };
  watched = mine;
  return () => {
    mine.summaries.close();
    if (watched === mine) watched = undefined;
  };
}

const brokerGauge = (name: string, help: string, pick: (c: NonNullable<ReturnType<SchedulerRuntime['brokerCounts']>>) => number) =>
  gaugeAt(`nomad.nomad.broker.${name}`, help, [], () => {
    const counts = watched?.runtime.brokerCounts();
    return counts && pick(counts);
  });

brokerGauge('total_ready', 'Evaluations ready to be scheduled (leader only).', (c) => c.ready);
brokerGauge('total_unacked', 'Evaluations being scheduled or whose plan is committing (leader only).', (c) => c.unacked);
brokerGauge('total_waiting', 'Evaluations waiting for their WaitUntil or a retry (leader only).', (c) => c.waiting);

gaugeAt('nomad.nomad.blocked_evals.total_blocked', 'Evaluations blocked until capacity frees.', [], () => watched && watched.store.keys(EVALS_BLOCKED).length);

gaugeAt('nomad.nomad.heartbeat.active', 'Nodes whose heartbeat TTL the leader is watching (leader only).', [], () => watched?.runtime.activeHeartbeats());

gaugeAt('nomad.nomad.tunnel.active', 'Node tunnels this server holds.', [], () => watched?.runtime.tunnels.size);

/**
 * A figure computed from one table, computed again only when that table changed (its index moved): a
 * scrape under load would otherwise be mostly these passes over every node or job.
 */
function perTableChange<T>(table: string, compute: (store: Store) => T): (store: Store) => T {
  let last: { store: Store; at: number; value: T } | undefined;
  return (store) => {
    const at = store.tableIndex(table);
    if (last?.store !== store || last.at !== at) last = { store, at, value: compute(store) };
    return last.value;
  };
}

const nodesByStatus = perTableChange(NODES_TABLE, (store) => {
  const byStatus = new Map<string, number>();
  for (const node of listNodes(store)) byStatus.set(node.Status, (byStatus.get(node.Status) ?? 0) + 1);
  return [...byStatus].map(([status, n]) => [[status], n] as const);
});

gaugeAt('nomad.nomad.nodes', 'Nodes by status.', ['status'], () => watched && nodesByStatus(watched.store));

for (const count of SUMMARY_COUNTS) {
  const status = count.toLowerCase();
  gaugeAt(`nomad.nomad.job_summary.${status}`, `Allocations ${status} (queued: waiting to be placed), over every job.`, [], () => watched?.summaries.read()[count]);
}
