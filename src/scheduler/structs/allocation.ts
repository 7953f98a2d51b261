/**
 * Allocations: a task group placed on a node, with the state of its tasks.
 * The stored record carries no `Job`; the job version it runs is attached when it is read, so 50,000
 * allocations of one job do not store 50,000 copies of it.
 */
import type { Port } from './resources.js';

export const ALLOC_CLIENT_STATUSES = ['pending', 'running', 'complete', 'failed', 'lost', 'unknown'] as const;
export type AllocClientStatus = (typeof ALLOC_CLIENT_STATUSES)[number];
export const ALLOC_DESIRED_STATUSES = ['run', 'stop', 'evict'] as const;
export type AllocDesiredStatus = (typeof ALLOC_DESIRED_STATUSES)[number];

export const TASK_STATES = ['pending', 'running', 'dead'] as const;
export type TaskStateName = (typeof TASK_STATES)[number];

/** Zero time as Go encodes it: the wire value of a time that was never set. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

export interface TaskEvent {
  Type: string;
  /** Unix nanoseconds */
  Time: number;
  Message: string;
  DisplayMessage: string;
  Details: Record<string, string>;
  FailsTask: boolean;
  RestartReason: string;
  SetupError: string;
  DriverError: string;
  ExitCode: number;
  Signal: number;
  KillTimeout: number;
  KillError: string;
  KillReason: string;
  StartDelay: number;
  DownloadError: string;
  ValidationError: string;
  DiskLimit: number;
  FailedSibling: string;
  VaultError: string;
  TaskSignalReason: string;
  TaskSignal: string;
  DriverMessage: string;
  GenericSource: string;
}

export interface TaskState {
  State: TaskStateName;
  Failed: boolean;
  Restarts: number;
  /** RFC3339 with nanoseconds; ZERO_TIME when never */
  LastRestart: string;
  StartedAt: string;
  FinishedAt: string;
  /** the latest TASK_EVENTS_KEPT events, oldest first */
  Events: TaskEvent[];
  Paused: string;
}

/** As Nomad does, the latest 10 events are kept per task. */
export const TASK_EVENTS_KEPT = 10;

export interface AllocatedPortMapping {
  Label: string;
  Value: number;
  To: number;
  HostIP: string;
}

export interface AllocatedTaskResources {
  Cpu: { CpuShares: number; ReservedCores: number[] | null };
  Memory: { MemoryMB: number; MemoryMaxMB: number };
  Networks: unknown[] | null;
  Devices: unknown[] | null;
}

export interface AllocatedResources {
  Tasks: Record<string, AllocatedTaskResources>;
  TaskLifecycles: Record<string, { Hook: string; Sidecar: boolean } | null>;
  Shared: { DiskMB: number; Networks: unknown[] | null; Ports: AllocatedPortMapping[] | null };
}

/** Why a placement failed, or how it was found (Nomad's AllocMetric). */
export interface AllocMetric {
  NodesEvaluated: number;
  NodesFiltered: number;
  NodesInPool: number;
  NodePool: string;
  NodesAvailable: Record<string, number>;
  ClassFiltered: Record<string, number> | null;
  ConstraintFiltered: Record<string, number> | null;
  NodesExhausted: number;
  ClassExhausted: Record<string, number> | null;
  DimensionExhausted: Record<string, number> | null;
  QuotaExhausted: string[] | null;
  ResourcesExhausted: Record<string, unknown> | null;
  Scores: Record<string, number> | null;
  ScoreMetaData: { NodeID: string; Scores: Record<string, number>; NormScore: number }[] | null;
  /** nanoseconds */
  AllocationTime: number;
  CoalescedFailures: number;
}

export interface RescheduleEvent {
  /** Unix nanoseconds */
  RescheduleTime: number;
  PrevAllocID: string;
  PrevNodeID: string;
  /** nanoseconds */
  Delay: number;
}

export interface DesiredTransition {
  Migrate: boolean | null;
  Reschedule: boolean | null;
  ForceReschedule: boolean | null;
  NoShutdownDelay: boolean | null;
  MigrateDisablePlacement: boolean | null;
}

/** An allocation's health within its deployment, as its node reports it. */
export interface AllocDeploymentStatus {
  /** null until the node has decided */
  Healthy: boolean | null;
  /** RFC3339 */
  Timestamp: string;
  Canary: boolean;
  ModifyIndex: number;
}

export interface Allocation {
  ID: string;
  Namespace: string;
  EvalID: string;
  /** `<job>.<group>[<index>]` */
  Name: string;
  NodeID: string;
  NodeName: string;
  JobID: string;
  /** the version of the job this allocation runs, and the JobModifyIndex that identifies its copy */
  JobVersion: number;
  JobModifyIndex: number;
  TaskGroup: string;
  AllocatedResources: AllocatedResources;
  DesiredStatus: AllocDesiredStatus;
  DesiredDescription: string;
  DesiredTransition: DesiredTransition;
  ClientStatus: AllocClientStatus;
  ClientDescription: string;
  TaskStates: Record<string, TaskState> | null;
  DeploymentID: string;
  /** set by the node's health report while the allocation is part of a deployment */
  DeploymentStatus?: AllocDeploymentStatus | null;
  PreviousAllocation: string;
  NextAllocation: string;
  FollowupEvalID: string;
  RescheduleTracker: { Events: RescheduleEvent[] | null; LastReschedule: string } | null;
  Metrics: AllocMetric | null;
  /** what the node reported about the allocation's network */
  NetworkStatus: { InterfaceName: string; Address: string; AddressIPv6: string; DNS: unknown } | null;
  CreateIndex: number;
  ModifyIndex: number;
  /** moves only when the server changes what the node must run (not on client status reports) */
  AllocModifyIndex: number;
  /** Unix nanoseconds */
  CreateTime: number;
  ModifyTime: number;
}

/** Nomad's TerminalStatus: told to stop, or finished on the node. */
export function allocTerminal(a: Pick<Allocation, 'DesiredStatus' | 'ClientStatus'>): boolean {
  return a.DesiredStatus !== 'run' || clientTerminal(a.ClientStatus);
}

export function clientTerminal(status: string): boolean {
  return status === 'complete' || status === 'failed' || status === 'lost';
}

/** The job summary column an allocation counts in. */
export type SummaryBucket = 'Starting' | 'Running' | 'Complete' | 'Failed' | 'Lost' | 'Unknown';

export function summaryBucket(status: AllocClientStatus): SummaryBucket {
  switch (status) {
    case 'pending':
      return 'Starting';
    case 'running':
      return 'Running';
    case 'complete':
      return 'Complete';
    case 'failed':
      return 'Failed';
    case 'lost':
      return 'Lost';
    default:
      return 'Unknown';
  }
}

export function emptyDesiredTransition(): DesiredTransition {
  return { Migrate: null, Reschedule: null, ForceReschedule: null, NoShutdownDelay: null, MigrateDisablePlacement: null };
}

export function newTaskState(): TaskState {
  return { State: 'pending', Failed: false, Restarts: 0, LastRestart: ZERO_TIME, StartedAt: ZERO_TIME, FinishedAt: ZERO_TIME, Events: [], Paused: '' };
}

/** A task event with every field at its zero value, as Nomad's JSON carries them. */
export function zeroTaskEvent(): TaskEvent {
  return {
    Type: '',
    Time: 0,
    Message: '',
    DisplayMessage: '',
    Details: {},
    FailsTask: false,
    RestartReason: '',
    SetupError: '',
    DriverError: '',
    ExitCode: 0,
    Signal: 0,
    KillTimeout: 0,
    KillError: '',
    KillReason: '',
    StartDelay: 0,
    DownloadError: '',
    ValidationError: '',
    DiskLimit: 0,
    FailedSibling: '',
    VaultError: '',
    TaskSignalReason: '',
    TaskSignal: '',
    DriverMessage: '',
    GenericSource: '',
  };
}

/** A task event of `type` now, its other fields at their zero value unless given. */
export function newTaskEvent(type: string, fields: Partial<TaskEvent> = {}): TaskEvent {
  return { ...zeroTaskEvent(), Type: type, Time: Date.now() * 1_000_000, ...fields };
}

/** An allocation with every field at its zero value: what a placement fills in, and what a stored record leaves out. */
export function zeroAllocation(): Allocation {
  return {
    ID: '',
    Namespace: '',
    EvalID: '',
    Name: '',
    NodeID: '',
    NodeName: '',
    JobID: '',
    JobVersion: 0,
    JobModifyIndex: 0,
    TaskGroup: '',
    AllocatedResources: { Tasks: {}, TaskLifecycles: {}, Shared: { DiskMB: 0, Networks: null, Ports: null } },
    DesiredStatus: 'run',
    DesiredDescription: '',
    DesiredTransition: emptyDesiredTransition(),
    ClientStatus: 'pending',
    ClientDescription: '',
    TaskStates: null,
    DeploymentID: '',
    PreviousAllocation: '',
    NextAllocation: '',
    FollowupEvalID: '',
    RescheduleTracker: null,
    Metrics: null,
    NetworkStatus: null,
    CreateIndex: 0,
    ModifyIndex: 0,
    AllocModifyIndex: 0,
    CreateTime: 0,
    ModifyTime: 0,
  };
}

/**
 * The allocation's ClientStatus from its tasks' states: a failed task fails it, then
 * any running task makes it running, any pending one pending, and only all-dead-and-fine completes it.
 */
export function clientStatusFromTasks(states: Record<string, TaskState>): { status: AllocClientStatus; description: string } {
  const list = Object.values(states);
  if (list.some((s) => s.State === 'dead' && s.Failed)) return { status: 'failed', description: 'Failed tasks' };
  if (list.some((s) => s.State === 'running')) return { status: 'running', description: 'Tasks are running' };
  if (list.some((s) => s.State === 'pending')) return { status: 'pending', description: 'No tasks have started' };
  return { status: 'complete', description: 'All tasks have completed' };
}

/** Time as Go's RFC3339Nano: nanoseconds without trailing zeros, `Z` for UTC. */
export function goTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_m, frac: string) => {
    const trimmed = frac.replace(/0+$/, '');
    return trimmed ? `.${trimmed}Z` : 'Z';
  });
}

/** Ports of a group network as they are given to an allocation: host port, container port and host IP. */
export function portMappings(ports: Port[], hostIp: string): AllocatedPortMapping[] {
  return ports.map((p) => ({ Label: p.Label, Value: p.Value, To: p.To === -1 ? p.Value : p.To, HostIP: hostIp }));
}
