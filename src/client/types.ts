/**
 * The node's side of the scheduler: what the node agent (node-agent.ts, which talks to the server through
 * the node API) hands to an alloc runner, and what the alloc runner reports back.
 */
import type { Allocation, AllocClientStatus, TaskState } from '../scheduler/structs/allocation.js';
import type { Job } from '../scheduler/structs/job.js';
import type { Node } from '../scheduler/structs/node.js';
import type { Logger } from '../shared/log.js';
import type { ExecRequest, PreparedExec } from '../scheduler/wire/exec.js';
import type { PauseRequest, ScheduleState } from '../scheduler/wire/schedule-state.js';
import type { AllocCheckResults } from '../scheduler/wire/check-result.js';
import type { TaskCgroup } from './cgroups/cgroup.js';
import type { TaskTokenSource } from './task-token.js';
import type { IdentitySource } from './task-identity.js';
import type { SecretSource } from './template/secrets.js';

/** An allocation as the node receives it: with the job version it runs. */
export type ClientAlloc = Allocation & { Job: Job };

/** What an alloc runner reports whenever a task state changes. */
export interface AllocClientUpdate {
  ID: string;
  ClientStatus: AllocClientStatus;
  ClientDescription: string;
  TaskStates: Record<string, TaskState>;
  /** the allocation's health in its deployment, once this node has judged it */
  DeploymentStatus?: { Healthy: boolean; Timestamp: string } | null;
}

export interface AllocRunnerOptions {
  alloc: ClientAlloc;
  node: Node;
  /** the node's data dir for allocations: the runner uses `<allocsDir>/<alloc ID>/` */
  allocsDir: string;
  log: Logger;
  /** called (possibly often) with the allocation's current client state; the agent batches them */
  onUpdate(update: AllocClientUpdate): void;
  /** where tasks with a vault block get their token */
  tokens?: TaskTokenSource;
  /** where tasks get their signed workload identity */
  identities?: IdentitySource;
  /** what templates' `secret` reads */
  secrets?: SecretSource;
}

export interface AllocRunnerHandle {
  /** the server changed the allocation: a new job version in place, or DesiredStatus stop/evict */
  update(alloc: ClientAlloc): void;
  /** sends a signal to one task, or every running task */
  signal(signal: string, task?: string): Promise<void>;
  /** restarts one task, or every running task (allTasks: also those that already finished) */
  restart(opts: { task?: string; allTasks?: boolean }): Promise<void>;
  /** checks a command to run inside one of its running tasks */
  exec(req: ExecRequest): Promise<PreparedExec>;
  /** one task's pause schedule state (TaskState.Paused) */
  pauseState(task: string): ScheduleState;
  /** overrides one task's schedule (force_pause, force_run), or removes the override (schedule_resume) */
  setPauseState(task: string, state: PauseRequest): void;
  /** the latest result of each of its service checks, by check ID */
  checks(): AllocCheckResults;
  /** stops every task (kill_signal, then SIGKILL after kill_timeout) and resolves when all are dead */
  shutdown(opts?: { noShutdownDelay?: boolean }): Promise<void>;
  /**
   * Lets go of the tasks without stopping them: the server is stopping and they must outlive it; the
   * next start restores them from the allocation directory.
   */
  detach(): void;
  /** the current client state */
  state(): AllocClientUpdate;
  /** its tasks with a running process, by name */
  liveTasks(): Record<string, LiveTask>;
}

export interface LiveTask {
  pid: number;
  /** the task's cgroup, whose counters cover every process in it; undefined when it has none */
  cgroup?: TaskCgroup;
  /** the longest stopping it may take: shutdown delay, then kill timeout */
  stopWithinMs: number;
}
