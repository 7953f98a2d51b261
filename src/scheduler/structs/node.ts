/**
 * Nodes: the machines that run allocations, as the scheduler sees them (Nomad's structs.Node). Attribute
 * names are Nomad's (`kernel.name`, `cpu.arch`, `driver.raw_exec`, `unique.hostname` ...), so constraints in
 * job files written for Nomad (`${attr.kernel.name}`) resolve unchanged.
 */

export const NODE_STATUSES = ['initializing', 'ready', 'down', 'disconnected'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];
export const NODE_ELIGIBILITY = ['eligible', 'ineligible'] as const;

export interface DriverInfo {
  Attributes: Record<string, string> | null;
  Detected: boolean;
  Healthy: boolean;
  HealthDescription: string;
  /** RFC3339 */
  UpdateTime: string;
}

export interface NodeResources {
  Cpu: { CpuShares: number; TotalCpuCores: number; ReservableCpuCores: number[] | null };
  Memory: { MemoryMB: number };
  Disk: { DiskMB: number };
  Networks: { Mode: string; Device: string; CIDR: string; IP: string }[] | null;
  MinDynamicPort: number;
  MaxDynamicPort: number;
}

export interface NodeReservedResources {
  Cpu: { CpuShares: number };
  Memory: { MemoryMB: number };
  Disk: { DiskMB: number };
  Networks: { ReservedHostPorts: string };
}

export interface NodeEvent {
  Message: string;
  Subsystem: string;
  Details: Record<string, string> | null;
  /** RFC3339 */
  Timestamp: string;
  CreateIndex: number;
}

export interface Node {
  ID: string;
  Name: string;
  Datacenter: string;
  NodePool: string;
  NodeClass: string;
  ComputedClass: string;
  /** host:port of the node's HTTP API */
  HTTPAddr: string;
  TLSEnabled: boolean;
  Attributes: Record<string, string>;
  Meta: Record<string, string>;
  Links: Record<string, string> | null;
  NodeResources: NodeResources;
  ReservedResources: NodeReservedResources;
  Drivers: Record<string, DriverInfo>;
  HostVolumes: Record<string, { Path: string; ReadOnly: boolean }> | null;
  Status: NodeStatus;
  StatusDescription: string;
  /** Unix seconds */
  StatusUpdatedAt: number;
  SchedulingEligibility: string;
  /** set while the node drains; null otherwise */
  DrainStrategy: DrainStrategy | null;
  /** the latest drain, kept after it ends */
  LastDrain: DrainMetadata | null;
  Events: NodeEvent[] | null;
  CreateIndex: number;
  ModifyIndex: number;
}

/**
 * A drain in progress, as Nomad's structs.DrainStrategy: its DrainSpec is embedded in Go, so Deadline and
 * IgnoreSystemJobs sit beside ForceDeadline and StartedAt on the wire.
 */
export interface DrainStrategy {
  /** nanoseconds; negative: force (everything is migrated now); 0: no deadline */
  Deadline: number;
  /** system allocations stay on the node, and the drain completes without stopping them */
  IgnoreSystemJobs: boolean;
  /** RFC3339: when what is left is migrated; ZERO_TIME without a deadline (and for a forced drain) */
  ForceDeadline: string;
  /** RFC3339: when the drain began; an update of the drain keeps it */
  StartedAt: string;
}

export const DRAIN_STATUSES = ['draining', 'complete', 'canceled'] as const;
export type DrainStatus = (typeof DRAIN_STATUSES)[number];

/** The latest drain of a node (Nomad's DrainMetadata), with who started it and what they said. */
export interface DrainMetadata {
  /** RFC3339, whole seconds */
  StartedAt: string;
  UpdatedAt: string;
  Status: DrainStatus;
  /** the accessor of the token that started or last changed the drain */
  AccessorID: string;
  Meta: Record<string, string> | null;
}

/** Nomad's DeadlineTime: whether the drain has no deadline, and when it is forced (ms; now for a forced drain). */
export function drainDeadline(d: DrainStrategy): { infinite: boolean; atMs: number } {
  if (d.Deadline < 0) return { infinite: false, atMs: 0 };
  if (d.Deadline === 0) return { infinite: true, atMs: 0 };
  return { infinite: false, atMs: Date.parse(d.ForceDeadline) };
}

/** The least heartbeat TTL a node is given (Nomad's min_heartbeat_ttl); it is marked down after the TTL and the grace. */
export const HEARTBEAT_TTL_MS = 10_000;
/** Nomad keeps the latest 10 node events. */
export const NODE_EVENTS_KEPT = 10;
/** The dynamic port range Nomad uses by default. */
export const DEFAULT_MIN_DYNAMIC_PORT = 20000;
export const DEFAULT_MAX_DYNAMIC_PORT = 32000;

/** A node the scheduler may place on: ready and eligible. */
export function nodeSchedulable(n: Pick<Node, 'Status' | 'SchedulingEligibility'>): boolean {
  return n.Status === 'ready' && n.SchedulingEligibility === 'eligible';
}

/** The node list stub (GET /v1/nodes). */
export function nodeStub(n: Node, withResources = false, withOs = false) {
  return {
    Address: n.HTTPAddr.replace(/:\d+$/, ''),
    ID: n.ID,
    Attributes: withOs ? { 'os.name': n.Attributes['os.name'] ?? '', 'os.version': n.Attributes['os.version'] ?? '' } : null,
    Datacenter: n.Datacenter,
    Name: n.Name,
    NodeClass: n.NodeClass,
    NodePool: n.NodePool,
    Version: n.Attributes['nomad.version'] ?? '',
    Drain: n.DrainStrategy !== null && n.DrainStrategy !== undefined,
    SchedulingEligibility: n.SchedulingEligibility,
    Status: n.Status,
    StatusDescription: n.StatusDescription,
    Drivers: n.Drivers,
    HostVolumes: n.HostVolumes,
    NodeResources: withResources ? n.NodeResources : null,
    ReservedResources: withResources ? n.ReservedResources : null,
    LastDrain: n.LastDrain,
    CreateIndex: n.CreateIndex,
    ModifyIndex: n.ModifyIndex,
  };
}

/**
 * The value a constraint or interpolation target names on this node: `${attr.kernel.name}`,
 * `${node.unique.id}`, `${node.datacenter}`, `${meta.rack}`, ... Undefined when the node lacks it.
 */
export function nodeTarget(node: Node, target: string): string | undefined {
  const m = /^\$\{(.+)\}$/.exec(target.trim());
  if (!m) return target;
  const name = m[1];
  switch (name) {
    case 'node.unique.id':
      return node.ID;
    case 'node.datacenter':
      return node.Datacenter;
    case 'node.unique.name':
      return node.Name;
    case 'node.class':
      return node.NodeClass;
    case 'node.pool':
      return node.NodePool;
  }
  if (name.startsWith('attr.')) return node.Attributes[name.slice(5)];
  if (name.startsWith('meta.')) return node.Meta[name.slice(5)];
  return undefined;
}
