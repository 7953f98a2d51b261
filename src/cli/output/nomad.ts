/**
 * Nomad's screen conventions, shared by the job, eval, alloc and node commands: key/value blocks
 * (` = `, `<none>`), RFC3339 local times, relative times (`1m30s ago`), 8-character IDs, IEC byte sizes,
 * the allocation and evaluation tables and the placement-failure bullets.
 *
 * Pure functions of their input (and of the clock passed in), so they are unit-tested without a server.
 */
import { formatTable } from './format.js';
import type { AllocMetric } from '../../api/allocs.js';

/** ID lengths: Nomad shows 8 characters unless -verbose. */
export const SHORT_ID = 8;
export const FULL_ID = 36;

export const idLength = (verbose: unknown): number => (verbose === true ? FULL_ID : SHORT_ID);

/** Nomad's limit(): the first `length` characters. */
export function limit(id: string | undefined, length: number): string {
  const s = id ?? '';
  return s.length > length ? s.slice(0, length) : s;
}

/** Go's %q for the strings these screens quote (IDs, names, constraint texts). */
export const quote = (s: string): string => JSON.stringify(s);

const two = (n: number) => String(n).padStart(2, '0');

/** Go's time.RFC3339 of a Date in the local time zone (`2026-08-21T10:00:00+02:00`, `…Z` in UTC). */
export function formatTime(d: Date): string {
  const offset = -d.getTimezoneOffset();
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}${zone}`;
}

/** RFC3339 of a nanosecond timestamp in local time; "" for the epoch, as Nomad's formatTime of a zero time. */
export function formatNomadTime(ns: number): string {
  const ms = Math.floor(ns / 1e6);
  if (ms < 1000) return '';
  return formatTime(new Date(ms));
}

/** Milliseconds of an RFC3339 wire time; undefined for Go's zero time, "" or garbage. */
export function parseWireTime(text: string | undefined | null): number | undefined {
  if (!text || text.startsWith('0001-01-01')) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** A wire time as the task screens print it: RFC3339 local, or `N/A` when never set. */
export function formatTaskTime(text: string | undefined | null): string {
  const ms = parseWireTime(text);
  return ms === undefined ? 'N/A' : formatTime(new Date(ms));
}

/** Nomad's formatKV: keys padded to one width, ` = `, empty values shown as `<none>`. */
export function formatKV(rows: Array<[string, string]>): string {
  const width = Math.max(0, ...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)} = ${v === '' ? '<none>' : v}`.trimEnd()).join('\n') + '\n';
}

/**
 * Nomad's prettyTimeDiff: the difference rounded to the second, in its two largest non-zero units
 * (s, m, h, d, mo = 30d, y = 12mo), then `ago` or `from now`. "" for a zero time.
 */
/** [how many of this unit make the next one (0: the last unit), its suffix] */
const DIFF_UNITS: ReadonlyArray<[number, string]> = [
  [60, 's'],
  [60, 'm'],
  [24, 'h'],
  [30, 'd'],
  [12, 'mo'],
  [0, 'y'],
];

export function prettyTimeDiff(firstMs: number, secondMs: number): string {
  if (!Number.isFinite(firstMs) || firstMs <= 0) return '';
  const first = Math.round(firstMs / 1000);
  const second = Math.round(secondMs / 1000);
  const suffix = second >= first ? 'ago' : 'from now';
  let u = Math.abs(second - first);
  const parts: string[] = [];
  // Each unit takes what is left of the one below: seconds, minutes, hours, days, months, then years.
  for (const [size, unit] of DIFF_UNITS) {
    const n = size === 0 ? u : u % size;
    if (n > 0) parts.unshift(`${n}${unit}`);
    if (size === 0) break;
    u = Math.floor(u / size);
    if (u === 0) break;
  }
  if (parts.length === 0) return `0s ${suffix}`;
  return `${parts.slice(0, 2).join('')} ${suffix}`;
}

/** A nanosecond timestamp relative to now, as the allocation tables show Created and Modified. */
export const ago = (ns: number, nowMs: number): string => prettyTimeDiff(Math.floor(ns / 1e6), nowMs);

/** go-humanize's IBytes: `300 MiB`, `1.0 GiB`, `9 B`. */
export function humanIBytes(bytes: number): string {
  if (bytes < 10) return `${bytes} B`;
  const sizes = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  const e = Math.min(sizes.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const val = Math.floor((bytes / 1024 ** e) * 10 + 0.5) / 10;
  return `${val < 10 ? val.toFixed(1) : val.toFixed(0)} ${sizes[e]}`;
}

export const megabytes = (mb: number): string => humanIBytes(mb * 1024 * 1024);

/** Keys in Go's sort.Strings order. */
export function sortedKeys(obj: Record<string, unknown> | null | undefined): string[] {
  return Object.keys(obj ?? {}).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export type AllocMetricView = AllocMetric;

/** Go's %.3g. */
function g3(n: number): string {
  if (n === 0) return '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 3) {
    const [m, e] = n.toExponential(2).split('e');
    const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
    const sign = e.startsWith('-') ? '-' : '+';
    return `${mant}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(Number(n.toPrecision(3)));
}

/**
 * Nomad's formatAllocMetrics: one `* …` bullet per reason a node was left out, each line starting with
 * `prefix`; with `scores`, the per-node score table of a placed allocation. Map keys are printed sorted
 * (Go's order is random). No trailing newline.
 */
export function formatAllocMetrics(m: AllocMetricView, scores: boolean, prefix: string): string {
  const lines: string[] = [];
  if ((m.NodesEvaluated ?? 0) === 0) lines.push(`${prefix}* No nodes were eligible for evaluation`);
  for (const dc of sortedKeys(m.NodesAvailable)) if (m.NodesAvailable![dc] === 0) lines.push(`${prefix}* No nodes are available in datacenter ${quote(dc)}`);
  for (const c of sortedKeys(m.ClassFiltered)) lines.push(`${prefix}* Class ${quote(c)}: ${m.ClassFiltered![c]} nodes excluded by filter`);
  for (const c of sortedKeys(m.ConstraintFiltered)) lines.push(`${prefix}* Constraint ${quote(c)}: ${m.ConstraintFiltered![c]} nodes excluded by filter`);
  if ((m.NodesExhausted ?? 0) > 0) lines.push(`${prefix}* Resources exhausted on ${m.NodesExhausted} nodes`);
  for (const c of sortedKeys(m.ClassExhausted)) lines.push(`${prefix}* Class ${quote(c)} exhausted on ${m.ClassExhausted![c]} nodes`);
  for (const d of sortedKeys(m.DimensionExhausted)) lines.push(`${prefix}* Dimension ${quote(d)} exhausted on ${m.DimensionExhausted![d]} nodes`);
  for (const q of m.QuotaExhausted ?? []) lines.push(`${prefix}* Quota limit hit ${quote(q)}`);
  let out = lines.join('\n');
  if (scores) {
    const meta = m.ScoreMetaData ?? [];
    if (meta.length > 0) {
      const names = sortedKeys(meta[0].Scores);
      const rows = meta.map((s) => [s.NodeID, ...names.map((n) => g3((s.Scores ?? {})[n] ?? 0)), g3(s.NormScore)]);
      out += (out ? '\n' : '') + formatTable(['Node', ...names, 'final score'], rows).trimEnd();
    } else {
      for (const n of sortedKeys(m.Scores)) out += `${out ? '\n' : ''}${prefix}* Score ${quote(n)} = ${m.Scores![n].toFixed(6)}`;
    }
  }
  return out;
}

/** `Task Group "g" (failed to place N allocation[s]):` */
export function failedPlacementHeading(group: string, m: AllocMetricView): string {
  const n = (m.CoalescedFailures ?? 0) + 1;
  return `Task Group ${quote(group)} (failed to place ${n} allocation${n > 1 ? 's' : ''}):`;
}

/** The allocation fields the list tables read. */
export interface AllocRow {
  ID: string;
  EvalID: string;
  NodeID: string;
  NodeName: string;
  TaskGroup: string;
  JobVersion: number;
  DesiredStatus: string;
  ClientStatus: string;
  CreateTime: number;
  ModifyTime: number;
}

/**
 * Nomad's formatAllocListStubs: `ID  Node ID  Task Group  Version  Desired  Status  Created  Modified`
 * with relative times, or with -verbose Eval ID and Node Name columns and absolute times.
 * "No allocations placed" when there are none.
 */
export function allocListTable(allocs: AllocRow[], verbose: boolean, nowMs: number, opts: { nodeName?: boolean } = {}): string {
  if (allocs.length === 0) return 'No allocations placed\n';
  const length = idLength(verbose);
  if (verbose) {
    const withNode = opts.nodeName !== false;
    const headers = ['ID', 'Eval ID', 'Node ID', ...(withNode ? ['Node Name'] : []), 'Task Group', 'Version', 'Desired', 'Status', 'Created', 'Modified'];
    return formatTable(
      headers,
      allocs.map((a) => [
        limit(a.ID, length),
        limit(a.EvalID, length),
        limit(a.NodeID, length),
        ...(withNode ? [a.NodeName] : []),
        a.TaskGroup,
        String(a.JobVersion),
        a.DesiredStatus,
        a.ClientStatus,
        formatNomadTime(a.CreateTime),
        formatNomadTime(a.ModifyTime),
      ]),
    );
  }
  return formatTable(
    ['ID', 'Node ID', 'Task Group', 'Version', 'Desired', 'Status', 'Created', 'Modified'],
    allocs.map((a) => [
      limit(a.ID, length),
      limit(a.NodeID, length),
      a.TaskGroup,
      String(a.JobVersion),
      a.DesiredStatus,
      a.ClientStatus,
      ago(a.CreateTime, nowMs),
      ago(a.ModifyTime, nowMs),
    ]),
  );
}

/** Newest first, as Nomad's API client sorts allocation and evaluation lists (by CreateIndex). */
export function newestFirst<T extends { CreateIndex: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.CreateIndex - a.CreateIndex);
}

/** The evaluation fields the lists read. */
export interface EvalRow {
  ID: string;
  Priority: number;
  TriggeredBy: string;
  JobID: string;
  Namespace: string;
  NodeID?: string;
  Status: string;
  FailedTGAllocs?: Record<string, unknown> | null;
}

/** Nomad's evalFailureStatus: `true`/`false`, or `N/A - In Progress` for a blocked evaluation. */
export function evalFailureStatus(e: Pick<EvalRow, 'Status' | 'FailedTGAllocs'>): { text: string; failures: boolean } {
  const failures = Object.keys(e.FailedTGAllocs ?? {}).length > 0;
  return { text: e.Status === 'blocked' ? 'N/A - In Progress' : String(failures), failures };
}

/** `ID  Priority  Triggered By  Job ID  Namespace  Node ID  Status  Placement Failures` (eval list). */
export function evalListTable(evals: EvalRow[], verbose: boolean): string {
  const length = idLength(verbose);
  return formatTable(
    ['ID', 'Priority', 'Triggered By', 'Job ID', 'Namespace', 'Node ID', 'Status', 'Placement Failures'],
    evals.map((e) => [limit(e.ID, length), String(e.Priority), e.TriggeredBy, e.JobID, e.Namespace, limit(e.NodeID, length), e.Status, evalFailureStatus(e).text]),
  );
}
