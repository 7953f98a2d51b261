/** One node's screen in `svc node status NODE`. */
import { formatTable } from '../../output/format.js';
import { allocListTable, formatKV, formatTaskTime, formatTime, humanIBytes, megabytes, newestFirst, parseWireTime, sortedKeys } from '../../output/nomad.js';
import type { Allocation, AllocStub } from '../../../api/allocs.js';
import type { Node } from '../../../api/nodes.js';
import type { AllocResourceUsage, HostStats } from '../../../scheduler/wire/resource-usage.js';

/** Detected drivers, `name (unhealthy)` for the unhealthy ones, sorted, comma-separated. */
export function driverStatus(drivers: Node['Drivers']): string {
  const names: string[] = [];
  for (const name of sortedKeys(drivers)) {
    const d = drivers![name];
    if (!d.Detected) continue;
    names.push(d.Healthy ? name : `${name} (unhealthy)`);
  }
  return names.sort().join(',');
}

/** Nomad's formatDrain: `false`, or `true` with the deadline (`force drain`, `no deadline`) and whether system jobs are ignored. */
export function formatDrain(node: Pick<Node, 'DrainStrategy'>): string {
  const d = node.DrainStrategy;
  if (!d) return 'false';
  const forced = parseWireTime(d.ForceDeadline);
  let out = 'true';
  if (d.Deadline < 0) out += '; force drain';
  else if (forced === undefined) out += '; no deadline';
  else out += `; ${formatTime(new Date(forced))} deadline`;
  if (d.IgnoreSystemJobs) out += '; ignoring system jobs';
  return out;
}

/** `Allocated Resources`: what the running allocations reserve, of what the node offers beyond its reservations. */
export function allocatedResources(node: Node, running: Allocation[]): string {
  let cpu = 0;
  let mem = 0;
  let disk = 0;
  for (const a of running) {
    for (const t of Object.values(a.AllocatedResources?.Tasks ?? {})) {
      cpu += t.Cpu?.CpuShares ?? 0;
      mem += t.Memory?.MemoryMB ?? 0;
    }
    disk += a.AllocatedResources?.Shared?.DiskMB ?? 0;
  }
  const total = (get: (r: NonNullable<Node['NodeResources']>) => number | undefined) =>
    (node.NodeResources ? get(node.NodeResources) ?? 0 : 0) - (node.ReservedResources ? get(node.ReservedResources) ?? 0 : 0);
  const totalCpu = total((r) => r.Cpu?.CpuShares);
  const totalMem = total((r) => r.Memory?.MemoryMB);
  const totalDisk = total((r) => r.Disk?.DiskMB);
  return formatTable(['CPU', 'Memory', 'Disk'], [[`${cpu}/${totalCpu} MHz`, `${megabytes(mem)}/${megabytes(totalMem)}`, `${megabytes(disk)}/${megabytes(totalDisk)}`]]);
}

export interface NodeUsage {
  host: HostStats;
  /** the usage of its running allocations that answered */
  allocs: AllocResourceUsage[];
}

export interface NodeScreenOptions {
  verbose: boolean;
  short: boolean;
  nowMs: number;
  /** -stats: what the allocations and the host use */
  usage?: NodeUsage;
}

const percent = (n: number) => `${n.toFixed(2)}%`;

/** Nomad's `Allocation Resource Utilization`, `Host Resource Utilization` and the host's CPU, memory and disk figures. */
function utilizationSections(node: Node, { host, allocs }: NodeUsage): string {
  const offered = (get: (r: NonNullable<Node['NodeResources']>) => number | undefined) =>
    (node.NodeResources ? get(node.NodeResources) ?? 0 : 0) - (node.ReservedResources ? get(node.ReservedResources) ?? 0 : 0);
  const totalCpu = offered((r) => r.Cpu?.CpuShares);
  const totalMem = offered((r) => r.Memory?.MemoryMB);
  const ticks = allocs.reduce((n, a) => n + a.ResourceUsage.CpuStats.TotalTicks, 0);
  const memory = allocs.reduce((n, a) => n + (a.ResourceUsage.MemoryStats.RSS || a.ResourceUsage.MemoryStats.Usage), 0);
  const disk = host.AllocDirStats;
  let out = '\nAllocation Resource Utilization\n' + formatTable(['CPU', 'Memory'], [[`${Math.floor(ticks)}/${totalCpu} MHz`, `${humanIBytes(memory)}/${megabytes(totalMem)}`]]);
  out +=
    '\nHost Resource Utilization\n' +
    formatTable(
      ['CPU', 'Memory', 'Disk'],
      [[`${Math.floor(host.CPUTicksConsumed)}/${totalCpu} MHz`, `${humanIBytes(host.Memory.Used)}/${humanIBytes(host.Memory.Total)}`, disk ? `${humanIBytes(disk.Used)}/${humanIBytes(disk.Size)}` : '']],
    );
  out += '\nCPU Stats\n' + host.CPU.map((c) => formatKV([['CPU', c.CPU], ['User', percent(c.User)], ['System', percent(c.System)], ['Idle', percent(c.Idle)]])).join('\n');
  const m = host.Memory;
  out += '\nMemory Stats\n' + formatKV([['Total', humanIBytes(m.Total)], ['Available', humanIBytes(m.Available)], ['Used', humanIBytes(m.Used)], ['Free', humanIBytes(m.Free)]]);
  out +=
    '\nDisk Stats\n' +
    host.DiskStats.map((d) =>
      formatKV([
        ['Device', d.Device],
        ['MountPoint', d.Mountpoint],
        ['Size', humanIBytes(d.Size)],
        ['Used', humanIBytes(d.Used)],
        ['Available', humanIBytes(d.Available)],
        ['Used Percent', percent(d.UsedPercent)],
        ['Inodes Percent', percent(d.InodesUsedPercent)],
      ]),
    ).join('\n');
  return out;
}

/** The single-node screen. */
export function formatNode(node: Node, allocs: AllocStub[], running: Allocation[], opts: NodeScreenOptions): string {
  const rows: Array<[string, string]> = [
    ['ID', node.ID],
    ['Name', node.Name],
    ['Node Pool', node.NodePool],
    ['Class', node.NodeClass],
    ['DC', node.Datacenter],
    ['Drain', formatDrain(node)],
    ['Eligibility', node.SchedulingEligibility],
    ['Status', node.Status],
    ['CSI Controllers', ''],
    ['CSI Drivers', ''],
  ];
  const hostVolumes = sortedKeys(node.HostVolumes).join(',');
  const hostNetworks = sortedKeys(node.HostNetworks).join(',');
  const allocTable = '\nAllocations\n' + allocListTable(newestFirst(allocs), opts.verbose, opts.nowMs, { nodeName: false });
  if (opts.short) {
    const drivers = sortedKeys(node.Drivers).filter((d) => node.Drivers![d].Detected);
    rows.push(['Host Volumes', hostVolumes], ['Host Networks', hostNetworks], ['CSI Volumes', ''], ['Drivers', drivers.join(',')]);
    return formatKV(rows) + allocTable;
  }
  if (!opts.verbose) rows.push(['Host Volumes', hostVolumes], ['Host Networks', hostNetworks], ['CSI Volumes', ''], ['Driver Status', driverStatus(node.Drivers)]);
  let out = formatKV(rows);
  if (opts.verbose) {
    const volumes = sortedKeys(node.HostVolumes);
    if (volumes.length > 0) {
      out += '\nHost Volumes\n' + formatTable(['Name', 'ReadOnly', 'Source'], volumes.map((v) => [v, String(node.HostVolumes![v].ReadOnly), node.HostVolumes![v].Path]));
    }
    const drivers = sortedKeys(node.Drivers);
    out +=
      '\nDrivers\n' +
      formatTable(
        ['Driver', 'Detected', 'Healthy', 'Message', 'Time'],
        drivers.map((d) => {
          const info = node.Drivers![d];
          return [d, String(info.Detected), String(info.Healthy), info.HealthDescription, formatTaskTime(info.UpdateTime)];
        }),
      );
  }
  const events = [...(node.Events ?? [])].reverse();
  out +=
    '\nNode Events\n' +
    formatTable(
      opts.verbose ? ['Time', 'Subsystem', 'Message', 'Details'] : ['Time', 'Subsystem', 'Message'],
      events.map((e) => {
        const subsystem = e.Details?.driver ? `Driver: ${e.Details.driver}` : e.Subsystem;
        const row = [formatTaskTime(e.Timestamp), subsystem, e.Message];
        if (opts.verbose) row.push(sortedKeys(e.Details).map((k) => `${k}: ${e.Details![k]}`).join(', '));
        return row;
      }),
    );
  out += '\nAllocated Resources\n' + allocatedResources(node, running);
  if (opts.usage) out += utilizationSections(node, opts.usage);
  out += allocTable;
  if (opts.verbose) {
    out += '\nAttributes\n' + formatKV(sortedKeys(node.Attributes).map((k) => [k, node.Attributes![k]]));
    const meta = sortedKeys(node.Meta);
    out += '\nMeta\n' + (meta.length > 0 ? formatKV(meta.map((k) => [k, node.Meta![k]])) : '');
  }
  return out;
}
