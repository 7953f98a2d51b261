/**
 * The service checks of one allocation on this node, and their latest results (kept in memory only: a
 * restarted node starts its checks over, as Nomad's does). A task service's check runs while its task
 * runs (and is not paused by its schedule) and starts over, results and check_restart grace included,
 * each time the task (re)starts; a group service's check runs while the allocation does. Until a check's
 * first run its result is a stub: its initial_status, else "pending". An allocation that is finished,
 * stopping or let go has no results.
 */
import { clientStatusFromTasks, clientTerminal, type TaskState } from '../../scheduler/structs/allocation.js';
import type { AllocCheckResults, CheckMode, CheckQueryResult } from '../../scheduler/wire/check-result.js';
import type { ServiceCheck } from '../../scheduler/structs/service.js';
import type { ClientAlloc } from '../types.js';
import { stopsTask } from '../../scheduler/wire/schedule-state.js';
import { type CheckSpec, checkSpecs } from './check-specs.js';
import { CheckObserver, type ObserverDeps } from './observer.js';
import type { CheckOutcome } from './outcome.js';

export interface AllocChecksDeps extends ObserverDeps {
  /** a check's status changed: the allocation's deployment health may follow */
  onStatusChange(): void;
}

const WAITING = 'nomad: waiting to run';

function checkMode(check: ServiceCheck): CheckMode {
  return check.OnUpdate === 'ignore' ? 'readiness' : 'healthiness';
}

/** A task whose pause schedule holds it stopped has no process to check, though its state says running. */
const runs = (s: TaskState | undefined): s is TaskState => s?.State === 'running' && !stopsTask(s.Paused);

function resultOf(alloc: ClientAlloc, spec: CheckSpec, outcome: Pick<CheckOutcome, 'Output' | 'StatusCode'> & { Status: CheckQueryResult['Status'] }): CheckQueryResult {
  return {
    ID: spec.id,
    Mode: checkMode(spec.check),
    Status: outcome.Status,
    StatusCode: outcome.StatusCode || undefined,
    Output: outcome.Output,
    Timestamp: Math.floor(Date.now() / 1000),
    Group: alloc.Name,
    Task: spec.service.TaskName || undefined,
    Service: spec.service.Name,
    Check: spec.check.Name,
  };
}

/** Consul's initial_status in Nomad's terms: passing is success, warning and critical are failures. */
function stub(alloc: ClientAlloc, spec: CheckSpec): CheckQueryResult {
  const initial = spec.check.InitialStatus;
  const status = initial === 'passing' ? 'success' : initial === 'warning' || initial === 'critical' ? 'failure' : 'pending';
  return resultOf(alloc, spec, { Status: status, Output: WAITING });
}

export class AllocChecks {
  private specs: CheckSpec[] = [];
  private readonly results = new Map<string, CheckQueryResult>();
  private readonly observers = new Map<string, CheckObserver>();
  private stopped = false;

  constructor(private readonly deps: AllocChecksDeps) {}

  /** Brings the running checks in line with the allocation (a new job version may change them) and its tasks. */
  sync(alloc: ClientAlloc, states: Record<string, TaskState>): void {
    if (this.stopped) return;
    const status = clientStatusFromTasks(states).status;
    if (alloc.DesiredStatus !== 'run' || clientTerminal(status)) return this.purge();
    this.specs = checkSpecs(alloc);
    const wanted = new Set(this.specs.map((s) => s.id));
    for (const [id, observer] of this.observers) {
      if (wanted.has(id)) continue;
      observer.stop();
      this.observers.delete(id);
    }
    for (const id of this.results.keys()) if (!wanted.has(id)) this.results.delete(id);
    for (const spec of this.specs) {
      const task = states[spec.task];
      const runKey = spec.task ? (runs(task) ? task.StartedAt : undefined) : status === 'running' ? 'allocation' : undefined;
      const current = this.observers.get(spec.id);
      if (current && current.runKey === runKey) continue;
      if (current) {
        current.stop();
        this.observers.delete(spec.id);
      }
      if (current || !this.results.has(spec.id)) this.results.set(spec.id, stub(alloc, spec));
      if (runKey === undefined) continue;
      const observer = new CheckObserver(spec, alloc, runKey, this.deps, (outcome) => this.record(alloc, spec, observer, outcome));
      this.observers.set(spec.id, observer);
      observer.start();
    }
  }

  /** Whether every healthiness check passes; readiness checks never hold a deployment back. */
  passing(): boolean {
    return this.specs.every((s) => checkMode(s.check) === 'readiness' || this.results.get(s.id)?.Status === 'success');
  }

  /** The latest result of each check, by check ID. */
  current(): AllocCheckResults {
    return Object.fromEntries([...this.results].map(([id, r]) => [id, { ...r }]));
  }

  /** Stops every check for good: the allocation is shutting down or let go. */
  stop(): void {
    this.stopped = true;
    this.purge();
  }

  private purge(): void {
    for (const observer of this.observers.values()) observer.stop();
    this.observers.clear();
    this.results.clear();
    this.specs = [];
  }

  private record(alloc: ClientAlloc, spec: CheckSpec, observer: CheckObserver, outcome: CheckOutcome): void {
    if (this.observers.get(spec.id) !== observer) return;
    const before = this.results.get(spec.id)?.Status;
    this.results.set(spec.id, resultOf(alloc, spec, outcome));
    if (before !== outcome.Status) this.deps.onStatusChange();
  }
}
