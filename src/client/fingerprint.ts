/**
 * What this machine is, as a Nomad node describes itself: attributes under Nomad's names (so job
 * constraints written for Nomad resolve here), resources, and the drivers it can run tasks with.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { goTime } from '../scheduler/structs/allocation.js';
import { DEFAULT_MAX_DYNAMIC_PORT, DEFAULT_MIN_DYNAMIC_PORT, type DriverInfo, type Node } from '../scheduler/structs/node.js';
import { VERSION } from '../version.js';
import type { Driver } from './drivers/driver.js';
import { nodeDrivers } from './drivers/registry.js';
import { hostSignalNames } from './drivers/signals.js';
import { type NodeCgroupOptions, configureNodeCgroups, nodeCgroups } from './cgroups/node-cgroups.js';

export interface FingerprintOptions {
  /** defaults to the host name */
  name?: string;
  datacenter: string;
  nodeClass: string;
  nodePool?: string;
  meta: Record<string, string>;
  dataDir: string;
  /**
   * host:port of this node's HTTP API. A node without one of its own (`svc agent`) leaves it out and is
   * known by its primary address, the host other machines reach it at.
   */
  httpAddr?: string;
  /** adds the mock driver, for tests and benchmarks */
  enableMockDriver?: boolean;
  /** replaces the node's drivers (tests) */
  drivers?: Map<string, Driver>;
  /** the client's `cgroup_parent`, `pids_limit` and `memory_oversubscription` (node-cgroups.ts has the defaults) */
  cgroups?: Partial<NodeCgroupOptions>;
}

/** The node's identity: kept in the data dir so the node is the same node after a restart. */
function nodeIdentity(dataDir: string): { ID: string; SecretID: string } {
  const dir = path.join(dataDir, 'client');
  const read = (file: string): string => {
    const p = path.join(dir, file);
    try {
      return readFileSync(p, 'utf8').trim();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const id = randomUUID();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(p, `${id}\n`, { mode: 0o600 });
      return id;
    }
  };
  return { ID: read('node-id'), SecretID: read('secret-id') };
}

/** Go's names for CPU architectures, which `cpu.arch` constraints use. */
function goArch(): string {
  const arch = os.arch();
  const names: Record<string, string> = { x64: 'amd64', ia32: '386', ppc64: os.endianness() === 'LE' ? 'ppc64le' : 'ppc64' };
  return names[arch] ?? arch;
}

function osRelease(): { name: string; version: string } {
  try {
    const text = readFileSync('/etc/os-release', 'utf8');
    const field = (k: string) => new RegExp(`^${k}="?([^"\\n]*)"?$`, 'm').exec(text)?.[1] ?? '';
    return { name: field('ID') || os.type().toLowerCase(), version: field('VERSION_ID') || os.release() };
  } catch {
    return { name: os.type().toLowerCase(), version: os.release() };
  }
}

/** MHz of one core. Virtual machines often leave os.cpus() at 0; /proc/cpuinfo still says. */
function cpuMhz(): number {
  const fromOs = os.cpus()[0]?.speed ?? 0;
  if (fromOs > 0) return fromOs;
  try {
    const m = /^cpu MHz\s*:\s*([\d.]+)/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return Math.floor(Number(m[1]));
  } catch {
    // not Linux
  }
  return 1000;
}

/** The first non-loopback IPv4 address and its interface: what other nodes would reach us on. */
function primaryAddress(): { device: string; ip: string; cidr: string } {
  for (const [device, addrs] of Object.entries(os.networkInterfaces())) {
    const a = addrs?.find((x) => x.family === 'IPv4' && !x.internal);
    if (a) return { device, ip: a.address, cidr: a.cidr ?? `${a.address}/32` };
  }
  return { device: 'lo', ip: '127.0.0.1', cidr: '127.0.0.1/8' };
}

/**
 * Nodes that look alike for placement share a class: the scheduler caches feasibility per class. Unique
 * attributes (`unique.*`) do not count.
 */
function computedClass(n: Pick<Node, 'Datacenter' | 'NodeClass' | 'NodePool' | 'Attributes' | 'Meta'>): string {
  const common = (m: Record<string, string>) => Object.entries(m).filter(([k]) => !k.startsWith('unique.')).sort(([a], [b]) => a.localeCompare(b));
  const h = createHash('sha256').update(JSON.stringify([n.Datacenter, n.NodeClass, n.NodePool, common(n.Attributes), common(n.Meta)]));
  return `v1:${BigInt(`0x${h.digest('hex').slice(0, 16)}`).toString()}`;
}

/** The node as it registers, and the secret it authenticates with (kept with its ID in the data dir). */
export async function fingerprintNode(opts: FingerprintOptions): Promise<{ node: Node; secret: string }> {
  const { ID, SecretID } = nodeIdentity(opts.dataDir);
  const cores = os.cpus().length;
  const mhz = cpuMhz();
  const totalCompute = cores * mhz;
  const memoryBytes = os.totalmem();
  const fs = statfsSync(opts.dataDir);
  const addr = primaryAddress();
  const httpAddr = opts.httpAddr ?? addr.ip;
  const release = osRelease();
  const attributes: Record<string, string> = {
    'kernel.name': os.platform(),
    'kernel.version': os.release(),
    'kernel.arch': os.machine(),
    'cpu.arch': goArch(),
    'cpu.numcores': String(cores),
    'cpu.reservablecores': String(cores),
    'cpu.frequency': String(mhz),
    'cpu.totalcompute': String(totalCompute),
    'cpu.usablecompute': String(totalCompute),
    'cpu.modelname': os.cpus()[0]?.model ?? '',
    'memory.totalbytes': String(memoryBytes),
    'os.name': release.name,
    'os.version': release.version,
    'os.signals': hostSignalNames().join(','),
    'unique.hostname': os.hostname(),
    'unique.network.ip-address': addr.ip,
    'unique.storage.bytestotal': String(fs.blocks * fs.bsize),
    'unique.storage.bytesfree': String(fs.bavail * fs.bsize),
    'nomad.version': VERSION,
    'nomad.advertise.address': httpAddr,
  };

  // Before the drivers: the exec driver's health depends on the cgroups.
  configureNodeCgroups(opts.cgroups ?? {});
  Object.assign(attributes, nodeCgroups().attributes());

  const drivers: Record<string, DriverInfo> = {};
  const available = opts.drivers ?? nodeDrivers({ enableMockDriver: opts.enableMockDriver });
  for (const d of available.values()) {
    const fp = await d.fingerprint();
    drivers[d.name] = { Attributes: Object.keys(fp.attributes).length ? fp.attributes : null, Detected: fp.detected, Healthy: fp.healthy, HealthDescription: fp.description, UpdateTime: goTime() };
    if (fp.detected) Object.assign(attributes, fp.attributes);
  }

  const node: Node = {
    ID,
    Name: opts.name ?? os.hostname(),
    Datacenter: opts.datacenter,
    NodePool: opts.nodePool ?? 'default',
    NodeClass: opts.nodeClass,
    ComputedClass: '',
    HTTPAddr: httpAddr,
    TLSEnabled: false,
    Attributes: attributes,
    Meta: { ...opts.meta },
    Links: null,
    NodeResources: {
      Cpu: { CpuShares: totalCompute, TotalCpuCores: cores, ReservableCpuCores: Array.from({ length: cores }, (_, i) => i) },
      Memory: { MemoryMB: Math.floor(memoryBytes / (1024 * 1024)) },
      Disk: { DiskMB: Math.floor((fs.bavail * fs.bsize) / (1024 * 1024)) },
      Networks: [{ Mode: 'host', Device: addr.device, CIDR: addr.cidr, IP: addr.ip }],
      MinDynamicPort: DEFAULT_MIN_DYNAMIC_PORT,
      MaxDynamicPort: DEFAULT_MAX_DYNAMIC_PORT,
    },
    ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 }, Networks: { ReservedHostPorts: '' } },
    Drivers: drivers,
    HostVolumes: null,
    Status: 'ready',
    StatusDescription: '',
    StatusUpdatedAt: Math.floor(Date.now() / 1000),
    SchedulingEligibility: 'eligible',
    DrainStrategy: null,
    LastDrain: null,
    Events: null,
    CreateIndex: 0,
    ModifyIndex: 0,
  };
  node.ComputedClass = computedClass(node);
  return { node, secret: SecretID };
}
