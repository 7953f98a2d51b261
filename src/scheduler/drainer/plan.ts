/**
 * What the drainer does next, decided from the state alone (Nomad's nomad/drainer: the job watcher's
 * handleTaskGroup, drainingNode.IsDone and RemainingAllocs, and the deadline handling), for every
 * draining node at once:
 *
 * - A service allocation is marked for migration when its group has room: at most the group's
 *   `migrate.max_parallel` allocations may be migrating at once, counted over the whole group, whatever
 *   node each is on (so over every draining node, and after a node's drain completed). A migration lasts
 *   until its replacement is judged healthy (or its healthy_deadline passed, as Nomad's drain continues
 *   then); one whose replacement waits for capacity lasts until it is placed.
 * - Batch and sysbatch allocations are left to finish; only the deadline marks them.
 * - Once everything but the system allocations has stopped on the node, the system allocations are
 *   marked (unless the drain ignores them) and the drain is complete.
 * - At the deadline (at once for a forced drain) whatever is left is marked, and the drain is complete.
 *
 * Pure: reads come through DrainView, the clock is an argument, and nothing is written.
 */
import { allocTerminal, clientTerminal, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import { drainDeadline, type Node } from '../structs/node.js';
import type { TaskGroup } from '../structs/task-group.js';

/** The state the planner reads: the store, or a write transaction that re-checks the plan. */
export interface DrainView {
  /** the nodes that are draining */
  nodes(): Node[];
  alloc(id: string): Allocation | undefined;
  allocsOfNode(nodeId: string): Allocation[];
  allocsOfJob(namespace: string, jobId: string): Allocation[];
  /** the job as stored now; undefined once purged */
  job(namespace: string, jobId: string): Job | undefined;
  /** the job version the allocation runs */
  allocJob(alloc: Allocation): Job | null;
}

export interface DrainPlan {
  /** allocations to mark for migration */
  migrate: Allocation[];
  /** drains that end now */
  complete: Array<{ node: Node; deadlineReached: boolean }>;
  /** nodes draining before this plan */
  draining: number;
  /** the earliest drain deadline still ahead (Unix ms), when the plan must be made again */
  nextDeadlineMs?: number;
}

/** A replacement chain longer than this is not followed further (it cannot be a loop, but it costs reads). */
const MAX_REPLACEMENT_HOPS = 100;

interface GroupWork {
  namespace: string;
  jobId: string;
  group: string;
  drainable: Allocation[];
}

export function planDrains(view: DrainView, nowMs: number): DrainPlan {
  const plan: DrainPlan = { migrate: [], complete: [], draining: 0 };
  const jobs = new Map<string, Job | undefined>();
  const jobOf = (namespace: string, jobId: string) => {
    const key = `${namespace}\u0000${jobId}`;
    if (!jobs.has(key)) jobs.set(key, view.job(namespace, jobId));
    return jobs.get(key);
  };
  const typeOf = (a: Allocation) => (jobOf(a.Namespace, a.JobID) ?? view.allocJob(a))?.Type ?? '';
  const groups = new Map<string, GroupWork>();

  for (const node of view.nodes()) {
    const drain = node.DrainStrategy;
    if (!drain) continue;
    plan.draining++;
    const allocs = view.allocsOfNode(node.ID);
    const remaining = allocs.filter((a) => !allocTerminal(a) && !(drain.IgnoreSystemJobs && typeOf(a) === 'system'));
    const unmarked = remaining.filter((a) => !a.DesiredTransition?.Migrate);
    const deadline = drainDeadline(drain);
    if (!deadline.infinite && deadline.atMs <= nowMs) {
      plan.migrate.push(...unmarked);
      plan.complete.push({ node, deadlineReached: true });
      continue;
    }
    if (!deadline.infinite) plan.nextDeadlineMs = Math.min(plan.nextDeadlineMs ?? Infinity, deadline.atMs);
    // Done once every allocation but the system ones has stopped on the node (not merely been told to).
    if (allocs.every((a) => typeOf(a) === 'system' || clientTerminal(a.ClientStatus))) {
      plan.migrate.push(...unmarked);
      plan.complete.push({ node, deadlineReached: false });
      continue;
    }
    for (const a of unmarked) {
      if (typeOf(a) !== 'service') continue;
      const key = `${a.Namespace}\u0000${a.JobID}\u0000${a.TaskGroup}`;
      let work = groups.get(key);
      if (!work) groups.set(key, (work = { namespace: a.Namespace, jobId: a.JobID, group: a.TaskGroup, drainable: [] }));
      work.drainable.push(a);
    }
  }

  for (const work of groups.values()) {
    const job = jobOf(work.namespace, work.jobId);
    const group = job?.TaskGroups.find((g) => g.Name === work.group);
    // A stopped job, or a group the job no longer has: the scheduler stops these allocations itself.
    if (!job || job.Stop || !group?.Migrate) continue;
    const siblings = view.allocsOfJob(work.namespace, work.jobId).filter((a) => a.TaskGroup === group.Name);
    const room = group.Migrate.MaxParallel - migrating(view, group, siblings);
    if (room <= 0) continue;
    const next = [...work.drainable].sort((x, y) => x.CreateIndex - y.CreateIndex || (x.ID < y.ID ? -1 : 1));
    plan.migrate.push(...next.slice(0, room));
  }
  return plan;
}

/**
 * The group's migrations under way, on whatever node: marked allocations not stopped yet, and those
 * whose newest replacement (followed through later replacements) has not been judged yet. A replacement
 * judged unhealthy (its healthy_deadline passed) ends the migration too, as Nomad's drainer counts it.
 * Marked allocations left without a live replacement count while the group lacks allocations (a
 * replacement waits for capacity), at most as many as it lacks.
 */
function migrating(view: DrainView, group: TaskGroup, siblings: Allocation[]): number {
  let underway = 0;
  let unreplaced = 0;
  for (const a of siblings) {
    if (!a.DesiredTransition?.Migrate) continue;
    if (!allocTerminal(a)) {
      underway++;
      continue;
    }
    const replacement = newestReplacement(view, a);
    if (replacement && !allocTerminal(replacement)) {
      if ((replacement.DeploymentStatus?.Healthy ?? null) === null) underway++;
    } else unreplaced++;
  }
  const missing = Math.max(0, group.Count - siblings.filter((a) => !allocTerminal(a)).length);
  return underway + Math.min(unreplaced, missing);
}

function newestReplacement(view: DrainView, a: Allocation): Allocation | undefined {
  let replacement = a.NextAllocation ? view.alloc(a.NextAllocation) : undefined;
  for (let hops = 0; replacement?.NextAllocation && hops < MAX_REPLACEMENT_HOPS; hops++) {
    const later = view.alloc(replacement.NextAllocation);
    if (!later) break;
    replacement = later;
  }
  return replacement;
}
