/**
 * One task of an allocation: starts it through its driver, follows it, restarts it as its restart policy
 * says, kills, signals and restarts it on request, and keeps its TaskState (state, times, counters and
 * the latest events) as Nomad reports it.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { TASK_EVENTS_KEPT, type TaskEvent, type TaskState, type TaskStateName, goTime, newTaskState } from '../scheduler/structs/allocation.js';
import type { Node } from '../scheduler/structs/node.js';
import { DEFAULT_KILL_TIMEOUT, type Task } from '../scheduler/structs/task.js';
import type { Logger } from '../shared/log.js';
import { type Driver, type DriverHandle, DriverStartError, type ExitResult, type TaskStartRequest } from './drivers/driver.js';
import { normalizeSignal } from './drivers/signals.js';
import { TaskNotRunningError } from './errors.js';
import { type PrestartContext, TaskHookError, runArtifacts, runTemplates } from './prestart.js';
import { TaskTemplates } from './template/hook.js';
import type { SecretSource } from './template/secrets.js';
import { TemplateWatcher } from './template/watch.js';
import { RESTART_REASONS, RestartTracker, type RestartTrackerState } from './restart-tracker.js';
import { type AllocDirs, type TaskDirs, buildTaskDir, taskDirs, writeDispatchPayload } from './task-dir.js';
import { buildTaskEnv, interpolateConfig } from './task-env.js';
import { TaskToken, type TaskTokenSource } from './task-token.js';
import { identityWanted, TaskIdentity, type IdentitySource } from './task-identity.js';
import * as ev from './task-events.js';
import type { ClientAlloc, LiveTask } from './types.js';
import type { ExecRequest, ExecSession, PreparedExec } from '../scheduler/wire/exec.js';
import { ExecCommandError } from './errors.js';
import { NoScheduleError, TaskPause } from './schedule/task-pause.js';
import { type PauseRequest, type ScheduleOverride, type ScheduleState, stopsTask } from '../scheduler/wire/schedule-state.js';

const TASK_LOST_MESSAGE = 'task was lost while the server was down';
const USER_RESTART_REASON = 'User requested restart';
/** Nomad's words for a task told of its new token. */
const TOKEN_CHANGED = 'Vault: new Vault token acquired';

/** What survives a server restart, written with the allocation's state. */
export interface SavedTask {
  state: TaskState;
  tracker: RestartTrackerState;
  /** the alloc runner has started this task at least once */
  began: boolean;
  setupDone: boolean;
  /** the launch that may still be running (a directory name under the task's state dir) */
  launch: string | null;
  /** Unix ms at which a pending restart is due; 0 when none */
  restartAtMs: number;
  killRequested: boolean;
  noShutdownDelay: boolean;
  /** the artifacts already downloaded (see prestart.ts artifactId); absent in state from before artifacts */
  artifacts?: string[];
  /** a pause override from the API (force_pause, force_run), kept until `scheduled` removes it */
  scheduleOverride?: ScheduleOverride;
}

export interface TaskRunnerOptions {
  alloc: ClientAlloc;
  task: Task;
  node: Node;
  /** undefined when the node has no driver of that name */
  driver: Driver | undefined;
  allocDirs: AllocDirs;
  log: Logger;
  /** after every change; `urgent` when the change must be on disk before the runner goes on */
  onChange(urgent: boolean): void;
  saved?: SavedTask;
  /** where tasks with a vault block get their token; without it they start without one */
  tokens?: TaskTokenSource;
  /** where tasks whose identity block asks for it (env or file) get their signed identity */
  identities?: IdentitySource;
  /** what templates' `secret` reads */
  secrets?: SecretSource;
}

type Outcome =
  | { kind: 'exited'; result: ExitResult }
  | { kind: 'start-failed'; err: Error }
  | { kind: 'lost' }
  | { kind: 'detached' }
  /** restarted because a service check kept failing (check_restart) */
  | { kind: 'unhealthy' };

export class TaskRunner {
  private task: Task;
  private alloc: ClientAlloc;
  private tracker: RestartTracker;
  private readonly dirs: TaskDirs;
  private readonly stateRoot: string;
  private st: TaskState;
  private began: boolean;
  private setupDone: boolean;
  private launch: string | null;
  private restartAtMs: number;
  private killRequested: boolean;
  private noShutdownDelay: boolean;
  private handle?: DriverHandle;
  private killStarted = false;
  private restartRequested = false;
  /** the requested restart is a failure the restart policy counts (a failing check's) */
  private restartFailure = false;
  private loopRunning = false;
  private detached = false;
  /** cuts a restart delay short (kill, detach) */
  private wake?: () => void;
  private deadWaiters: (() => void)[] = [];
  /** the task's pause schedule (schedule block and overrides) */
  private readonly schedule: TaskPause;
  /** the process is being stopped for a pause: its exit is neither a failure nor a restart */
  private pauseRequested = false;
  /** lets a start held back by a pause go on */
  private unpause?: () => void;
  private artifactsDone: Set<string>;
  /** the variables of `env = true` templates, added to the task's environment */
  private templateEnv: Record<string, string> = {};
  /** the templates last rendered (as JSON); undefined until the first render of this runner */
  private renderedTemplates?: string;
  /** re-renders templates whose secrets changed, while the task lives */
  private templateWatcher?: TemplateWatcher;
  /** cuts a download short (kill, detach) */
  private prestartAbort?: AbortController;
  /** exec sessions into the running task: they end when it does */
  private readonly sessions = new Set<ExecSession>();
  /** the task's own token, when it has a vault block */
  private readonly token?: TaskToken;
  /** the task's workload identity, when its identity block asks for it in the environment or a file */
  private readonly identity?: TaskIdentity;

  constructor(private readonly opts: TaskRunnerOptions) {
    this.task = opts.task;
    this.alloc = opts.alloc;
    this.dirs = taskDirs(opts.allocDirs, opts.task.Name);
    this.stateRoot = path.join(opts.allocDirs.state, 'tasks', encodeURIComponent(opts.task.Name));
    const s = opts.saved;
    this.st = s?.state ?? newTaskState();
    this.tracker = this.newTracker(s?.tracker);
    this.began = s?.began ?? false;
    this.setupDone = s?.setupDone ?? false;
    this.launch = s?.launch ?? null;
    this.restartAtMs = s?.restartAtMs ?? 0;
    this.killRequested = s?.killRequested ?? false;
    this.noShutdownDelay = s?.noShutdownDelay ?? false;
    this.artifactsDone = new Set(s?.artifacts ?? []);
    this.schedule = new TaskPause(opts.task.Schedule, { override: s?.scheduleOverride ?? '', state: this.st.Paused }, (state, event) => this.scheduleChanged(state, event));
    if (opts.task.Vault && opts.tokens) {
      const { Vault: vault, Name: task } = opts.task;
      const onReplaced = () => void this.tokenReplaced();
      this.token = new TaskToken({ allocId: opts.alloc.ID, task, vault, secretsDir: this.dirs.secrets, source: opts.tokens, log: opts.log, onReplaced });
    }
    if (identityWanted(opts.task.Identity) && opts.identities) {
      const { root: taskDir, secrets: secretsDir } = this.dirs;
      const onRenewed = () => void this.identityRenewed();
      this.identity = new TaskIdentity({ allocId: opts.alloc.ID, task: opts.task.Name, identity: opts.task.Identity, taskDir, secretsDir, source: opts.identities, log: opts.log, onRenewed });
    }
    if (!s) this.emit(ev.received());
  }

  private newTracker(saved?: RestartTrackerState): RestartTracker {
    return new RestartTracker(this.task.RestartPolicy, this.alloc.Job.Type, this.task.Lifecycle, saved);
  }

  get name(): string {
    return this.task.Name;
  }

  get definition(): Task {
    return this.task;
  }

  /**
   * The process running now and the longest its stop may take (shutdown delay, then the kill timeout):
   * what a stopping node waits for and whose usage it reads. Undefined without a running process.
   */
  live(): LiveTask | undefined {
    if (this.detached || this.st.State !== 'running' || !this.handle) return undefined;
    return { pid: this.handle.pid, cgroup: this.handle.cgroup, stopWithinMs: (this.task.ShutdownDelay + this.killTimeoutNs()) / 1e6 };
  }

  /** Whether the alloc runner has started it (it may be dead since). */
  get hasBegun(): boolean {
    return this.began;
  }

  state(): TaskState {
    return { ...this.st, Events: [...this.st.Events] };
  }

  snapshot(): SavedTask {
    return {
      state: this.st,
      tracker: this.tracker.state(),
      began: this.began,
      setupDone: this.setupDone,
      launch: this.launch,
      restartAtMs: this.restartAtMs,
      killRequested: this.killRequested,
      noShutdownDelay: this.noShutdownDelay,
      artifacts: [...this.artifactsDone],
      scheduleOverride: this.schedule.override,
    };
  }

  /** Starts the task (once; later calls do nothing). */
  run(): void {
    if (this.began) return;
    this.began = true;
    void this.loop(false);
  }

  /** After a server restart: follows the launch that was running, or carries on where the task was. */
  resume(): void {
    if (!this.began || this.st.State === 'dead' || this.loopRunning) return;
    void this.loop(this.launch !== null);
  }

  /** A new version of the job, updated in place: used from the next start on. */
  update(task: Task, alloc: ClientAlloc): void {
    this.task = task;
    this.alloc = alloc;
    this.tracker = this.newTracker(this.tracker.state());
    this.schedule.update(task.Schedule);
  }

  /** Resolves once the task is dead. */
  dead(): Promise<void> {
    if (this.st.State === 'dead') return Promise.resolve();
    return new Promise((resolve) => this.deadWaiters.push(resolve));
  }

  /**
   * Kills the task: `event` first (why), then its kill signal, and SIGKILL after its kill timeout.
   * A task that never started just becomes dead.
   */
  async kill(opts: { event?: TaskEvent; noShutdownDelay?: boolean } = {}): Promise<void> {
    if (this.detached || (this.st.State === 'dead' && !this.loopRunning)) return;
    if (!this.killRequested) {
      this.killRequested = true;
      this.templateWatcher?.stop();
      this.noShutdownDelay = opts.noShutdownDelay ?? false;
      if (opts.event) this.emit(opts.event);
      if (!this.began) this.setState('dead');
      else if (this.handle) void this.killHandle();
      else {
        this.prestartAbort?.abort();
        this.wake?.();
      }
    }
    await this.dead();
  }

  async signal(signal: string, reason = ''): Promise<void> {
    const sig = normalizeSignal(signal);
    const handle = this.handle;
    if (!handle || this.st.State !== 'running') throw new TaskNotRunningError(this.name);
    this.emit(ev.signaling(sig, reason));
    await handle.signal(sig);
  }

  /**
   * Restarts a running task in place (not counted against its restart policy); with `revive`, also
   * starts a dead one again. With `failure` (the reason), the restart is a failure as the restart policy
   * counts them: its delay, its attempts, and its mode once they are used up. Resolves once the old
   * process is gone.
   */
  async restart(opts: { revive?: boolean; failure?: string; reason?: string } = {}): Promise<void> {
    const handle = this.handle;
    if (handle && this.st.State === 'running' && !this.killRequested) {
      this.restartRequested = true;
      this.restartFailure = opts.failure !== undefined;
      this.emit(ev.restartSignaled(opts.failure ?? opts.reason ?? USER_RESTART_REASON));
      await handle.kill(this.killSignal(), this.killTimeoutNs() / 1e6);
      return;
    }
    if (opts.revive && this.st.State === 'dead' && !this.loopRunning) {
      this.killRequested = false;
      this.killStarted = false;
      this.st.Failed = false;
      this.began = true;
      this.emit(ev.restartSignaled(USER_RESTART_REASON));
      this.setState('pending');
      void this.loop(false);
      return;
    }
    throw new TaskNotRunningError(this.name);
  }

  /** The task's pause schedule state (Nomad's TaskState.Paused): always '' without a schedule. */
  get pauseState(): ScheduleState {
    return this.schedule.state;
  }

  /** Whether the schedule (or an override) keeps the task stopped now. */
  get isPaused(): boolean {
    return this.schedule.paused;
  }

  /** Overrides the task's schedule: force_pause, force_run, or schedule_resume to follow it again. */
  setPauseState(state: PauseRequest): void {
    if (!this.schedule.hasSchedule) throw new NoScheduleError(this.name);
    if (this.st.State === 'dead') throw new TaskNotRunningError(this.name);
    this.schedule.request(state);
  }

  /** Stops following the task without touching it: the server is going away, the task stays. */
  detach(): void {
    this.detached = true;
    this.templateWatcher?.stop();
    this.schedule.stop();
    this.token?.stop();
    this.identity?.stop();
    this.handle?.release();
    this.prestartAbort?.abort();
    this.wake?.();
  }

  private killSignal(): string {
    const wanted = this.task.KillSignal || this.opts.driver?.defaultKillSignal || 'SIGINT';
    try {
      return normalizeSignal(wanted);
    } catch {
      this.opts.log.warn(`task ${this.name}: unknown kill_signal ${JSON.stringify(wanted)}, using SIGKILL`);
      return 'SIGKILL';
    }
  }

  private killTimeoutNs(): number {
    return this.task.KillTimeout > 0 ? this.task.KillTimeout : DEFAULT_KILL_TIMEOUT;
  }

  /**
   * The schedule changed: record it, then stop the process for a pause (kill_signal, then SIGKILL after
   * kill_timeout) or let a start held back by one go on.
   */
  private scheduleChanged(state: ScheduleState, event: TaskEvent | undefined): void {
    this.st.Paused = state;
    if (event) this.emit(event);
    else this.opts.onChange(false);
    if (stopsTask(state)) this.pauseIfDue();
    else this.unpause?.();
  }

  private pauseIfDue(): void {
    const handle = this.handle;
    if (!handle || !this.schedule.paused || this.killRequested || this.pauseRequested) return;
    this.pauseRequested = true;
    const timeoutNs = this.killTimeoutNs();
    this.emit(ev.killing(timeoutNs));
    void handle.kill(this.killSignal(), timeoutNs / 1e6);
  }

  /**
   * Holds the start back while the schedule pauses the task. A paused task counts as running, as Nomad's
   * client reports it to the server, so the allocation stays running; only StartedAt waits for a process.
   */
  private async untilRunnable(): Promise<void> {
    while (this.schedule.paused && !this.killRequested && !this.detached) {
      if (this.st.State !== 'running') this.setState('running');
      await new Promise<void>((resolve) => {
        this.unpause = resolve;
        this.wake = resolve;
      });
      this.unpause = undefined;
      this.wake = undefined;
    }
  }

  /** Killing event, shutdown delay, kill signal, then SIGKILL after the kill timeout. */
  private async killHandle(): Promise<void> {
    const handle = this.handle;
    if (this.killStarted || !handle) return;
    this.killStarted = true;
    const timeoutNs = this.killTimeoutNs();
    this.emit(ev.killing(timeoutNs));
    const delayNs = this.task.ShutdownDelay;
    if (delayNs > 0 && this.noShutdownDelay) this.emit(ev.skippingShutdownDelay());
    else if (delayNs > 0) {
      this.emit(ev.waitingShutdownDelay(delayNs));
      // Cut short when the node lets go of the task: a pending timer would hold a stopping server open.
      await this.pause(delayNs / 1e6);
      if (this.detached) return;
    }
    await handle.kill(this.killSignal(), timeoutNs / 1e6);
  }

  private emit(event: TaskEvent, urgent = false): void {
    if (this.detached) return;
    const events = [...this.st.Events, event];
    this.st.Events = events.slice(Math.max(0, events.length - TASK_EVENTS_KEPT));
    if (event.FailsTask) this.st.Failed = true;
    if (event.Type === ev.EV.restarting) {
      this.st.Restarts++;
      this.st.LastRestart = goTime(event.Time / 1e6);
    }
    this.opts.onChange(urgent);
  }

  private setState(state: TaskStateName, event?: TaskEvent): void {
    if (this.detached) return;
    this.st.State = state;
    // A process started: a task paused before its first start counts as running without one.
    if (state === 'running' && event?.Type === ev.EV.started) this.st.StartedAt = goTime();
    if (state === 'dead') this.st.FinishedAt = goTime();
    if (event) this.emit(event);
    else this.opts.onChange(false);
    if (state === 'dead') {
      this.schedule.stop();
      this.token?.stop();
      this.identity?.stop();
      this.templateWatcher?.stop();
      for (const w of this.deadWaiters.splice(0)) w();
    }
  }

  /** Waits `ms`, or less if killed or detached meanwhile. */
  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
  }

  private async loop(recover: boolean): Promise<void> {
    this.loopRunning = true;
    this.schedule.start();
    try {
      if (!this.setupDone) {
        this.emit(ev.taskSetup(ev.BUILDING_TASK_DIR));
        try {
          buildTaskDir(this.dirs);
          writeDispatchPayload(this.dirs, this.task.DispatchPayload?.File, this.alloc.Job.Payload);
        } catch (err) {
          // As Nomad's client: a task that cannot be set up fails at once, without restarts.
          this.emit(ev.setupFailure(`failed to build task directory for "${this.name}": ${(err as Error).message}`));
          return this.setState('dead', ev.notRestarting(RESTART_REASONS.unrecoverable));
        }
        this.setupDone = true;
      }
      // A restart that was due when the server stopped keeps its time.
      if (!recover && this.restartAtMs > Date.now()) await this.pause(this.restartAtMs - Date.now());
      for (;;) {
        if (this.detached) return;
        // A kill begun before a restart is finished on the recovered process (follow() resumes it).
        if (this.killRequested && !recover) return this.setState('dead');
        const outcome = recover ? await this.recoverLaunch() : await this.startAndWait();
        recover = false;
        if (outcome.kind === 'detached' || this.detached) return;
        if (this.killRequested) return this.setState('dead', outcome.kind === 'exited' ? ev.killed() : undefined);
        if (this.pauseRequested) {
          // Stopped for its schedule: it starts again when the schedule lets it, not by its restart policy.
          this.pauseRequested = this.restartRequested = this.restartFailure = false;
          continue;
        }
        if (this.restartRequested && !this.restartFailure) {
          this.restartRequested = false;
          this.setState('pending', ev.restarting(0, ''));
          continue;
        }
        const unhealthy = this.restartRequested;
        this.restartRequested = this.restartFailure = false;
        if (!(await this.afterEnd(unhealthy ? { kind: 'unhealthy' } : outcome))) return;
      }
    } catch (err) {
      // A bug or a host failure (disk full) rather than the task: report it on the task, which fails.
      this.opts.log.error(`task ${this.name}: ${(err as Error).stack ?? err}`);
      this.emit(ev.driverFailure((err as Error).message));
      this.setState('dead', ev.notRestarting(RESTART_REASONS.unrecoverable));
    } finally {
      this.loopRunning = false;
    }
  }

  /** Applies the restart policy to how the task ended; true when the task is to start again. */
  private async afterEnd(outcome: Exclude<Outcome, { kind: 'detached' }>): Promise<boolean> {
    const now = Date.now();
    let decision;
    if (outcome.kind === 'start-failed') {
      const err = outcome.err;
      const recoverable = err instanceof DriverStartError || err instanceof TaskHookError ? err.recoverable : true;
      decision = this.tracker.onStartError(recoverable, now);
    } else if (outcome.kind === 'lost' || outcome.kind === 'unhealthy') {
      decision = this.tracker.onExit(false, now);
    } else {
      const r = outcome.result;
      decision = this.tracker.onExit(r.exitCode === 0 && r.signal === 0 && !r.err, now);
    }
    if (decision.kind === 'done') {
      this.setState('dead');
      return false;
    }
    if (decision.kind === 'fail') {
      this.setState('dead', ev.notRestarting(decision.reason));
      return false;
    }
    this.restartAtMs = now + decision.delayNs / 1e6;
    this.setState('pending', ev.restarting(decision.delayNs, decision.reason));
    await this.pause(decision.delayNs / 1e6);
    this.restartAtMs = 0;
    return !this.detached;
  }

  /**
   * The task's environment without templates' variables: as the task sees it (paths inside its root for a
   * chroot driver), or with `hostPaths` as the client sees it, for the paths of templates and artifacts.
   */
  private baseEnv(task: Task, hostPaths = false): Record<string, string> {
    const chroot = this.opts.driver?.fsIsolation === 'chroot';
    const paths =
      chroot && !hostPaths
        ? { allocDir: '/alloc', taskDir: '/local', secretsDir: '/secrets' }
        : { allocDir: this.dirs.shared, taskDir: this.dirs.local, secretsDir: this.dirs.secrets };
    return { ...buildTaskEnv({ alloc: this.alloc, task, node: this.opts.node, paths, hostEnv: chroot ? undefined : process.env }), ...this.token?.env(), ...this.identity?.env() };
  }

  private request(launch: string, task: Task): TaskStartRequest {
    // Variables from `env = true` templates override the task's own, as in Nomad.
    const env = { ...this.baseEnv(task), ...this.templateEnv };
    return {
      allocId: this.alloc.ID,
      taskName: task.Name,
      config: interpolateConfig(task.Config ?? {}, env, this.opts.node),
      env,
      dirs: this.dirs,
      logConfig: task.LogConfig,
      stateDir: path.join(this.stateRoot, launch),
      resources: this.resources(task),
    };
  }

  /** What the scheduler allocated the task (the task's own ask for an allocation placed without it). */
  private resources(task: Task): TaskStartRequest['resources'] {
    const a = this.alloc.AllocatedResources?.Tasks?.[task.Name];
    const r = task.Resources;
    // A task with cores has no `cpu`: its weight is that of the cores it holds, as Nomad computes it.
    const coreMhz = Number(this.opts.node.Attributes['cpu.frequency']) || 1000;
    return {
      cpuShares: a?.Cpu.CpuShares || r.CPU || r.Cores * coreMhz,
      memoryMB: a?.Memory.MemoryMB || r.MemoryMB,
      memoryMaxMB: a?.Memory.MemoryMaxMB ?? r.MemoryMaxMB ?? 0,
      cores: a?.Cpu.ReservedCores ?? [],
      coreCount: r.Cores,
    };
  }

  /**
   * Artifacts, then templates (prestart.ts). Returns the outcome when one of them failed or the task was
   * killed meanwhile; undefined when the task may start.
   */
  private async prestart(): Promise<Outcome | undefined> {
    const task = this.task;
    const templates = JSON.stringify(task.Templates ?? []);
    // Templates render before the first start; at a restart only with render_templates, as in Nomad.
    const render = this.renderedTemplates !== templates || task.RestartPolicy.RenderTemplates;
    if ((task.Artifacts ?? []).length === 0 && !render) return undefined;
    const abort = new AbortController();
    this.prestartAbort = abort;
    const ctx: PrestartContext = {
      task,
      env: this.baseEnv(task),
      pathEnv: this.baseEnv(task, true),
      node: this.opts.node,
      allocDirs: this.opts.allocDirs,
      taskDirs: this.dirs,
      signal: abort.signal,
      emit: (event) => this.emit(event),
      secrets: this.opts.secrets,
      token: () => this.token?.current,
    };
    try {
      await runArtifacts(ctx, this.artifactsDone, () => this.opts.onChange(true));
      if (render) {
        const rendered = await runTemplates(ctx);
        this.templateEnv = rendered.env;
        this.renderedTemplates = templates;
        this.watchTemplates(rendered.templates);
      }
      return undefined;
    } catch (err) {
      // Killed or detached while downloading: the loop sees why and ends; no failure to report.
      if (abort.signal.aborted) return { kind: 'start-failed', err: err as Error };
      if (!(err instanceof TaskHookError)) throw err;
      this.emit(err.event);
      return { kind: 'start-failed', err };
    } finally {
      this.prestartAbort = undefined;
    }
  }

  /** A task found running after the server restarted: its templates are rendered and watched again. */
  private resumeTemplates(): void {
    const task = this.task;
    if ((task.Templates ?? []).length === 0) return;
    const abort = new AbortController();
    const templates = new TaskTemplates({
      templates: task.Templates ?? [],
      env: this.baseEnv(task),
      pathEnv: this.baseEnv(task, true),
      node: this.opts.node,
      allocDirs: this.opts.allocDirs,
      taskDirs: this.dirs,
      secrets: this.opts.secrets,
      token: () => this.token?.current,
      signal: abort.signal,
      emit: (event) => this.emit(event),
    });
    this.renderedTemplates = JSON.stringify(task.Templates ?? []);
    this.newTemplateWatcher(templates).resume(abort);
  }

  /** Applies templates' change_mode when the secrets they read change (template/watch.ts). */
  private watchTemplates(templates: TaskTemplates): void {
    this.newTemplateWatcher(templates).start();
  }

  private newTemplateWatcher(templates: TaskTemplates): TemplateWatcher {
    this.templateWatcher?.stop();
    this.templateWatcher = new TemplateWatcher(templates, {
      restart: (reason) => this.restart({ reason }),
      signal: (signal, reason) => this.signal(signal, reason),
      exec: (command) => this.exec({ task: this.name, command, tty: false }),
      kill: (event) => void this.kill({ event }),
      emit: (event) => this.emit(event),
      setEnv: (env) => (this.templateEnv = env),
    });
    return this.templateWatcher;
  }

  /**
   * The task's token and identity, before anything that may use them (artifacts, templates, the task): a
   * server that does not give them is a failure the restart policy tries again.
   */
  private async prepareToken(): Promise<Outcome | undefined> {
    try {
      await this.token?.prepare();
    } catch (err) {
      return this.prepareFailed(`failed to derive the task's token: ${(err as Error).message}`);
    }
    try {
      await this.identity?.prepare();
    } catch (err) {
      return this.prepareFailed(`failed to sign the task's workload identity: ${(err as Error).message}`);
    }
    return undefined;
  }

  private prepareFailed(message: string): Outcome {
    this.emit(ev.hookFailed(message));
    return { kind: 'start-failed', err: new Error(message) };
  }

  /** The identity was signed again before it expired: its change_mode tells the task, as Nomad's. */
  private async identityRenewed(): Promise<void> {
    const identity = this.task.Identity;
    if (!identity || this.st.State !== 'running' || this.killRequested) return;
    // Nomad's words, which differ between the two.
    const name = identity.Name || 'default';
    try {
      if (identity.ChangeMode === 'restart') await this.restart({ reason: `Identity[${name}]: new token acquired` });
      else if (identity.ChangeMode === 'signal') await this.signal(identity.ChangeSignal, `Identity[${name}]: new Identity token acquired`);
    } catch (err) {
      this.opts.log.warn(`task ${this.name}: applying change_mode ${identity.ChangeMode} for its new identity failed: ${(err as Error).message}`);
    }
  }

  /** A new token replaced one that could not be renewed: the vault block's change_mode tells the task. */
  private async tokenReplaced(): Promise<void> {
    const vault = this.task.Vault;
    if (!vault || this.st.State !== 'running' || this.killRequested) return;
    try {
      if (vault.ChangeMode === 'restart') await this.restart({ reason: TOKEN_CHANGED });
      else if (vault.ChangeMode === 'signal') await this.signal(vault.ChangeSignal, TOKEN_CHANGED);
    } catch (err) {
      this.opts.log.warn(`task ${this.name}: applying change_mode ${vault.ChangeMode} for its new token failed: ${(err as Error).message}`);
    }
  }

  /** Checks a command to run inside the running task, in its environment, working directory and isolation. */
  async exec(req: ExecRequest): Promise<PreparedExec> {
    const handle = this.handle;
    if (!handle || this.st.State !== 'running' || !this.launch) throw new TaskNotRunningError(this.name);
    const driver = this.opts.driver;
    if (!driver) throw new ExecCommandError(`driver "${this.task.Driver}" is not available on this node`);
    const spec = driver.execCommand(this.request(this.launch, this.task), handle, req.command);
    const { startExecSession } = await import('./exec/session.js');
    return {
      start: async (size) => {
        // The task may have ended while the client was connecting: its sessions end with it.
        if (this.handle !== handle) throw new TaskNotRunningError(this.name);
        const session = await startExecSession(spec, { tty: req.tty, size });
        this.sessions.add(session);
        void session.exited.then(() => this.sessions.delete(session));
        return session;
      },
    };
  }

  private endSessions(): void {
    for (const session of this.sessions) session.kill();
  }

  private async startAndWait(): Promise<Outcome> {
    const driver = this.opts.driver;
    // Without a driver there is nothing to prepare for: the start below fails with the reason.
    const failed = driver ? ((await this.prepareToken()) ?? (await this.prestart())) : undefined;
    if (failed) return failed;
    await this.untilRunnable();
    if (this.killRequested || this.detached) return { kind: 'start-failed', err: new Error('killed before start') };
    // The launch is on disk before the process exists, so a crash in between cannot orphan it.
    const launch = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    this.launch = launch;
    this.opts.onChange(true);
    let handle: DriverHandle;
    try {
      if (!driver) throw new DriverStartError(`driver "${this.task.Driver}" is not available on this node`, false);
      handle = await driver.start(this.request(launch, this.task));
    } catch (err) {
      this.endLaunch();
      this.emit(ev.driverFailure((err as Error).message));
      return { kind: 'start-failed', err: err as Error };
    }
    return this.follow(handle, true);
  }

  private async recoverLaunch(): Promise<Outcome> {
    const launch = this.launch!;
    // A task found running again keeps its token, which is renewed from here on.
    await this.prepareToken();
    const handle = this.opts.driver ? await this.opts.driver.recover(this.request(launch, this.task)) : undefined;
    if (handle) {
      this.resumeTemplates();
      return this.follow(handle, this.st.State !== 'running');
    }
    this.endLaunch();
    // Never reported running: the server stopped while starting it, so start it now.
    if (this.st.State !== 'running') return this.startAndWait();
    this.emit(ev.restoreFailed(TASK_LOST_MESSAGE));
    return { kind: 'lost' };
  }

  private async follow(handle: DriverHandle, announce: boolean): Promise<Outcome> {
    if (this.detached) {
      handle.release();
      return { kind: 'detached' };
    }
    this.handle = handle;
    if (announce) this.setState('running', ev.started());
    if (this.killRequested) void this.killHandle();
    else this.pauseIfDue();
    const result = await handle.wait();
    this.handle = undefined;
    this.endSessions();
    if (this.detached) return { kind: 'detached' };
    this.launch = null;
    this.emit(ev.terminated(result), true);
    this.endLaunch();
    return { kind: 'exited', result };
  }

  /** Forgets the launch and removes what the driver kept for it. */
  private endLaunch(): void {
    this.launch = null;
    rmSync(this.stateRoot, { recursive: true, force: true });
  }
}
