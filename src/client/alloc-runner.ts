/**
 * One allocation on this node: its task runners, the order they run in (alloc-lifecycle.ts), the
 * allocation's client status, and its state on disk so that a restarted server can carry on with tasks
 * that kept running meanwhile (`restoreAllocRunner`).
 */
import path from 'node:path';
import { ZERO_TIME, clientStatusFromTasks } from '../scheduler/structs/allocation.js';
import type { Task } from '../scheduler/structs/task.js';
import { readJsonIfExists, writeJsonAtomic } from './atomic-file.js';
import { type LifecycleFlags, type KillReason, type TaskView, initialFlags, nextActions, phaseOf } from './alloc-lifecycle.js';
import type { Driver } from './drivers/driver.js';
import { nodeDrivers } from './drivers/registry.js';
import { normalizeSignal } from './drivers/signals.js';
import { AllocShuttingDownError, UnknownTaskError, UnknownTaskGroupError } from './errors.js';
import { type AllocDirs, allocDirs, buildAllocDir } from './task-dir.js';
import * as ev from './task-events.js';
import { type SavedTask, TaskRunner } from './task-runner.js';
import type { AllocClientUpdate, AllocRunnerHandle, AllocRunnerOptions, ClientAlloc, LiveTask } from './types.js';
import { AllocHealthWatcher } from './alloc-health.js';
import { AllocChecks } from './checks/alloc-checks.js';
import type { AllocCheckResults } from '../scheduler/wire/check-result.js';
import type { ExecRequest, PreparedExec } from '../scheduler/wire/exec.js';
import type { PauseRequest, ScheduleState } from '../scheduler/wire/schedule-state.js';

/** The on-disk format of `<alloc dir>/.svc/alloc.json`. */
interface SavedAlloc {
  version: 1;
  flags: LifecycleFlags;
  tasks: Record<string, SavedTask>;
}

export interface AllocRunner extends AllocRunnerHandle {
  /**
   * Stops managing the allocation without touching its tasks, as when the server exits: they keep
   * running, and `restoreAllocRunner` picks them up again.
   */
  detach(): void;
}

export interface AllocRunnerConfig extends AllocRunnerOptions {
  /** the node's drivers; by default those its fingerprint reports (the mock driver only if it has it) */
  drivers?: Map<string, Driver>;
}

function tasksOf(alloc: ClientAlloc): Task[] {
  const group = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!group) throw new UnknownTaskGroupError(alloc.TaskGroup, alloc.JobID);
  return group.Tasks;
}

function stateFile(dirs: AllocDirs): string {
  return path.join(dirs.state, 'alloc.json');
}

class Runner implements AllocRunner {
  private alloc: ClientAlloc;
  private readonly dirs: AllocDirs;
  private readonly tasks = new Map<string, TaskRunner>();
  private flags: LifecycleFlags;
  private flushQueued = false;
  private detached = false;
  private shutdownDone?: Promise<void>;
  private readonly health = new AllocHealthWatcher(() => this.changed(false));
  private readonly serviceChecks: AllocChecks;

  constructor(
    private readonly opts: AllocRunnerConfig,
    saved?: SavedAlloc,
  ) {
    this.alloc = opts.alloc;
    this.dirs = allocDirs(opts.allocsDir, opts.alloc.ID);
    buildAllocDir(this.dirs);
    this.flags = saved?.flags ?? initialFlags();
    const drivers = opts.drivers ?? nodeDrivers({ enableMockDriver: 'mock' in (opts.node.Drivers ?? {}) });
    const log = opts.log.named(`alloc_runner.${opts.alloc.ID.slice(0, 8)}`);
    this.serviceChecks = new AllocChecks({
      exec: (task, command) => this.exec({ task, command, tty: false }),
      restart: (task, reason) => this.restartUnhealthy(task, reason),
      onStatusChange: () => this.changed(false),
      log,
    });
    for (const task of tasksOf(opts.alloc)) {
      const tr = new TaskRunner({
        alloc: opts.alloc,
        task,
        node: opts.node,
        driver: drivers.get(task.Driver),
        allocDirs: this.dirs,
        log,
        onChange: (urgent) => this.changed(urgent),
        saved: saved?.tasks[task.Name],
        tokens: opts.tokens,
        identities: opts.identities,
        secrets: opts.secrets,
      });
      this.tasks.set(task.Name, tr);
    }
  }

  /** After a restore: tasks that had begun carry on; an interrupted stop is finished. */
  resume(): void {
    for (const tr of this.tasks.values()) tr.resume();
    if (this.flags.shuttingDown || this.alloc.DesiredStatus !== 'run') void this.shutdown({ noShutdownDelay: this.noShutdownDelay(this.alloc) });
    this.changed(false);
  }

  private noShutdownDelay(alloc: ClientAlloc): boolean {
    return alloc.DesiredTransition?.NoShutdownDelay === true;
  }

  state(): AllocClientUpdate {
    const TaskStates = Object.fromEntries([...this.tasks].map(([name, tr]) => [name, tr.state()]));
    const { status, description } = clientStatusFromTasks(TaskStates);
    return { ID: this.alloc.ID, ClientStatus: status, ClientDescription: description, TaskStates, DeploymentStatus: this.health.current() ?? null };
  }

  liveTasks(): Record<string, LiveTask> {
    const live: Record<string, LiveTask> = {};
    for (const [name, tr] of this.tasks) {
      const task = tr.live();
      if (task) live[name] = task;
    }
    return live;
  }

  update(alloc: ClientAlloc): void {
    this.alloc = alloc;
    if (alloc.DesiredStatus !== 'run') {
      void this.shutdown({ noShutdownDelay: this.noShutdownDelay(alloc) });
      return;
    }
    // An in-place update: running tasks keep running and use the new definition when they next start.
    const tasks = new Map(tasksOf(alloc).map((t) => [t.Name, t]));
    for (const [name, tr] of this.tasks) {
      const task = tasks.get(name);
      if (task) tr.update(task, alloc);
    }
    this.changed(false);
  }

  private runner(task: string): TaskRunner {
    const tr = this.tasks.get(task);
    if (!tr) throw new UnknownTaskError(task);
    return tr;
  }

  /** Tasks with a process: a paused task counts as running but has none to signal or restart. */
  private running(): TaskRunner[] {
    return [...this.tasks.values()].filter((tr) => tr.state().State === 'running' && !tr.isPaused);
  }

  async signal(signal: string, task?: string): Promise<void> {
    const sig = normalizeSignal(signal);
    if (task !== undefined) return this.runner(task).signal(sig);
    await Promise.all(this.running().map((tr) => tr.signal(sig)));
  }

  async restart(opts: { task?: string; allTasks?: boolean }): Promise<void> {
    if (this.shutdownDone) throw new AllocShuttingDownError();
    if (opts.task !== undefined) return this.runner(opts.task).restart();
    // A paused task has nothing to restart: its schedule decides when it runs.
    const targets = opts.allTasks ? [...this.tasks.values()].filter((tr) => !tr.isPaused) : this.running();
    await Promise.all(targets.map((tr) => tr.restart({ revive: opts.allTasks })));
  }

  /** A check's check_restart: one task, or (a group service's check) every running task. */
  private async restartUnhealthy(task: string | undefined, reason: string): Promise<void> {
    if (this.shutdownDone) return;
    const targets = task !== undefined ? [this.runner(task)] : this.running();
    await Promise.all(targets.map((tr) => tr.restart({ failure: reason })));
  }

  checks(): AllocCheckResults {
    return this.serviceChecks.current();
  }

  async exec(req: ExecRequest): Promise<PreparedExec> {
    if (this.shutdownDone) throw new AllocShuttingDownError();
    return this.runner(req.task).exec(req);
  }

  pauseState(task: string): ScheduleState {
    return this.runner(task).pauseState;
  }

  setPauseState(task: string, state: PauseRequest): void {
    if (this.shutdownDone) throw new AllocShuttingDownError();
    this.runner(task).setPauseState(state);
  }

  shutdown(opts: { noShutdownDelay?: boolean } = {}): Promise<void> {
    // A detached runner manages nothing any more; its tasks belong to whoever restores them.
    if (this.detached) return Promise.resolve();
    this.shutdownDone ??= this.stopAll(opts.noShutdownDelay ?? false);
    return this.shutdownDone;
  }

  /** The leader first, then the other tasks, then sidecars; poststop tasks then run (see changed()). */
  private async stopAll(noShutdownDelay: boolean): Promise<void> {
    this.flags = { ...this.flags, shuttingDown: true };
    this.serviceChecks.stop();
    this.changed(true);
    const all = [...this.tasks.values()];
    const stoppable = all.filter((tr) => phaseOf(tr.definition) !== 'poststop');
    const kill = (trs: TaskRunner[]) => Promise.all(trs.map((tr) => tr.kill({ noShutdownDelay })));
    await kill(stoppable.filter((tr) => tr.definition.Leader));
    await kill(stoppable.filter((tr) => !tr.definition.Lifecycle?.Sidecar));
    await kill(stoppable);
    // Poststop tasks that never began are not waited for: they are started once the rest is dead.
    await Promise.all(all.map((tr) => tr.dead()));
  }

  detach(): void {
    this.detached = true;
    this.health.stop();
    this.serviceChecks.stop();
    for (const tr of this.tasks.values()) tr.detach();
  }

  /** Every change is coalesced into one pass: lifecycle actions, the state file, and the agent's callback. */
  private changed(urgent: boolean): void {
    if (this.detached) return;
    if (urgent) this.persist();
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      if (this.detached) return;
      this.advance();
      this.persist();
      const state = this.state();
      this.serviceChecks.sync(this.alloc, state.TaskStates);
      this.health.observe(this.alloc, state.TaskStates, this.serviceChecks.passing());
      try {
        this.opts.onUpdate({ ...state, DeploymentStatus: this.health.current() ?? null });
      } catch (err) {
        this.opts.log.error(`alloc ${this.alloc.ID}: update callback failed: ${(err as Error).message}`);
      }
    });
  }

  private advance(): void {
    const views: TaskView[] = [...this.tasks.values()].map((tr) => {
      const s = tr.state();
      const t = tr.definition;
      return {
        name: t.Name,
        phase: phaseOf(t),
        sidecar: t.Lifecycle?.Sidecar ?? false,
        leader: t.Leader,
        state: s.State,
        failed: s.Failed,
        began: tr.hasBegun,
        everRan: s.StartedAt !== ZERO_TIME,
      };
    });
    const { actions, flags } = nextActions(views, this.flags);
    this.flags = flags;
    for (const a of actions) {
      for (const name of a.tasks) {
        const tr = this.runner(name);
        if (a.type === 'start') tr.run();
        else void tr.kill({ event: killEvent(a.reason) });
      }
    }
  }

  private persist(): void {
    const saved: SavedAlloc = { version: 1, flags: this.flags, tasks: Object.fromEntries([...this.tasks].map(([n, tr]) => [n, tr.snapshot()])) };
    try {
      writeJsonAtomic(stateFile(this.dirs), saved);
    } catch (err) {
      this.opts.log.error(`alloc ${this.alloc.ID}: saving its state failed: ${(err as Error).message}`);
    }
  }
}

function killEvent(reason: KillReason) {
  if (reason.kind === 'sibling-failed') return ev.siblingFailed(reason.sibling);
  return reason.kind === 'leader-dead' ? ev.leaderDead() : ev.mainDead();
}

/** Starts running a newly placed allocation. */
export function createAllocRunner(opts: AllocRunnerConfig): AllocRunner {
  const runner = new Runner(opts);
  runner.resume();
  return runner;
}

/**
 * Rebuilds the runner of an allocation this node ran before the server restarted, from the state in its
 * alloc dir: task states and restart counts as they were, running tasks followed again (or, if they
 * vanished meanwhile, handled by their restart policy). Without saved state it starts afresh.
 */
export function restoreAllocRunner(opts: AllocRunnerConfig): AllocRunner {
  const saved = readJsonIfExists<SavedAlloc>(stateFile(allocDirs(opts.allocsDir, opts.alloc.ID)));
  const runner = new Runner(opts, saved?.version === 1 ? saved : undefined);
  runner.resume();
  return runner;
}
