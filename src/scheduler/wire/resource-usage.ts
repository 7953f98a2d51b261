/**
 * Resource usage as Nomad's API reports it (api/nodes.go, api/allocations.go): what a node answers for
 * `GET /v1/client/allocation/:alloc_id/stats` and `GET /v1/client/stats`, and the CLI prints. Byte
 * counts are bytes, CPU modes and Percent are percent of one core, TotalTicks is MHz consumed.
 */

export interface MemoryStats {
  RSS: number;
  Cache: number;
  Swap: number;
  Usage: number;
  MaxUsage: number;
  KernelUsage: number;
  KernelMaxUsage: number;
  /** which of the fields were measured: the others are 0 because the source has no such figure */
  Measured: string[];
}

export interface CpuStats {
  SystemMode: number;
  UserMode: number;
  TotalTicks: number;
  ThrottledPeriods: number;
  ThrottledTime: number;
  Percent: number;
  Measured: string[];
}

export interface ResourceUsage {
  MemoryStats: MemoryStats;
  CpuStats: CpuStats;
  DeviceStats: unknown[];
}

export interface TaskResourceUsage {
  ResourceUsage: ResourceUsage;
  /** Unix nanoseconds */
  Timestamp: number;
  /** per-process figures, which Nomad's executors stopped reporting: always null */
  Pids: null;
}

export interface AllocResourceUsage {
  /** the tasks' usage summed */
  ResourceUsage: ResourceUsage;
  Tasks: Record<string, TaskResourceUsage>;
  Timestamp: number;
}

export interface HostMemoryStats {
  Total: number;
  Available: number;
  Used: number;
  Free: number;
}

export interface HostCpuStats {
  CPU: string;
  User: number;
  System: number;
  Idle: number;
  Total: number;
}

export interface HostDiskStats {
  Device: string;
  Mountpoint: string;
  Size: number;
  Used: number;
  Available: number;
  UsedPercent: number;
  InodesUsedPercent: number;
}

export interface HostStats {
  Memory: HostMemoryStats;
  CPU: HostCpuStats[];
  DiskStats: HostDiskStats[];
  /** the disk that holds the allocation directories */
  AllocDirStats: HostDiskStats | null;
  DeviceStats: unknown[];
  /** seconds since boot */
  Uptime: number;
  /** Unix nanoseconds */
  Timestamp: number;
  /** MHz the host's CPUs spent since the previous sample */
  CPUTicksConsumed: number;
}
