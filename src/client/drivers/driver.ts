/**
 * What a task driver is to the task runner: something that says whether it can run tasks on this node,
 * starts a task from its `config` block, and finds a running task again after the server restarts.
 */
import type { LogConfig } from '../../scheduler/structs/task.js';
import type { TaskDirs } from '../task-dir.js';
import type { ExecProcessSpec } from '../exec/session.js';
import type { TaskCgroup } from '../cgroups/cgroup.js';
import type { TaskResources } from '../cgroups/node-cgroups.js';

export interface DriverFingerprint {
  detected: boolean;
  healthy: boolean;
  /** why the driver is unhealthy or undetected, in words a user can act on; `Healthy` otherwise */
  description: string;
  /** node attributes the driver contributes, e.g. `driver.raw_exec = 1` */
  attributes: Record<string, string>;
}

export interface TaskStartRequest {
  allocId: string;
  taskName: string;
  /** the task's `config` block, already interpolated */
  config: Record<string, unknown>;
  env: Record<string, string>;
  dirs: TaskDirs;
  logConfig: LogConfig;
  /** a directory private to this launch of the task, where the driver keeps what it needs to recover it */
  stateDir: string;
  /** what the scheduler allocated the task: the limits its cgroup holds it to */
  resources: TaskResources;
}

/** How a task ended. `exitCode` is 128 + signal number when a signal ended it, as a shell reports it. */
export interface ExitResult {
  exitCode: number;
  signal: number;
  oomKilled: boolean;
  /** set when the task did not end by itself: its executor died, or it was lost */
  err?: string;
}

export interface DriverHandle {
  readonly pid: number;
  /** the task's cgroup, for its resource usage; undefined when the node has none for it */
  readonly cgroup?: TaskCgroup;
  /** resolves once, when the task has ended */
  wait(): Promise<ExitResult>;
  signal(signal: string): Promise<void>;
  /** sends `signal`, then SIGKILL if the task is still alive after `timeoutMs`; resolves when it has ended */
  kill(signal: string, timeoutMs: number): Promise<void>;
  /** stops watching the task without touching it: the server is going away and the task must outlive it */
  release(): void;
}

export interface Driver {
  readonly name: string;
  /** the signal a task receives on kill when its `kill_signal` is empty */
  readonly defaultKillSignal: string;
  /** `none`: tasks see host paths and inherit the host environment; `chroot`: tasks see their task root */
  readonly fsIsolation: 'none' | 'chroot';
  fingerprint(): Promise<DriverFingerprint>;
  start(req: TaskStartRequest): Promise<DriverHandle>;
  /** the handle of a launch that was running when the server stopped; undefined when the task is gone */
  recover(req: TaskStartRequest): Promise<DriverHandle | undefined>;
  /**
   * How to run `command` inside the running task (`alloc exec`, job actions): in its environment, its
   * working directory and its isolation. Throws ExecCommandError when the command is not there or the
   * driver offers no exec.
   */
  execCommand(req: TaskStartRequest, handle: DriverHandle, command: string[]): ExecProcessSpec;
}

/**
 * The task could not be started. A recoverable error (a transient failure) lets the restart policy try
 * again; an unrecoverable one (a bad config) does not.
 */
export class DriverStartError extends Error {
  constructor(
    message: string,
    readonly recoverable: boolean,
  ) {
    super(message);
  }
}

/** A `config` block the driver cannot use: never worth retrying. */
export class DriverConfigError extends DriverStartError {
  constructor(message: string) {
    super(message, false);
  }
}

/** Reads a string option of a `config` block; undefined when absent. */
export function configString(config: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = config[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new DriverConfigError(`missing required config "${key}"`);
    return undefined;
  }
  if (typeof v !== 'string') throw new DriverConfigError(`config "${key}" must be a string`);
  return v;
}

/** Reads a list-of-strings option; numbers and booleans are taken as their text, as HCL users write them. */
export function configStringList(config: Record<string, unknown>, key: string): string[] {
  const v = config[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => ['string', 'number', 'boolean'].includes(typeof x))) {
    throw new DriverConfigError(`config "${key}" must be a list of strings`);
  }
  return v.map(String);
}
