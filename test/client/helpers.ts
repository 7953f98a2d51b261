/** Allocations, nodes and waiting, for the node-side tests. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAllocRunner, type AllocRunner, type AllocRunnerConfig } from '../../src/client/alloc-runner.js';
import { fingerprintNode } from '../../src/client/fingerprint.js';
import type { AllocClientUpdate, ClientAlloc } from '../../src/client/types.js';
import { type AllocatedPortMapping, zeroAllocation } from '../../src/scheduler/structs/allocation.js';
import { canonicalizeJob } from '../../src/scheduler/structs/index.js';
import type { Node } from '../../src/scheduler/structs/node.js';
import { createLogger } from '../../src/shared/log.js';

export const MS = 1_000_000;
export const SEC = 1000 * MS;

const started: AllocRunner[] = [];

/**
 * A temp dir for a test file. Its cleanup first stops every runner the file started, so that a test
 * failing half-way leaves no task processes behind.
 */
export function tempDir(prefix = 'svc-client-'): { dir: string; cleanup(): Promise<void> } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    cleanup: async () => {
      await Promise.all(started.splice(0).map((r) => r.shutdown({ noShutdownDelay: true })));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Registers a runner for the cleanup above (runners made without startRunner). */
export function track<T extends AllocRunner>(runner: T): T {
  started.push(runner);
  return runner;
}

let node: Promise<Node> | undefined;
/** One fingerprinted node (with the mock driver) for the whole file. */
export function testNode(): Promise<Node> {
  node ??= (async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-node-'));
    const { node } = await fingerprintNode({ datacenter: 'dc1', nodeClass: 'test', meta: { rack: 'r1' }, dataDir, httpAddr: '127.0.0.1:4646', enableMockDriver: true });
    rmSync(dataDir, { recursive: true, force: true });
    return node;
  })();
  return node;
}

/** A group of tasks as API JSON, canonicalized like a registered job. */
export function makeAlloc(opts: { type?: string; tasks: Record<string, unknown>[]; group?: Record<string, unknown>; job?: Record<string, unknown>; ports?: AllocatedPortMapping[] }): ClientAlloc {
  const job = canonicalizeJob({
    ID: `job-${randomUUID().slice(0, 6)}`,
    Type: opts.type ?? 'batch',
    ...opts.job,
    TaskGroups: [{ Name: 'g', RestartPolicy: { Attempts: 0, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' }, ...opts.group, Tasks: opts.tasks }],
  });
  const id = randomUUID();
  return {
    ...zeroAllocation(),
    ID: id,
    Namespace: 'default',
    EvalID: randomUUID(),
    Name: `${job.ID}.g[2]`,
    JobID: job.ID,
    JobModifyIndex: 1,
    TaskGroup: 'g',
    AllocatedResources: {
      Tasks: {},
      TaskLifecycles: {},
      Shared: { DiskMB: 300, Networks: null, Ports: opts.ports ?? null },
    },
    CreateIndex: 1,
    ModifyIndex: 1,
    AllocModifyIndex: 1,
    CreateTime: Date.now() * MS,
    ModifyTime: Date.now() * MS,
    Job: job,
  };
}

export const quietLog = createLogger('error', () => {});

export interface Harness {
  runner: AllocRunner;
  updates: AllocClientUpdate[];
  allocsDir: string;
  alloc: ClientAlloc;
}

export async function startRunner(alloc: ClientAlloc, allocsDir: string, extra: Partial<AllocRunnerConfig> = {}): Promise<Harness> {
  const updates: AllocClientUpdate[] = [];
  const runner = track(createAllocRunner({ alloc, node: await testNode(), allocsDir, log: quietLog, onUpdate: (u) => updates.push(u), ...extra }));
  return { runner, updates, allocsDir, alloc };
}

/** Polls until `check` returns true (or a value), failing with `what` after `timeoutMs`. */
export async function waitFor<T>(check: () => T | false | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function events(runner: AllocRunner, task: string): string[] {
  return runner.state().TaskStates[task].Events.map((e) => e.Type);
}

export function lastEvent(runner: AllocRunner, task: string, type: string) {
  return runner.state().TaskStates[task].Events.filter((e) => e.Type === type).at(-1);
}

export function taskState(runner: AllocRunner, task: string) {
  return runner.state().TaskStates[task];
}

/** Waits until every task is dead. */
export function allDead(runner: AllocRunner, timeoutMs?: number) {
  return waitFor(() => Object.values(runner.state().TaskStates).every((s) => s.State === 'dead'), 'all tasks dead', timeoutMs);
}

export function rawTask(name: string, script: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { Name: name, Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', script] }, KillTimeout: 2 * SEC, ...extra };
}
