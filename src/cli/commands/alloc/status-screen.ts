/** The screen of `svc alloc status`, also shown by `svc status PREFIX` for an allocation. */
import { formatTable } from '../../output/format.js';
import {
  ago,
  formatAllocMetrics,
  formatKV,
  formatNomadTime,
  formatTaskTime,
  humanIBytes,
  idLength,
  limit,
  megabytes,
  quote,
  sortedKeys,
} from '../../output/nomad.js';
import { formatGoDuration } from '../../../shared/duration.js';
import type { Allocation, TaskEvent, TaskState } from '../../../api/allocs.js';
import type { AllocCheckResults } from '../../../scheduler/wire/check-result.js';
import { checksSection } from './checks-section.js';
import type { AllocResourceUsage, ResourceUsage } from '../../../scheduler/wire/resource-usage.js';

export interface AllocStatusOptions {
  verbose: boolean;
  short: boolean;
  nowMs: number;
  /** `Reschedule Eligibility`: when the follow-up evaluation runs, relative; "" when not known */
  rescheduleEligibility?: string;
  /** the latest results of its service checks: a `Nomad Service Checks:` table when there are any */
  checks?: AllocCheckResults;
  /** -stats: the tasks' resource usage, shown beside what each was given */
  stats?: AllocResourceUsage;
}

type Lifecycle = { Hook: string; Sidecar?: boolean } | null | undefined;

function lifecycles(alloc: Allocation): Record<string, Lifecycle> {
  const out: Record<string, Lifecycle> = { ...(alloc.AllocatedResources?.TaskLifecycles ?? {}) };
  const group = alloc.Job?.TaskGroups?.find((g) => g.Name === alloc.TaskGroup);
  for (const t of group?.Tasks ?? []) if (!(t.Name in out)) out[t.Name] = t.Lifecycle ?? null;
  return out;
}

const HOOK_ORDER: Record<string, number> = { prestart: 0, '': 1, poststart: 2, poststop: 3 };

/** Task names in the order they run: prestart, main, poststart, poststop; by name within each. */
function orderedTasks(states: Record<string, TaskState>, lc: Record<string, Lifecycle>): string[] {
  return sortedKeys(states).sort((a, b) => (HOOK_ORDER[lc[a]?.Hook ?? ''] ?? 1) - (HOOK_ORDER[lc[b]?.Hook ?? ''] ?? 1));
}

/** An event's description: the server's DisplayMessage, else built from the legacy fields as Nomad does. */
export function eventMessage(e: TaskEvent): string {
  if (e.DisplayMessage) return e.DisplayMessage;
  const s = (k: string) => (typeof e[k] === 'string' ? (e[k] as string) : '');
  switch (e.Type) {
    case 'Started':
      return 'Task started by client';
    case 'Received':
      return 'Task received by client';
    case 'Killed':
      return s('KillError') || 'Task successfully killed';
    case 'Terminated': {
      const parts = [`Exit Code: ${Number(e.ExitCode ?? 0)}`];
      if (Number(e.Signal ?? 0) !== 0) parts.push(`Signal: ${Number(e.Signal)}`);
      if (e.Message) parts.push(`Exit Message: ${quote(e.Message)}`);
      return parts.join(', ');
    }
    case 'Driver Failure':
      return s('DriverError') || 'Failed to start task';
    case 'Setup Failure':
      return s('SetupError') || 'Task setup failed';
    case 'Not Restarting':
      return s('RestartReason') || 'Task exceeded restart policy';
    case 'Leader Task Dead':
      return 'Leader Task in Group dead';
    default:
      return e.Message ?? '';
  }
}

function basicRows(alloc: Allocation, opts: AllocStatusOptions): Array<[string, string]> {
  const length = idLength(opts.verbose);
  const time = (ns: number | undefined) => (opts.verbose ? formatNomadTime(ns ?? 0) : ago(ns ?? 0, opts.nowMs));
  const rows: Array<[string, string]> = [
    ['ID', alloc.ID],
    ['Eval ID', limit(alloc.EvalID, length)],
    ['Name', alloc.Name ?? ''],
    ['Node ID', limit(alloc.NodeID, length)],
    ['Node Name', alloc.NodeName ?? ''],
    ['Job ID', alloc.JobID ?? ''],
    ['Job Version', String(alloc.Job?.Version ?? alloc.JobVersion ?? 0)],
    ['Client Status', alloc.ClientStatus ?? ''],
    ['Client Description', alloc.ClientDescription ?? ''],
    ['Desired Status', alloc.DesiredStatus ?? ''],
    ['Desired Description', alloc.DesiredDescription ?? ''],
    ['Created', time(alloc.CreateTime)],
    ['Modified', time(alloc.ModifyTime)],
  ];
  if (alloc.DeploymentID) {
    const healthy = alloc.DeploymentStatus?.Healthy;
    rows.push(['Deployment ID', limit(alloc.DeploymentID, length)], ['Deployment Health', healthy === true ? 'healthy' : healthy === false ? 'unhealthy' : 'unset']);
    if (alloc.DeploymentStatus?.Canary) rows.push(['Canary', 'true']);
  }
  const events = (alloc.RescheduleTracker?.Events ?? []) as Array<{ RescheduleTime: number }>;
  const group = alloc.Job?.TaskGroups?.find((g) => g.Name === alloc.TaskGroup) as { ReschedulePolicy?: { Attempts?: number; Interval?: number; Unlimited?: boolean } | null } | undefined;
  const policy = group?.ReschedulePolicy;
  if (events.length > 0 && policy && !policy.Unlimited && (policy.Attempts ?? 0) > 0) {
    const from = (alloc.ModifyTime ?? 0) - (policy.Interval ?? 0);
    const attempts = events.filter((e) => e.RescheduleTime > from).length;
    rows.push(['Reschedule Attempts', `${attempts}/${policy.Attempts}`]);
  }
  if (alloc.NextAllocation) rows.push(['Replacement Alloc ID', limit(alloc.NextAllocation, length)]);
  if (opts.rescheduleEligibility) rows.push(['Reschedule Eligibility', opts.rescheduleEligibility]);
  if (opts.verbose) {
    const m = alloc.Metrics ?? {};
    rows.push(
      ['Evaluated Nodes', String(m.NodesEvaluated ?? 0)],
      ['Filtered Nodes', String(m.NodesFiltered ?? 0)],
      ['Exhausted Nodes', String(m.NodesExhausted ?? 0)],
      ['Allocation Time', formatGoDuration(m.AllocationTime ?? 0)],
      ['Failures', String(m.CoalescedFailures ?? 0)],
    );
  }
  return rows;
}

/** `Allocation Addresses (mode = "host"):` with `Label  Dynamic  Address`; "" when the allocation has no ports. */
export function addressesSection(alloc: Allocation): string {
  const shared = alloc.AllocatedResources?.Shared;
  const ports = shared?.Ports ?? [];
  if (ports.length === 0) return '';
  const network = (shared?.Networks ?? [])[0] as { Mode?: string; ReservedPorts?: Array<{ Label: string }> | null } | undefined;
  const reserved = new Set((network?.ReservedPorts ?? []).map((p) => p.Label));
  const rows = ports.map((p) => [`*${p.Label}`, reserved.has(p.Label) ? 'no' : 'yes', `${p.HostIP}:${p.Value}${p.To > 0 ? ` -> ${p.To}` : ''}`]);
  const mode = network?.Mode || 'host';
  return `Allocation Addresses (mode = ${quote(mode)}):\n` + formatTable(['Label', 'Dynamic', 'Address'], rows);
}

/** Nomad's names of the figures, in its order, and how each is shown. */
const MEMORY_FIGURES: Array<[string, keyof ResourceUsage['MemoryStats']]> = [
  ['RSS', 'RSS'], ['Cache', 'Cache'], ['Swap', 'Swap'], ['Usage', 'Usage'], ['Max Usage', 'MaxUsage'], ['Kernel Usage', 'KernelUsage'], ['Kernel Max Usage', 'KernelMaxUsage'],
];
const CPU_FIGURES: Array<[string, (c: ResourceUsage['CpuStats']) => string]> = [
  ['Percent', (c) => `${c.Percent.toFixed(2)}%`],
  ['System Mode', (c) => `${c.SystemMode.toFixed(2)}%`],
  ['User Mode', (c) => `${c.UserMode.toFixed(2)}%`],
  ['Throttled Periods', (c) => String(c.ThrottledPeriods)],
  ['Throttled Time', (c) => String(c.ThrottledTime)],
];

/** -stats -verbose: every figure the node measured, as Nomad's `Memory Stats` and `CPU Stats` tables. */
function usageDetail(usage: ResourceUsage): string {
  const mem = MEMORY_FIGURES.filter(([name]) => usage.MemoryStats.Measured.includes(name));
  const cpu = CPU_FIGURES.filter(([name]) => usage.CpuStats.Measured.includes(name));
  let out = '';
  if (mem.length > 0) out += '\nMemory Stats\n' + formatTable(mem.map(([name]) => name), [mem.map(([, field]) => humanIBytes(usage.MemoryStats[field] as number))]);
  if (cpu.length > 0) out += '\nCPU Stats\n' + formatTable(cpu.map(([name]) => name), [cpu.map(([, show]) => show(usage.CpuStats))]);
  return out;
}

function taskResources(alloc: Allocation, task: string, usage: ResourceUsage | undefined, verbose: boolean): string {
  const allocated = alloc.AllocatedResources?.Tasks?.[task];
  const legacy = alloc.TaskResources?.[task];
  if (!allocated && !legacy) return '';
  const cpu = allocated?.Cpu?.CpuShares ?? legacy?.CPU ?? 0;
  const mem = allocated?.Memory?.MemoryMB ?? legacy?.MemoryMB ?? 0;
  const memMax = allocated?.Memory?.MemoryMaxMB ?? legacy?.MemoryMaxMB ?? 0;
  const disk = alloc.AllocatedResources?.Shared?.DiskMB ?? alloc.Resources?.DiskMB ?? 0;
  // With usage, as Nomad: the MHz spent over those given, and RSS (or the cgroup's usage) over the memory.
  const used = usage && (usage.MemoryStats.RSS || usage.MemoryStats.Usage);
  const cpuCell = usage ? `${Math.floor(usage.CpuStats.TotalTicks)}/${cpu} MHz` : `${cpu} MHz`;
  const memCell = usage ? `${humanIBytes(used ?? 0)}/${megabytes(mem)}` : megabytes(mem);
  const rows = [[cpuCell, memCell, megabytes(disk), '']];
  if (memMax > 0 && memMax !== mem) rows.push(['', `Max: ${megabytes(memMax)}`, '', '']);
  const table = 'Task Resources:\n' + formatTable(['CPU', 'Memory', 'Disk', 'Addresses'], rows, { empty: '' });
  return usage && verbose ? table + usageDetail(usage) : table;
}

function taskStatus(state: TaskState): string {
  let out =
    'Task Events:\n' +
    formatKV([
      ['Started At', formatTaskTime(state.StartedAt)],
      ['Finished At', formatTaskTime(state.FinishedAt)],
      ['Total Restarts', String(state.Restarts ?? 0)],
      ['Last Restart', formatTaskTime(state.LastRestart)],
    ]);
  const events = [...(state.Events ?? [])].reverse();
  out += '\nRecent Events:\n' + formatTable(['Time', 'Type', 'Description'], events.map((e) => [formatNomadTime(e.Time), e.Type, eventMessage(e)]));
  return out;
}

/** `-short`: the `Tasks` table, one row per task with its last event. */
function shortTasks(alloc: Allocation): string {
  const states = alloc.TaskStates ?? {};
  const lc = lifecycles(alloc);
  const rows = orderedTasks(states, lc).map((name) => {
    const s = states[name];
    const last = (s.Events ?? [])[(s.Events ?? []).length - 1];
    const l = lc[name];
    return [name, s.State, last?.Type ?? '', last ? formatNomadTime(last.Time) : '', l ? `${l.Hook}${l.Sidecar ? ' sidecar' : ''}` : 'main'];
  });
  return '\nTasks\n' + formatTable(['Name', 'State', 'Last Event', 'Time', 'Lifecycle'], rows);
}

/** The whole `alloc status` screen. */
export function formatAllocStatus(alloc: Allocation, opts: AllocStatusOptions): string {
  if (opts.short) {
    const time = (ns: number | undefined) => ago(ns ?? 0, opts.nowMs);
    return (
      formatKV([
        ['ID', alloc.ID],
        ['Name', alloc.Name ?? ''],
        ['Created', time(alloc.CreateTime)],
        ['Modified', time(alloc.ModifyTime)],
      ]) + shortTasks(alloc)
    );
  }
  let out = formatKV(basicRows(alloc, opts));
  const addresses = addressesSection(alloc);
  if (addresses) out += `\n${addresses}`;
  const checks = checksSection(opts.checks ?? {});
  if (checks) out += `\n${checks}`;
  const states = alloc.TaskStates ?? {};
  const lc = lifecycles(alloc);
  for (const task of orderedTasks(states, lc)) {
    const state = states[task];
    const l = lc[task];
    out += `\nTask ${quote(task)}${l ? ` (${l.Hook}${l.Sidecar ? ' sidecar' : ''})` : ''} is ${quote(state.State)}\n`;
    out += taskResources(alloc, task, opts.stats?.Tasks[task]?.ResourceUsage, opts.verbose);
    out += '\n' + taskStatus(state);
  }
  if (opts.verbose) out += `\nPlacement Metrics\n${formatAllocMetrics(alloc.Metrics ?? {}, true, '  ')}\n`;
  return out;
}
