/**
 * What a scheduler reads and what it returns. Schedulers are functions of (evaluation, state) → result;
 * they never write. The plan applier (src/scheduler/plan-apply.ts) writes the result in one transaction,
 * so a crash leaves either none of it or all of it, and a re-run of the evaluation converges.
 */
import type { Allocation, AllocMetric } from '../structs/allocation.js';
import type { Evaluation } from '../structs/evaluation.js';
import type { Job } from '../structs/job.js';
import type { Node } from '../structs/node.js';
import type { Deployment } from '../structs/deployment.js';
import type { CandidateNodes } from './feasible.js';

/** Resources taken on a node by its non-terminal allocations (every job's). */
export interface NodeUsage {
  /** MHz */
  cpu: number;
  memoryMB: number;
  diskMB: number;
  /** host ports in use */
  ports: Set<number>;
}

/** The state a scheduler sees. Reads only; the store-backed implementation reads LMDB directly. */
export interface SchedulerState {
  /** The job as it is stored now (undefined once purged). */
  job(namespace: string, id: string): Job | undefined;
  /** Every allocation of the job ID, terminal ones included, of every incarnation. */
  allocsOfJob(namespace: string, id: string): Allocation[];
  /** Every node, whatever its status; schedulers place only on ready, eligible ones. */
  nodes(): Node[];
  node(id: string): Node | undefined;
  /** The ready, eligible nodes of the job's datacenters and pool, in nodes() order; read-only (shared). */
  candidateNodes(job: Pick<Job, 'Datacenters' | 'NodePool'>): CandidateNodes;
  /** What non-terminal allocations already take on the node; read-only (it may be shared). */
  nodeUsage(nodeId: string): NodeUsage;
  /**
   * The job version an allocation runs (Nomad's alloc.Job): whether an update can happen in place
   * depends on what changed since it. Undefined when that version is no longer known.
   */
  allocJob(alloc: Allocation): Job | null | undefined;
  /** The job's newest deployment, whatever its status. */
  latestDeployment(namespace: string, jobId: string): Deployment | undefined;
}

/** A change to an existing allocation that the plan makes (stop, evict, lost, or bookkeeping). */
export interface AllocUpdate {
  ID: string;
  DesiredStatus?: 'run' | 'stop' | 'evict';
  DesiredDescription?: string;
  /** set to 'lost' for allocations on nodes that are down */
  ClientStatus?: 'lost';
  ClientDescription?: string;
  /** a failed allocation waiting for a delayed reschedule points at the evaluation that will do it */
  FollowupEvalID?: string;
}

export interface Plan {
  EvalID: string;
  /** the job version new and updated allocations run (null when the job was purged) */
  Job: Job | null;
  /**
   * New allocations, complete records except the indexes and times, which the applier sets. A placement
   * that replaces another allocation names it in PreviousAllocation; the applier links them both ways.
   */
  Place: Allocation[];
  /** Existing allocations moved to the plan's job version in place (same ID, same node). */
  InPlace: Allocation[];
  Updates: AllocUpdate[];
  /**
   * The deployment this plan's placements and in-place updates join, with its counts updated: new when
   * its CreateIndex is 0 (the applier cancels the job's older active deployment then), else the job
   * version's running one. null when the job does not roll out under deployments.
   */
  Deployment: Deployment | null;
}

/** What the scheduler decided per task group, as `job plan` shows it (DesiredTGUpdates). */
export interface DesiredUpdates {
  Ignore: number;
  Place: number;
  Migrate: number;
  Stop: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
  Canary: number;
  Preemptions: number;
  RescheduleNow: number;
  RescheduleLater: number;
}

export interface SchedulerResult {
  plan: Plan;
  /** fields of the evaluation being processed that change with this result */
  eval: {
    Status: 'complete' | 'failed';
    StatusDescription: string;
    FailedTGAllocs: Record<string, AllocMetric> | null;
    QueuedAllocations: Record<string, number>;
    BlockedEval?: string;
    NextEval?: string;
    DeploymentID?: string;
  };
  /** evaluations to create: the blocked evaluation, delayed reschedules, rolling-update follow-ups */
  createEvals: Evaluation[];
  desiredUpdates: Record<string, DesiredUpdates>;
}

export type Scheduler = (evaluation: Evaluation, state: SchedulerState) => Promise<SchedulerResult>;
