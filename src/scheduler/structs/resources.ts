/** What a task asks of a node, and the group's network. */
import type { Affinity, Constraint } from './constraint.js';

export interface Port {
  Label: string;
  /** the host port; 0 for a dynamic port until it is allocated */
  Value: number;
  /** the port inside the task's network namespace; −1 means "same as the host port" */
  To: number;
  HostNetwork: string;
  IgnoreCollision: boolean;
}

export interface DNSConfig {
  Servers: string[] | null;
  Searches: string[] | null;
  Options: string[] | null;
}

export interface NetworkResource {
  Mode: string;
  Device: string;
  CIDR: string;
  IP: string;
  Hostname: string;
  MBits: number;
  DNS: DNSConfig | null;
  ReservedPorts: Port[] | null;
  DynamicPorts: Port[] | null;
  CNI: { Args: Record<string, string> | null } | null;
}

export interface RequestedDevice {
  Name: string;
  Count: number;
  Constraints: Constraint[] | null;
  Affinities: Affinity[] | null;
}

export interface NUMAResource {
  Affinity: string;
  Devices: string[] | null;
}

export interface Resources {
  /** MHz */
  CPU: number;
  Cores: number;
  MemoryMB: number;
  MemoryMaxMB: number;
  DiskMB: number;
  IOPS: number;
  Networks: NetworkResource[] | null;
  Devices: RequestedDevice[] | null;
  NUMA: NUMAResource | null;
  SecretsMB: number;
}

export const DEFAULT_CPU_MHZ = 100;
export const DEFAULT_MEMORY_MB = 300;
export const NUMA_AFFINITIES = ['none', 'prefer', 'require'] as const;
