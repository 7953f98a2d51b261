/**
 * Deployments: how a service job's new version rolls out. Groups with an
 * update strategy are replaced `max_parallel` allocations at a time; each must become healthy (its tasks
 * running for `min_healthy_time` within `healthy_deadline`) before the next are replaced. A deployment
 * that makes no progress within `progress_deadline`, or whose allocation turns unhealthy, fails, and
 * with `auto_revert` the last stable version is registered again. A successful one marks its job
 * version stable.
 */
import { randomUUID } from 'node:crypto';
import type { Job } from './job.js';
import { goTime } from './allocation.js';

export const DEPLOYMENT_STATUSES = ['running', 'paused', 'failed', 'successful', 'cancelled', 'pending', 'blocked', 'unblocking', 'initializing'] as const;
export type DeploymentStatusName = (typeof DEPLOYMENT_STATUSES)[number];

/** Nomad's exact descriptions, which its CLI and users match on. */
export const DEPLOYMENT_DESCRIPTIONS = {
  running: 'Deployment is running',
  needsPromotion: 'Deployment is running but requires manual promotion',
  autoPromotion: 'Deployment is running pending automatic promotion',
  paused: 'Deployment is paused',
  successful: 'Deployment completed successfully',
  stoppedJob: 'Cancelled because job is stopped',
  newerJob: 'Cancelled due to newer version of job',
  unhealthy: 'Failed due to unhealthy allocations',
  progressDeadline: 'Failed due to progress deadline',
  failedByUser: 'Deployment marked as failed',
} as const;

export interface DeploymentGroupState {
  AutoRevert: boolean;
  AutoPromote: boolean;
  /** nanoseconds */
  ProgressDeadline: number;
  /** RFC3339; the group fails when no allocation becomes healthy before it */
  RequireProgressBy: string;
  Promoted: boolean;
  PlacedCanaries: string[] | null;
  DesiredCanaries: number;
  DesiredTotal: number;
  PlacedAllocs: number;
  HealthyAllocs: number;
  UnhealthyAllocs: number;
}

export interface Deployment {
  ID: string;
  Namespace: string;
  JobID: string;
  JobVersion: number;
  JobModifyIndex: number;
  JobSpecModifyIndex: number;
  JobCreateIndex: number;
  IsMultiregion: boolean;
  TaskGroups: Record<string, DeploymentGroupState>;
  Status: DeploymentStatusName;
  StatusDescription: string;
  EvalPriority: number;
  CreateIndex: number;
  ModifyIndex: number;
  /** Unix nanoseconds */
  CreateTime: number;
  ModifyTime: number;
}

export function deploymentActive(d: Pick<Deployment, 'Status'>): boolean {
  return d.Status === 'running' || d.Status === 'paused' || d.Status === 'pending' || d.Status === 'initializing';
}

/** The groups of a job that roll out under a deployment: those with an update strategy that limits parallelism. */
export function deployedGroups(job: Job): string[] {
  if (job.Type !== 'service' || job.Stop) return [];
  return job.TaskGroups.filter((g) => (g.Update?.MaxParallel ?? 0) > 0).map((g) => g.Name);
}

export function newDeployment(job: Job, now = Date.now()): Deployment {
  const groups: Record<string, DeploymentGroupState> = {};
  for (const g of job.TaskGroups) {
    if (!g.Update || g.Update.MaxParallel <= 0) continue;
    groups[g.Name] = {
      AutoRevert: g.Update.AutoRevert,
      AutoPromote: g.Update.AutoPromote,
      ProgressDeadline: g.Update.ProgressDeadline,
      RequireProgressBy: g.Update.ProgressDeadline > 0 ? goTime(now + g.Update.ProgressDeadline / 1e6) : '0001-01-01T00:00:00Z',
      Promoted: false,
      PlacedCanaries: null,
      DesiredCanaries: 0,
      DesiredTotal: g.Count,
      PlacedAllocs: 0,
      HealthyAllocs: 0,
      UnhealthyAllocs: 0,
    };
  }
  return {
    ID: randomUUID(),
    Namespace: job.Namespace,
    JobID: job.ID,
    JobVersion: job.Version,
    JobModifyIndex: job.ModifyIndex,
    JobSpecModifyIndex: job.JobModifyIndex,
    JobCreateIndex: job.CreateIndex,
    IsMultiregion: false,
    TaskGroups: groups,
    Status: 'running',
    StatusDescription: DEPLOYMENT_DESCRIPTIONS.running,
    EvalPriority: job.Priority,
    CreateIndex: 0,
    ModifyIndex: 0,
    CreateTime: now * 1_000_000,
    ModifyTime: now * 1_000_000,
  };
}
