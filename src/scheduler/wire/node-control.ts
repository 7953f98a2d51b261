/**
 * A node as the server's endpoints reach it: the NodeAgent itself for the node in the server's process,
 * or a proxy that carries each call through the node's tunnel (src/scheduler/tunnel/). The node
 * implements it and the server calls it, so it sits between the two.
 */
import type { AllocCheckResults } from './check-result.js';
import type { AllocFs } from './alloc-fs.js';
import type { ExecRequest, PreparedExec } from './exec.js';
import type { PauseRequest, ScheduleState } from './schedule-state.js';
import type { AllocResourceUsage, HostStats } from './resource-usage.js';

export interface NodeControl {
  signal(allocId: string, signal: string, task?: string): Promise<void>;
  restart(allocId: string, opts: { task?: string; allTasks?: boolean }): Promise<void>;
  /** the allocation's directory on the node; reading it fails with 404 when the node has none for it */
  files(allocId: string): AllocFs;
  /** checks a command to run inside a running task of the allocation (its environment, directory and isolation) */
  exec(allocId: string, req: ExecRequest): Promise<PreparedExec>;
  /** one task's pause schedule state (Nomad's ScheduleState) */
  pauseState(allocId: string, task: string): Promise<ScheduleState>;
  /** overrides one task's pause schedule, or (schedule_resume) lets the schedule decide again */
  setPauseState(allocId: string, task: string, state: PauseRequest): Promise<void>;
  /** the latest results of the allocation's service checks, by check ID; empty when the node does not run it */
  checks(allocId: string): Promise<AllocCheckResults>;
  /** the resource usage of the allocation's running tasks; 404 when the node does not run it */
  allocStats(allocId: string): Promise<AllocResourceUsage>;
  /** the host's memory, CPUs, disks and uptime */
  hostStats(): Promise<HostStats>;
}

/** A node in this server's process, whose allocation directories are on this machine. */
export interface LocalNodeControl extends NodeControl {
  /** the host path of the allocation's directory; undefined when the node never ran it */
  allocDir(allocId: string): string | undefined;
}
