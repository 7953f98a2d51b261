/**
 * One node's room during an evaluation: its capacity less reserved resources, less what its allocations
 * take, less what this plan stops (freed) and places (taken). Kept up to date as the plan grows, so each
 * placement costs a few additions instead of a walk over the node's allocations.
 */
import { portMappings, type AllocatedPortMapping } from '../structs/allocation.js';
import { DEFAULT_MAX_DYNAMIC_PORT, DEFAULT_MIN_DYNAMIC_PORT, type Node } from '../structs/node.js';
import type { Port } from '../structs/resources.js';
import type { NodeUsage } from './types.js';
import type { AllocUsage, GroupAsk } from './usage.js';

/** Nomad's bin-packing fitness tops out at 18 (both dimensions full: 20 − 10⁰ − 10⁰). */
const BINPACK_MAX = 18;
const RANDOM_PORT_TRIES = 20;

const DYNAMIC_PORTS_EXHAUSTED = 'network: dynamic port selection failed';

/** What a node offers, from its own record alone: the same for every job and every evaluation. */
export interface NodeCapacity {
  cpuCap: number;
  memoryCap: number;
  diskCap: number;
  minPort: number;
  maxPort: number;
  hostIp: string;
  /** the operator's reserved host ports, parsed */
  reservedPorts: number[];
}

export function nodeCapacity(node: Node): NodeCapacity {
  const r = node.NodeResources;
  const reserved = node.ReservedResources;
  return {
    cpuCap: (r?.Cpu?.CpuShares ?? 0) - (reserved?.Cpu?.CpuShares ?? 0),
    memoryCap: (r?.Memory?.MemoryMB ?? 0) - (reserved?.Memory?.MemoryMB ?? 0),
    diskCap: (r?.Disk?.DiskMB ?? 0) - (reserved?.Disk?.DiskMB ?? 0),
    minPort: r?.MinDynamicPort || DEFAULT_MIN_DYNAMIC_PORT,
    maxPort: r?.MaxDynamicPort || DEFAULT_MAX_DYNAMIC_PORT,
    hostIp: r?.Networks?.find((n) => n.IP)?.IP || '127.0.0.1',
    reservedPorts: parsePortList(reserved?.Networks?.ReservedHostPorts ?? ''),
  };
}

export class NodeSlot {
  readonly cpuCap: number;
  readonly memoryCap: number;
  readonly diskCap: number;
  readonly minPort: number;
  readonly maxPort: number;
  readonly hostIp: string;
  private cpu: number;
  private memoryMB: number;
  private diskMB: number;
  private ports: Set<number>;
  /** the usage's port set belongs to the state; copy it before the first change */
  private ownPorts = false;
  /** used ports inside the dynamic range */
  private dynamicUsed = 0;

  constructor(
    readonly node: Node,
    usage: NodeUsage,
    capacity: NodeCapacity = nodeCapacity(node),
  ) {
    this.cpuCap = capacity.cpuCap;
    this.memoryCap = capacity.memoryCap;
    this.diskCap = capacity.diskCap;
    this.minPort = capacity.minPort;
    this.maxPort = capacity.maxPort;
    this.hostIp = capacity.hostIp;
    this.cpu = usage.cpu;
    this.memoryMB = usage.memoryMB;
    this.diskMB = usage.diskMB;
    this.ports = usage.ports;
    const hostReserved = capacity.reservedPorts;
    if (hostReserved.length > 0) {
      this.ports = new Set([...usage.ports, ...hostReserved]);
      this.ownPorts = true;
    }
    for (const p of this.ports) if (this.inRange(p)) this.dynamicUsed++;
  }

  /** Adds (sign 1) or removes (sign −1) an allocation's usage. */
  apply(u: AllocUsage, sign: 1 | -1): void {
    this.cpu += sign * u.cpu;
    this.memoryMB += sign * u.memoryMB;
    this.diskMB += sign * u.diskMB;
    if (u.ports.length === 0) return;
    if (!this.ownPorts) {
      this.ports = new Set(this.ports);
      this.ownPorts = true;
    }
    for (const p of u.ports) {
      const had = this.ports.has(p);
      if (sign === 1 && !had) {
        this.ports.add(p);
        if (this.inRange(p)) this.dynamicUsed++;
      } else if (sign === -1 && had) {
        this.ports.delete(p);
        if (this.inRange(p)) this.dynamicUsed--;
      }
    }
  }

  /** The dimension that does not fit, named as Nomad's DimensionExhausted keys; null when it fits. */
  misfit(ask: GroupAsk): string | null {
    // Nomad assigns the network first, then compares cpu, memory and disk.
    let reservedInRange = 0;
    for (const p of ask.reserved) {
      if (!p.IgnoreCollision && this.ports.has(p.Value)) return `network: reserved port collision ${p.Label}=${p.Value}`;
      if (this.inRange(p.Value)) reservedInRange++;
    }
    if (ask.dynamic.length > 0) {
      const free = this.maxPort - this.minPort + 1 - this.dynamicUsed - reservedInRange;
      if (free < ask.dynamic.length) return DYNAMIC_PORTS_EXHAUSTED;
    }
    if (this.cpu + ask.cpu > this.cpuCap) return 'cpu';
    if (this.memoryMB + ask.memoryMB > this.memoryCap) return 'memory';
    if (this.diskMB + ask.diskMB > this.diskCap) return 'disk';
    return null;
  }

  /**
   * Nomad's bin-pack fitness after placing the ask, scaled to 0..1: fuller nodes score higher, so
   * allocations pack onto few nodes and leave whole nodes free for large asks.
   */
  binPackScore(ask: GroupAsk): number {
    const freeCpu = this.cpuCap > 0 ? 1 - (this.cpu + ask.cpu) / this.cpuCap : 0;
    const freeMemory = this.memoryCap > 0 ? 1 - (this.memoryMB + ask.memoryMB) / this.memoryCap : 0;
    const fitness = 20 - (10 ** freeCpu + 10 ** freeMemory);
    return Math.min(Math.max(fitness, 0), BINPACK_MAX) / BINPACK_MAX;
  }

  /** Host ports for the ask, assuming misfit() passed: static ones as given, dynamic ones picked here. */
  assignPorts(ask: GroupAsk): AllocatedPortMapping[] | null {
    if (ask.reserved.length === 0 && ask.dynamic.length === 0) return null;
    const taken = new Set(ask.reserved.map((p) => p.Value));
    const ports: Port[] = [...ask.reserved];
    for (const p of ask.dynamic) {
      const value = this.freeDynamicPort(taken);
      taken.add(value);
      ports.push({ ...p, Value: value });
    }
    return portMappings(ports, this.hostIp);
  }

  /** Random picks spread ports over the range; the scan guarantees one when the range is nearly full. */
  private freeDynamicPort(taken: Set<number>): number {
    const span = this.maxPort - this.minPort + 1;
    const free = (p: number) => !this.ports.has(p) && !taken.has(p);
    for (let i = 0; i < RANDOM_PORT_TRIES; i++) {
      const p = this.minPort + Math.floor(Math.random() * span);
      if (free(p)) return p;
    }
    const start = Math.floor(Math.random() * span);
    for (let i = 0; i < span; i++) {
      const p = this.minPort + ((start + i) % span);
      if (free(p)) return p;
    }
    throw new Error(`no free dynamic port on node ${this.node.ID}`);
  }

  private inRange(p: number): boolean {
    return p >= this.minPort && p <= this.maxPort;
  }
}

/** `22,80,8000-8010` as Nomad's reserved host ports are written. */
function parsePortList(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) continue;
    const lo = Number(m[1]);
    const hi = m[2] ? Number(m[2]) : lo;
    for (let p = lo; p <= hi && p <= 65535; p++) out.push(p);
  }
  return out;
}
