/**
 * The server's side of executor.cjs: launching one per task, and following the task through the files
 * the executor writes, so that a task started before a server restart is followed the same way as one
 * started after it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readJsonIfExists, writeJsonAtomic } from '../atomic-file.js';
import { executorPath } from '../executor/locate.js';
import type { TaskCgroup } from '../cgroups/cgroup.js';
import { nodeCgroups, taskCgroupId } from '../cgroups/node-cgroups.js';
import { DriverStartError, type DriverHandle, type ExitResult } from './driver.js';
import { isSameProcessAlive, killQuietly } from './proc.js';
import { normalizeSignal } from './signals.js';

/** What the exec driver adds to a launch: the tools, the task root and the mounts that build it. */
export interface Isolation {
  unshare: string;
  chroot: string;
  mount: string;
  root: string;
  /** argument lists for `mount`, run in order inside the new mount namespace */
  mounts: string[][];
}

export interface LaunchSpec {
  taskName: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  logs: { disabled: boolean; dir: string; maxFiles: number; maxFileSizeBytes: number };
  isolation?: Isolation;
  /**
   * The task's cgroup: the process that becomes the task writes its pid to each file and sets its
   * oom_score_adj before it execs the command (see executor.cjs).
   */
  cgroup?: { procsFiles: string[]; oomCounter: string; oomScoreAdj: number };
}

/** What a launch records of its cgroup, to find it again after a restart. */
export interface LaunchCgroup {
  allocId: string;
  taskName: string;
  /** the cores the task holds for itself, taken out of the shared pool again on reattach */
  cores: number[];
  /** the hard memory limit, for the OOM message */
  memoryBytes?: number;
}

interface ExecutorState {
  executorPid: number;
  executorStartTime: string;
  /** the process that receives signals: the task (raw_exec) or the namespace's init (exec) */
  taskPid: number;
  taskStartTime: string;
  /** the process group SIGKILL goes to, which takes the task's children with it */
  pgid: number;
}

interface ExitFile {
  exitCode: number;
  signal: number;
  /** the executor read the cgroup's OOM counter before it removed the cgroup */
  oomKilled?: boolean;
  finishedAt: string;
  err?: string;
  startError?: string;
}

const START_TIMEOUT_MS = 10_000;
const POLL_MS = 200;

function files(stateDir: string) {
  return {
    spec: path.join(stateDir, 'spec.json'),
    state: path.join(stateDir, 'executor.json'),
    exit: path.join(stateDir, 'exit.json'),
    initPid: path.join(stateDir, 'init-pid.json'),
    initResult: path.join(stateDir, 'init-result.json'),
    cgroup: path.join(stateDir, 'cgroup.json'),
  };
}
type ExecutorFiles = ReturnType<typeof files>;

class ExecutorHandle implements DriverHandle {
  private readonly done: Promise<ExitResult>;
  private finish!: (r: ExitResult) => void;
  private finished = false;
  private readonly timer: NodeJS.Timeout;
  private readonly killWaits = new Set<AbortController>();

  constructor(
    private readonly f: ExecutorFiles,
    private readonly st: ExecutorState,
    child?: ChildProcess,
    readonly cgroup?: TaskCgroup,
    private readonly cgroupInfo?: LaunchCgroup,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    // Polling covers an executor that is not our child (after a restart); the exit event makes ours prompt.
    // Unreferenced: watching a task must not keep a stopping server alive.
    this.timer = setInterval(() => this.check(), POLL_MS).unref();
    child?.once('exit', () => this.check());
    this.check();
  }

  get pid(): number {
    return this.st.taskPid;
  }

  private check(): void {
    if (this.finished) return;
    let exit = readJsonIfExists<ExitFile>(this.f.exit);
    if (!exit && isSameProcessAlive(this.st.executorPid, this.st.executorStartTime)) return;
    // The executor writes the exit file before it exits: read again in case it did so just now.
    exit ??= readJsonIfExists<ExitFile>(this.f.exit);
    this.finished = true;
    clearInterval(this.timer);
    const result: ExitResult = exit
      ? { exitCode: exit.exitCode, signal: exit.signal, oomKilled: false, err: exit.err ?? exit.startError }
      : { exitCode: 0, signal: 0, oomKilled: false, err: 'executor exited without recording how the task ended' };
    void this.endCgroup(result, exit?.oomKilled).then(() => this.finish(result));
  }

  /**
   * The task has ended: what it left running in its cgroup (a daemon it double-forked) goes with it,
   * and the cgroup is removed, once its OOM counter is read. The executor does both itself when it can
   * (it sees the end even when no node watches); this covers an executor that could not.
   */
  private async endCgroup(result: ExitResult, oomRecorded: boolean | undefined): Promise<void> {
    const cg = this.cgroup;
    if (!cg) return;
    try {
      const oom = oomRecorded ?? cg.oomKilled();
      if (oom && (result.signal === 9 || result.exitCode === 137)) {
        Object.assign(result, { oomKilled: true, exitCode: 137, signal: 9, err: oomMessage(this.cgroupInfo?.memoryBytes) });
      }
      await nodeCgroups().remove(cg);
    } catch {
      // a cgroup removed by hand, or one the kernel still holds: the task's end stands either way
    }
  }
  wait(): Promise<ExitResult> {
    return this.done;
  }

  private taskAlive(): boolean {
    return isSameProcessAlive(this.st.taskPid, this.st.taskStartTime);
  }

  async signal(signal: string): Promise<void> {
    const sig = normalizeSignal(signal);
    if (!this.finished && this.taskAlive()) killQuietly(this.st.taskPid, sig);
  }

  async kill(signal: string, timeoutMs: number): Promise<void> {
    if (this.finished) return;
    await this.signal(signal);
    // Cancelled as soon as the task is gone or let go: a pending timer would hold a stopping server's
    // process open for the rest of the kill timeout.
    const grace = new AbortController();
    this.killWaits.add(grace);
    const exited = await Promise.race([this.done.then(() => true), sleep(timeoutMs, false, { signal: grace.signal }).catch(() => false)]);
    grace.abort();
    this.killWaits.delete(grace);
    if (!exited && !this.finished) {
      // The cgroup holds every process of the task, those that left its process group too.
      if (this.cgroup) await this.cgroup.killAll().catch(() => undefined);
      if (this.st.pgid > 0) killQuietly(-this.st.pgid, 'SIGKILL');
      if (this.taskAlive()) killQuietly(this.st.taskPid, 'SIGKILL');
    }
    await this.done;
  }

  release(): void {
    clearInterval(this.timer);
    for (const grace of this.killWaits) grace.abort();
    this.finished = true;
  }
}

/** Nomad's words for an OOM kill, with the limit the task reached. */
function oomMessage(memoryBytes: number | undefined): string {
  return memoryBytes ? `OOM Killed (memory limit ${Math.round(memoryBytes / (1024 * 1024))} MiB)` : 'OOM Killed';
}

/**
 * Starts the executor and resolves once the task runs (or has already ended); rejects when it could not
 * start. `cgroup` is the task's, already created with its limits: it is removed when the launch fails.
 */
export async function launchExecutor(stateDir: string, spec: LaunchSpec, cgroup?: { cg: TaskCgroup; info: LaunchCgroup }): Promise<DriverHandle> {
  try {
    return await launch(stateDir, spec, cgroup);
  } catch (err) {
    if (cgroup) await nodeCgroups().remove(cgroup.cg).catch(() => undefined);
    throw err;
  }
}

async function launch(stateDir: string, spec: LaunchSpec, cgroup?: { cg: TaskCgroup; info: LaunchCgroup }): Promise<DriverHandle> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const f = files(stateDir);
  if (cgroup) writeJsonAtomic(f.cgroup, cgroup.info);
  const isolation = spec.isolation && { ...spec.isolation, initPidFile: f.initPid, initResultFile: f.initResult };
  writeJsonAtomic(f.spec, { ...spec, isolation, stateFile: f.state, exitFile: f.exit });

  // Detached: its own session, so the task survives the server and the server's terminal signals.
  const child = spawn(process.execPath, [executorPath(), f.spec], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH ?? '' } });
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  const spawnError = await new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  if (spawnError) throw new DriverStartError(`failed to start the executor: ${spawnError.message}`, true);

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const exit = readJsonIfExists<ExitFile>(f.exit);
    // A command that cannot be run will not become runnable by retrying.
    if (exit?.startError) throw new DriverStartError(`failed to launch command with executor: ${exit.startError}`, false);
    const state = readJsonIfExists<ExecutorState>(f.state);
    if (state && (exit || state.taskPid > 0)) return new ExecutorHandle(f, state, child, cgroup?.cg, cgroup?.info);
    if (exited) throw new DriverStartError('executor exited before starting the task', true);
    if (Date.now() > deadline) {
      killQuietly(-child.pid!, 'SIGKILL');
      throw new DriverStartError(`executor did not start the task within ${START_TIMEOUT_MS / 1000}s`, true);
    }
    await sleep(10);
  }
}

/**
 * Follows a task launched before the server restarted. Undefined when neither an exit file nor the
 * same executor process is there: the task was lost while nobody watched it.
 */
export function reattachExecutor(stateDir: string): DriverHandle | undefined {
  const f = files(stateDir);
  const state = readJsonIfExists<ExecutorState>(f.state);
  if (!state) return undefined;
  // Liveness first: the executor writes the exit file before it exits, so one found gone has written
  // whatever it was going to. Read the other way round, a task ending just then would count as lost.
  const info = readJsonIfExists<LaunchCgroup>(f.cgroup);
  const cg = info && nodeCgroups().open(taskCgroupId(info.allocId, info.taskName), info.cores);
  if (!isSameProcessAlive(state.executorPid, state.executorStartTime) && !readJsonIfExists<ExitFile>(f.exit)) {
    // Lost: whatever of it still runs is nobody's to follow.
    if (cg) void nodeCgroups().remove(cg).catch(() => undefined);
    return undefined;
  }
  return new ExecutorHandle(f, state, undefined, cg, info);
}
