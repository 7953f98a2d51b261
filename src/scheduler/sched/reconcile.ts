/**
 * What a service or batch job's groups need, given the allocations they have (Nomad's allocReconciler).
 * Pure: the caller reads the state and the clock, this decides which allocations to place (canaries
 * among them), stop, update in place or destructively, and which to reschedule now or later.
 */
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { TaskGroup } from '../structs/task-group.js';
import { ALLOC_LOST, ALLOC_MIGRATING, ALLOC_NOT_NEEDED } from './descriptions.js';
import { canaryNames, type CanaryInput } from './canaries.js';
import { allocIndex, NameIndex } from './names.js';
import { rescheduleDecision } from './reschedule.js';
import { tasksUpdated } from './tasks-updated.js';
import type { DesiredUpdates } from './types.js';

/** Failed allocations due within this window of each other share one follow-up evaluation. */
const RESCHEDULE_BATCH_WINDOW_NS = 5_000_000_000;

export interface ReconcileInput {
  jobId: string;
  /** null once purged; a stopped job keeps nothing running either */
  job: Job | null;
  /** every allocation of the job ID */
  allocs: Allocation[];
  /** nodes that are down, disconnected or gone: their live allocations are lost */
  lostNodes: ReadonlySet<string>;
  /** the job versions allocations run, by JobModifyIndex; an unknown one makes the update destructive */
  priorJobs: ReadonlyMap<number, Job>;
  /** live allocations whose node no longer takes the new version (datacenter, pool, driver, constraint) */
  inPlaceRefused: ReadonlySet<string>;
  /**
   * Groups rolling out under a deployment, with how many destructive updates this evaluation may make:
   * max_parallel less the allocations still proving healthy. The deployment's progress triggers the next
   * evaluation, so these groups need no stagger follow-up.
   */
  deploymentBudget?: ReadonlyMap<string, number>;
  /** groups that ask for canaries, and canaries of earlier deployments to stop (see canaries.ts) */
  canaries?: CanaryInput;
  evalId: string;
  /** Unix nanoseconds */
  now: number;
}

/** new: a missing index; canary: a new version's trial beside the old ones; the others replace `previous`. */
export type PlaceKind = 'new' | 'canary' | 'lost' | 'reschedule' | 'migrate' | 'destructive';

export interface Placement {
  group: string;
  name: string;
  kind: PlaceKind;
  previous: Allocation | null;
}

export interface Stop {
  alloc: Allocation;
  description: string;
  /** the allocation's node is gone: its client status becomes lost too */
  lost: boolean;
}

export interface DelayedReschedule {
  group: string;
  /** when the follow-up evaluation runs, Unix nanoseconds */
  at: number;
  allocIds: string[];
}

export interface Reconciliation {
  /** destructive updates first in each group, as Nomad places them */
  place: Placement[];
  stop: Stop[];
  inPlace: Allocation[];
  delayed: DelayedReschedule[];
  /** groups whose destructive updates beyond max_parallel wait for a follow-up evaluation */
  rolling: string[];
  desired: Record<string, DesiredUpdates>;
}

export function emptyDesiredUpdates(): DesiredUpdates {
  return { Ignore: 0, Place: 0, Migrate: 0, Stop: 0, InPlaceUpdate: 0, DestructiveUpdate: 0, Canary: 0, Preemptions: 0, RescheduleNow: 0, RescheduleLater: 0 };
}

/** How many destructive updates one evaluation may make in the group (rolling updates). */
export function rollingLimit(job: Job, group: TaskGroup, wanted: number): number {
  const parallel = group.Update?.MaxParallel ?? 0;
  const rolls = job.Type === 'service' || job.Type === 'system';
  return rolls && parallel > 0 ? Math.min(parallel, wanted) : wanted;
}

export function reconcile(input: ReconcileInput): Reconciliation {
  const out: Reconciliation = { place: [], stop: [], inPlace: [], delayed: [], rolling: [], desired: {} };
  const job = input.job && !input.job.Stop ? input.job : null;
  const byGroup = new Map<string, Allocation[]>();
  for (const g of job?.TaskGroups ?? []) byGroup.set(g.Name, []);
  for (const a of input.allocs) {
    if (a.JobID !== input.jobId) continue;
    const list = byGroup.get(a.TaskGroup) ?? [];
    list.push(a);
    byGroup.set(a.TaskGroup, list);
  }
  for (const [name, allocs] of byGroup) {
    const group = job?.TaskGroups.find((g) => g.Name === name);
    out.desired[name] = job && group ? reconcileGroup(input, job, group, allocs, out) : stopAll(input, allocs, out);
  }
  return out;
}

function stopAll(input: ReconcileInput, allocs: Allocation[], out: Reconciliation): DesiredUpdates {
  const d = emptyDesiredUpdates();
  for (const a of allocs) {
    if (allocTerminal(a)) continue;
    const lost = input.lostNodes.has(a.NodeID);
    out.stop.push({ alloc: a, description: lost ? ALLOC_LOST : ALLOC_NOT_NEEDED, lost });
    d.Stop++;
  }
  return d;
}

/** What a terminal allocation means for the count: done (counts), failed (may reschedule), or nothing. */
function terminalRole(a: Allocation, batch: boolean): 'counts' | 'failed' | 'ignore' {
  if (batch) {
    // A batch allocation that finished its work is done for good, even once told to stop.
    if (a.DesiredStatus === 'stop') return ranSuccessfully(a) ? 'counts' : 'ignore';
    if (a.DesiredStatus === 'evict') return 'ignore';
    return a.ClientStatus === 'failed' ? 'failed' : 'counts';
  }
  if (a.DesiredStatus !== 'run') return 'ignore';
  return a.ClientStatus === 'failed' ? 'failed' : 'ignore';
}

function ranSuccessfully(a: Allocation): boolean {
  if (a.ClientStatus === 'complete') return true;
  const states = Object.values(a.TaskStates ?? {});
  return states.length > 0 && states.every((s) => s.State === 'dead' && !s.Failed);
}

function byIndex(a: Allocation, b: Allocation): number {
  return allocIndex(a.Name) - allocIndex(b.Name);
}

/** The group's allocations sorted by what happens to them, as Nomad's reconciler sorts them. */
interface GroupSets {
  /** counted toward the count and kept (running, done, or failed without a replacement yet) */
  untainted: Allocation[];
  lost: Allocation[];
  migrate: Allocation[];
  rescheduleNow: Allocation[];
  later: { alloc: Allocation; at: number }[];
}

/** One group's decisions, appended to `out`; each step works on what the previous one left. */
function reconcileGroup(input: ReconcileInput, job: Job, group: TaskGroup, allocs: Allocation[], out: Reconciliation): DesiredUpdates {
  const d = emptyDesiredUpdates();
  const stop = (a: Allocation, description: string, lost = false) => {
    out.stop.push({ alloc: a, description, lost });
    d.Stop++;
  };
  const sets = classify(input, job, group, allocs, stop);
  out.delayed.push(...batchDelayed(group.Name, sets.later));
  d.RescheduleLater = sets.later.length;
  const canary = input.canaries?.groups.get(group.Name);
  // A failed canary stays among them: it fails the deployment, and never holds a place in the count.
  const canaries = canary ? sets.untainted.filter((a) => canary.placed.has(a.ID)) : [];
  if (canary && !canary.promoted) {
    // Canaries on trial are beside the count: they neither fill it nor make it overflow.
    sets.untainted = sets.untainted.filter((a) => !canaries.includes(a));
    d.Ignore += canaries.length;
  } else if (canary) {
    // Promoted canaries took over the indexes of the allocations they were to replace.
    const taken = new Set(canaries.map((a) => a.Name));
    sets.untainted = sets.untainted.filter((a) => {
      if (canaries.includes(a) || allocTerminal(a) || !taken.has(a.Name)) return true;
      stop(a, ALLOC_NOT_NEEDED);
      return false;
    });
  }
  const names = new NameIndex(job.ID, group.Name, group.Count, [...sets.untainted, ...sets.migrate, ...sets.rescheduleNow, ...sets.lost].map((a) => a.Name));
  for (const a of sets.lost) stop(a, ALLOC_LOST, true);
  stopSurplus(job, group, sets, names, stop);
  const canarying = planUpdates(input, job, group, sets.untainted, canaries, out, d);
  planPlacements(group, sets, names, canarying, out, d);
  return d;
}

function classify(input: ReconcileInput, job: Job, group: TaskGroup, allocs: Allocation[], stop: (a: Allocation, why: string) => void): GroupSets {
  const sets: GroupSets = { untainted: [], lost: [], migrate: [], rescheduleNow: [], later: [] };
  for (const a of allocs) {
    if (input.canaries?.stale.has(a.ID)) {
      // A failed canary is told to stop too, so nothing of its deployment is left wanting to run.
      if (a.DesiredStatus === 'run') stop(a, ALLOC_NOT_NEEDED);
      continue;
    }
    // Allocations of an earlier job registered under the same ID (purged, then run again).
    if (job.CreateIndex > 0 && a.JobModifyIndex < job.CreateIndex) {
      if (!allocTerminal(a)) stop(a, ALLOC_NOT_NEEDED);
      continue;
    }
    if (!allocTerminal(a)) {
      if (input.lostNodes.has(a.NodeID)) sets.lost.push(a);
      else if (a.DesiredTransition?.Migrate) sets.migrate.push(a);
      else sets.untainted.push(a);
      continue;
    }
    if (a.NextAllocation) continue;
    const role = terminalRole(a, job.Type === 'batch');
    if (role === 'counts') sets.untainted.push(a);
    if (role !== 'failed') continue;
    const decision = rescheduleDecision(a, group.ReschedulePolicy, input.now, input.evalId);
    if (decision.kind === 'now') {
      sets.rescheduleNow.push(a);
      continue;
    }
    // A failed allocation holds its place in the count until it is replaced.
    sets.untainted.push(a);
    if (decision.kind === 'later') sets.later.push({ alloc: a, at: decision.at });
  }
  return sets;
}

/** Above the count: stop migrating allocations first, then the live ones with the highest indexes. */
function stopSurplus(job: Job, group: TaskGroup, sets: GroupSets, names: NameIndex, stop: (a: Allocation, why: string) => void): void {
  let remove = sets.untainted.length + sets.migrate.length - group.Count;
  if (remove <= 0) return;
  const leaving = new NameIndex(job.ID, group.Name, group.Count, sets.migrate.map((a) => a.Name)).highest(remove);
  sets.migrate = sets.migrate.filter((a) => {
    if (remove === 0 || !leaving.has(a.Name)) return true;
    stop(a, ALLOC_NOT_NEEDED);
    names.unset(a.Name);
    remove--;
    return false;
  });
  const highest = names.highest(remove);
  const live = sets.untainted.filter((a) => !allocTerminal(a)).sort(byIndex).reverse();
  const stopped = new Set<Allocation>();
  // Duplicate names can leave the highest names short; any live allocation makes up the rest.
  for (const pass of [(a: Allocation) => highest.has(a.Name), () => true]) {
    for (const a of live) {
      if (remove === 0 || stopped.has(a) || !pass(a)) continue;
      stop(a, ALLOC_NOT_NEEDED);
      stopped.add(a);
      remove--;
    }
  }
  sets.untainted = sets.untainted.filter((a) => !stopped.has(a));
}

/**
 * Up to date, in place, or destructive (limited by max_parallel), for each kept allocation. A group that
 * asks for canaries holds its destructive updates until they are promoted, placing the missing canaries
 * instead. Answers whether the group is waiting on canaries.
 */
function planUpdates(
  input: ReconcileInput,
  job: Job,
  group: TaskGroup,
  untainted: Allocation[],
  canaries: Allocation[],
  out: Reconciliation,
  d: DesiredUpdates,
): boolean {
  const destructive: Allocation[] = [];
  for (const a of untainted) {
    if (a.JobModifyIndex === job.JobModifyIndex) d.Ignore++;
    else if (isDestructive(input, job, group, a)) destructive.push(a);
    // A finished allocation has nothing running to update.
    else if (allocTerminal(a)) d.Ignore++;
    else if (input.inPlaceRefused.has(a.ID)) destructive.push(a);
    else {
      out.inPlace.push(a);
      d.InPlaceUpdate++;
    }
  }
  destructive.sort(byIndex);
  const canary = input.canaries?.groups.get(group.Name);
  if (canary && !canary.promoted && (canary.awaiting || destructive.length > 0)) {
    d.Ignore += destructive.length;
    const missing = canary.halted || destructive.length === 0 ? 0 : canary.wanted - canaries.length;
    for (const name of canaryNames(job.ID, group.Name, group.Count, Math.max(0, missing), destructive, canaries)) {
      out.place.push({ group: group.Name, name, kind: 'canary', previous: null });
      d.Canary++;
    }
    return true;
  }
  const budget = input.deploymentBudget?.get(group.Name);
  const now = budget !== undefined ? Math.max(0, Math.min(budget, destructive.length)) : rollingLimit(job, group, destructive.length);
  d.DestructiveUpdate = now;
  d.Ignore += destructive.length - now;
  if (now < destructive.length && budget === undefined) out.rolling.push(group.Name);
  for (const a of destructive.slice(0, now)) out.place.push({ group: group.Name, name: a.Name, kind: 'destructive', previous: a });
  return false;
}

/** Replacements first (rescheduled, lost, migrating), then new allocations up to the count (not while canaries are on trial). */
function planPlacements(group: TaskGroup, sets: GroupSets, names: NameIndex, canarying: boolean, out: Reconciliation, d: DesiredUpdates): void {
  const place = (name: string, kind: PlaceKind, previous: Allocation | null) => out.place.push({ group: group.Name, name, kind, previous });
  let existing = sets.untainted.length + sets.migrate.length;
  for (const a of sets.rescheduleNow) {
    // A count lowered since the failure leaves the failed allocation unreplaced.
    if (existing >= group.Count) break;
    existing++;
    place(a.Name, 'reschedule', a);
    d.RescheduleNow++;
    d.Place++;
    // Nomad stops the failed allocation it replaces; the scheduler does so once the replacement is placed.
    d.Stop++;
  }
  for (const a of sets.lost) {
    if (existing >= group.Count) break;
    existing++;
    place(a.Name, 'lost', a);
    d.Place++;
  }
  for (const a of sets.migrate) {
    out.stop.push({ alloc: a, description: ALLOC_MIGRATING, lost: false });
    place(a.Name, 'migrate', a);
    d.Migrate++;
  }
  if (existing >= group.Count || canarying) return;
  for (const name of names.next(group.Count - existing)) {
    place(name, 'new', null);
    d.Place++;
  }
}

function isDestructive(input: ReconcileInput, job: Job, group: TaskGroup, a: Allocation): boolean {
  const prior = input.priorJobs.get(a.JobModifyIndex);
  return !prior || tasksUpdated(job, prior, group.Name);
}

function batchDelayed(group: string, later: { alloc: Allocation; at: number }[]): DelayedReschedule[] {
  const out: DelayedReschedule[] = [];
  for (const l of [...later].sort((x, y) => x.at - y.at)) {
    const last = out[out.length - 1];
    if (last && l.at - last.at < RESCHEDULE_BATCH_WINDOW_NS) last.allocIds.push(l.alloc.ID);
    else out.push({ group, at: l.at, allocIds: [l.alloc.ID] });
  }
  return out;
}
