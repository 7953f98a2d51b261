/**
 * The node agent: keeps the node registered and alive, learns what to run through a blocking query on
 * the node API, runs one alloc runner per allocation, and reports task states back in batches. It talks
 * to the server only over HTTP, as a node on another machine would. A node on another machine also keeps
 * a tunnel open to its server, through which the server reaches its allocations (signal, exec, files).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ClientTls } from '../api/http/tls.js';
import type { Logger } from '../shared/log.js';
import { ApiError, NotFound } from '../shared/errors.js';
import type { LocalNodeControl } from '../scheduler/wire/node-control.js';
import { clientTerminal } from '../scheduler/structs/allocation.js';
import type { Node } from '../scheduler/structs/node.js';
import { createAllocRunner, restoreAllocRunner } from './alloc-runner.js';
import type { AllocClientUpdate, AllocRunnerHandle, ClientAlloc } from './types.js';
import type { ExecRequest, PreparedExec } from '../scheduler/wire/exec.js';
import type { PauseRequest, ScheduleState } from '../scheduler/wire/schedule-state.js';
import type { AllocCheckResults } from '../scheduler/wire/check-result.js';
import { allocDirs } from './task-dir.js';
import type { TaskTokenSource } from './task-token.js';
import type { IdentitySource } from './task-identity.js';
import { oneLine, ServerPool } from './server-pool.js';
import { poolSecretSource, type SecretSource } from './template/secrets.js';
import type { AllocFs } from '../scheduler/wire/alloc-fs.js';
import { localAllocFs } from './fs/local-alloc-fs.js';
import type { TunnelClient } from './tunnel/tunnel-client.js';
import type { AllocResourceUsage, HostStats } from '../scheduler/wire/resource-usage.js';
import { AllocStats } from './stats/alloc-stats.js';
import { HostStatsReader } from './stats/host-stats.js';
import { procTreeSource } from './stats/proc-tree.js';
import { cgroupSource } from './stats/usage.js';

export interface NodeAgentOptions {
  node: Node;
  secret: string;
  /** http(s)://host:port of each server the node may talk to: the first that answers, then the next on failure */
  servers: string[];
  serverTls?: ClientTls;
  /**
   * A token the server accepts node registrations with (management), for a node the server does not know
   * yet. Sent only when the node's own secret is refused: once it has joined, the secret is enough.
   */
  joinToken?: string;
  /**
   * Called when a server refuses the registration (a 4xx answer, which retrying will not change), and the
   * node then stops trying. Without it, the refusal is logged and the registration retried.
   */
  onRefused?: (err: NodeRegistrationRefused) => void;
  /** where allocation directories live */
  allocsDir: string;
  log: Logger;
  /** stop every task when the agent stops (dev mode, tests); otherwise tasks outlive the server */
  stopTasksOnShutdown: boolean;
  /**
   * Keep a tunnel open to the server, through which it reaches the node's allocations: a node on another
   * machine. The server's own node needs none; the server calls it in process.
   */
  tunnel?: boolean;
  /** how often the secrets that running tasks' templates read are read again (ms); 5 s by default */
  templatePollMs?: number;
}

/** How long status reports are gathered before one request carries them all. */
const REPORT_BATCH_MS = 100;
/** A blocking query's wait; short enough that shutdown is prompt, long enough to be cheap. */
const PULL_WAIT = '30s';
/** The pull's deadline: its wait, and time for the answer. */
const PULL_DEADLINE_MS = 45_000;
const RETRY_MS = 1000;
/** Where a template's secrets cannot all be watched by blocking reads: bounds how late it sees a change, at one read per secret per interval. */
const DEFAULT_TEMPLATE_POLL_MS = 5000;

/** A server's refusal of the node's registration: the answer's status and what it said. */
export class NodeRegistrationRefused extends Error {
  constructor(
    readonly nodeId: string,
    readonly statusCode: number,
    readonly reason: string,
    /** whether the join token was sent too, after the node's secret was refused */
    readonly withToken: boolean,
  ) {
    super(`the server refused to register node ${nodeId} (${statusCode}): ${reason}`);
  }
}

interface PullAnswer {
  Allocs: Record<string, number>;
  Changed: ClientAlloc[];
  Index: number;
}

export class NodeAgent implements LocalNodeControl {
  private readonly api: ServerPool;
  private readonly secrets: SecretSource;
  private tunnel: TunnelClient | undefined;
  private readonly runners = new Map<string, AllocRunnerHandle>();
  private readonly pendingReports = new Map<string, AllocClientUpdate>();
  private reportTimer: NodeJS.Timeout | undefined;
  private reporting: Promise<void> = Promise.resolve();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private pullDone: Promise<void> | undefined;
  /**
   * Ends the pull's blocking query and a registration in flight at once on stop, instead of waiting for
   * a server to answer them (one that accepted the connection may never answer).
   */
  private readonly stopping = new AbortController();
  private readonly stats: AllocStats;
  private readonly host: HostStatsReader;
  private leaving = false;
  private left!: () => void;
  private readonly tasksLeft = new Promise<void>((resolve) => (this.left = resolve));
  /** how long a heartbeat may be late, as the server last answered (ms) */
  private heartbeatTtlMs = 10_000;

  constructor(private readonly opts: NodeAgentOptions) {
    this.api = new ServerPool(opts.servers, opts.serverTls, opts.log);
    this.secrets = poolSecretSource(this.api, opts.templatePollMs ?? DEFAULT_TEMPLATE_POLL_MS);
    const mhzPerCore = Number(opts.node.Attributes['cpu.frequency']) || 0;
    this.stats = new AllocStats(mhzPerCore);
    this.host = new HostStatsReader(opts.allocsDir, mhzPerCore);
  }

  get nodeId(): string {
    return this.opts.node.ID;
  }

  /** The node as it registered: name, datacenter, drivers and why any of them is unavailable. */
  get node(): Node {
    return this.opts.node;
  }

  /**
   * Registers the node, then heartbeats and pulls allocations. Resolves after the first registration
   * attempt: a server that refuses it (or is not answering yet) gets retried in the background, so the
   * node never holds up the server's start.
   */
  async start(): Promise<void> {
    const registered = await this.register();
    this.pullDone = registered ? this.work() : this.registerThenWork();
  }

  private async register(): Promise<boolean> {
    const { joinToken } = this.opts;
    const send = (token: string) =>
      this.api.scheduler<{ HeartbeatTTL: number }>('PUT', '/v1/node/register', token, { body: { Node: this.opts.node, SecretID: this.opts.secret }, signal: this.stopping.signal });
    let withToken = false;
    try {
      let answer;
      try {
        answer = await send(this.opts.secret);
      } catch (err) {
        // A node the server does not know yet: its secret is no credential there until a token vouches for it.
        if (!(err instanceof ApiError && err.statusCode === 403 && joinToken)) throw err;
        withToken = true;
        answer = await send(joinToken);
      }
      this.heartbeatTtlMs = answer.body.HeartbeatTTL / 1_000_000;
      return true;
    } catch (err) {
      if (this.stopped) return false;
      if (err instanceof ApiError && err.statusCode < 500 && this.opts.onRefused) {
        this.stopped = true;
        this.opts.onRefused(new NodeRegistrationRefused(this.nodeId, err.statusCode, err.errors.join('; '), withToken));
        return false;
      }
      this.opts.log.warn(`registering node ${this.nodeId} failed: ${oneLine(err)}; retrying`);
      return false;
    }
  }

  private async registerThenWork(): Promise<void> {
    while (!this.stopped) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      if (!this.stopped && (await this.register())) return this.work();
    }
  }

  private async work(): Promise<void> {
    this.scheduleHeartbeat();
    if (this.opts.tunnel) await this.openTunnel();
    return this.pullLoop();
  }

  private async openTunnel(): Promise<void> {
    const [{ TunnelClient }, { createNodeHandler }] = await Promise.all([import('./tunnel/tunnel-client.js'), import('./tunnel/node-handler.js')]);
    if (this.stopped) return;
    const log = this.opts.log.named('tunnel');
    this.tunnel = new TunnelClient({ pool: this.api, nodeId: this.nodeId, secret: this.opts.secret, handler: createNodeHandler(this, log), log });
    this.tunnel.start();
  }

  async signal(allocId: string, signal: string, task?: string): Promise<void> {
    await this.runner(allocId).signal(signal, task);
  }

  async restart(allocId: string, opts: { task?: string; allTasks?: boolean }): Promise<void> {
    await this.runner(allocId).restart(opts);
  }

  allocDir(allocId: string): string | undefined {
    const dir = allocDirs(this.opts.allocsDir, allocId).root;
    return existsSync(dir) ? dir : undefined;
  }

  files(allocId: string): AllocFs {
    return localAllocFs(() => {
      const dir = this.allocDir(allocId);
      if (!dir) throw new NotFound(`allocation ${allocId} has no directory on node ${this.nodeId}: the node has not run it yet, or has removed it`);
      return dir;
    });
  }

  exec(allocId: string, req: ExecRequest): Promise<PreparedExec> {
    return this.runner(allocId).exec(req);
  }

  async pauseState(allocId: string, task: string): Promise<ScheduleState> {
    return this.runner(allocId).pauseState(task);
  }

  async setPauseState(allocId: string, task: string, state: PauseRequest): Promise<void> {
    this.runner(allocId).setPauseState(task, state);
  }

  /** The usage of the allocation's running tasks, from each task's cgroup or else its process tree. */
  async allocStats(allocId: string): Promise<AllocResourceUsage> {
    const sources = Object.fromEntries(Object.entries(this.runner(allocId).liveTasks()).map(([name, task]) => [name, task.cgroup ? cgroupSource(task.cgroup) : procTreeSource(task.pid)]));
    this.stats.prune(new Set(this.runners.keys()));
    return this.stats.read(allocId, sources);
  }

  async hostStats(): Promise<HostStats> {
    await mkdir(this.opts.allocsDir, { recursive: true });
    return this.host.read();
  }

  /** An allocation this node no longer runs has no check results. */
  async checks(allocId: string): Promise<AllocCheckResults> {
    return this.runners.get(allocId)?.checks() ?? {};
  }

  /** What stop() will wait for: the running tasks it stops (none when they outlive the node), and for how long at most. */
  tasksToStop(): { tasks: number; withinMs: number } {
    let tasks = 0;
    let withinMs = 0;
    if (!this.opts.stopTasksOnShutdown || this.leaving) return { tasks, withinMs };
    for (const runner of this.runners.values()) {
      for (const task of Object.values(runner.liveTasks())) {
        tasks++;
        withinMs = Math.max(withinMs, task.stopWithinMs);
      }
    }
    return { tasks, withinMs };
  }

  /**
   * Lets go of every task, also while stop() is stopping them: they keep running for the next start on
   * this data directory to reattach, and stop() no longer waits. Answers how many were running.
   */
  leaveTasks(): number {
    const running = [...this.runners.values()].reduce((n, runner) => n + Object.keys(runner.liveTasks()).length, 0);
    this.leaving = true;
    for (const runner of this.runners.values()) runner.detach();
    this.left();
    return running;
  }

  /**
   * Stops pulling and heartbeating. The server must already be answering blocking queries at once
   * (Services.stopping), or the pull in flight would hold this up for its whole wait.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.heartbeatTimer);
    this.stopping.abort();
    this.tunnel?.stop();
    await this.pullDone;
    // A detached runner's shutdown never settles: leaveTasks() ends the wait instead.
    if (this.opts.stopTasksOnShutdown && !this.leaving) await Promise.race([Promise.all([...this.runners.values()].map((r) => r.shutdown())), this.tasksLeft]);
    else for (const runner of this.runners.values()) runner.detach();
    clearTimeout(this.reportTimer);
    await this.flushReports();
  }

  private runner(allocId: string): AllocRunnerHandle {
    const runner = this.runners.get(allocId);
    if (!runner) throw new NotFound(`allocation ${allocId} is not running on node ${this.nodeId}`);
    return runner;
  }

  private scheduleHeartbeat(): void {
    // Beat at half the TTL, so one lost request does not mark the node down.
    this.heartbeatTimer = setTimeout(() => void this.heartbeat(), Math.max(100, this.heartbeatTtlMs / 2));
    this.heartbeatTimer.unref();
  }

  private async heartbeat(): Promise<void> {
    if (this.stopped) return;
    try {
      const { body } = await this.api.scheduler<{ HeartbeatTTL: number }>('PUT', `/v1/node/${this.nodeId}/heartbeat`, this.opts.secret);
      this.heartbeatTtlMs = body.HeartbeatTTL / 1_000_000;
    } catch (err) {
      if (!this.stopped) this.opts.log.warn(`heartbeat failed: ${oneLine(err)}`);
    }
    if (!this.stopped) this.scheduleHeartbeat();
  }

  private async pullLoop(): Promise<void> {
    let index = 0;
    let since = 0;
    while (!this.stopped) {
      try {
        const { body } = await this.api.scheduler<PullAnswer>('GET', `/v1/node/${this.nodeId}/client-allocations`, this.opts.secret, {
          query: { index, since, wait: PULL_WAIT },
          signal: this.stopping.signal,
          deadlineMs: PULL_DEADLINE_MS,
        });
        if (this.stopped) return;
        for (const alloc of body.Changed) {
          this.apply(alloc);
          since = Math.max(since, alloc.AllocModifyIndex);
        }
        for (const [id, runner] of this.runners) {
          if (body.Allocs[id] === undefined) this.forget(id, runner);
        }
        index = body.Index;
      } catch (err) {
        if (this.stopped) return;
        this.opts.log.warn(`pulling allocations failed: ${oneLine(err)}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /**
   * The server no longer has the allocation (garbage collected, or its job purged): whatever still runs
   * stops, and its directory (logs included) goes, as a Nomad client collects it.
   */
  private forget(id: string, runner: AllocRunnerHandle): void {
    this.runners.delete(id);
    void runner
      .shutdown()
      .then(() => rm(allocDirs(this.opts.allocsDir, id).root, { recursive: true, force: true }))
      .catch((err: Error) => this.opts.log.error(`alloc ${id}: removing its directory failed: ${err.message}`));
  }

  /** Tasks' tokens: made by the server for this node's allocations, renewed by each with itself. */
  private get tokens(): TaskTokenSource {
    return {
      address: this.opts.servers[0] ?? '',
      derive: async (allocId, task) => {
        const route = `/v1/node/${this.opts.node.ID}/derive-token`;
        const { body } = await this.api.scheduler<{ Tasks: Record<string, string>; LeaseDurations: Record<string, number> }>('POST', route, this.opts.secret, {
          body: { AllocID: allocId, Tasks: [task] },
        });
        return { token: body.Tasks[task], leaseSeconds: body.LeaseDurations[task] };
      },
      renew: async (token) => {
        const answer = await this.api.secrets('PUT', 'auth/token/renew-self', token, { body: {} });
        return Number(answer?.auth?.lease_duration ?? 0);
      },
    };
  }

  /** Tasks' workload identities: signed by the server for this node's allocations as their tasks start. */
  private get identities(): IdentitySource {
    return {
      sign: async (allocId, task) => {
        const route = `/v1/node/${this.opts.node.ID}/sign-identities`;
        const { body } = await this.api.scheduler<{ Tasks: Record<string, string>; Expirations: Record<string, number> }>('POST', route, this.opts.secret, {
          body: { AllocID: allocId, Tasks: [task] },
        });
        return { jwt: body.Tasks[task], expiresAt: body.Expirations[task] ?? 0 };
      },
    };
  }

  /** A new or changed allocation: start it, restore it after a restart, or pass the change on. */
  private apply(alloc: ClientAlloc): void {
    const existing = this.runners.get(alloc.ID);
    if (existing) {
      existing.update(alloc);
      return;
    }
    const runnerOpts = {
      alloc,
      node: this.opts.node,
      allocsDir: this.opts.allocsDir,
      log: this.opts.log.named(`alloc.${alloc.ID.slice(0, 8)}`),
      onUpdate: (u: AllocClientUpdate) => this.report(u),
      tokens: this.tokens,
      identities: this.identities,
      secrets: this.secrets,
    };
    const hasState = existsSync(path.join(this.opts.allocsDir, alloc.ID));
    if (alloc.DesiredStatus !== 'run' || clientTerminal(alloc.ClientStatus)) {
      // Stopped before this node ran it, or finished before a restart: a runner restored from disk stops
      // whatever is left; one that never ran only reports that it will not.
      if (hasState && !clientTerminal(alloc.ClientStatus)) {
        const runner = restoreAllocRunner(runnerOpts);
        this.runners.set(alloc.ID, runner);
        runner.update(alloc);
      } else if (alloc.ClientStatus === 'pending') {
        this.report({ ID: alloc.ID, ClientStatus: 'complete', ClientDescription: 'alloc was stopped before it ran', TaskStates: alloc.TaskStates ?? {} });
      }
      return;
    }
    const runner = hasState ? restoreAllocRunner(runnerOpts) : createAllocRunner(runnerOpts);
    this.runners.set(alloc.ID, runner);
  }

  private report(update: AllocClientUpdate): void {
    this.pendingReports.set(update.ID, update);
    this.reportTimer ??= setTimeout(() => {
      this.reportTimer = undefined;
      void this.flushReports();
    }, REPORT_BATCH_MS);
  }

  private flushReports(): Promise<void> {
    // One report in flight at a time, so a later state never overtakes an earlier one.
    this.reporting = this.reporting.then(async () => {
      if (this.pendingReports.size === 0) return;
      const batch = [...this.pendingReports.values()];
      this.pendingReports.clear();
      try {
        await this.api.scheduler('POST', `/v1/node/${this.nodeId}/client-allocations`, this.opts.secret, { body: { Allocs: batch } });
      } catch (err) {
        // Put back what was not superseded meanwhile, and try again shortly.
        for (const u of batch) if (!this.pendingReports.has(u.ID)) this.pendingReports.set(u.ID, u);
        if (!this.stopped) {
          this.opts.log.warn(`reporting allocation status failed: ${oneLine(err)}; retrying`);
          this.reportTimer ??= setTimeout(() => {
            this.reportTimer = undefined;
            void this.flushReports();
          }, RETRY_MS);
        }
      }
    });
    return this.reporting;
  }
}
