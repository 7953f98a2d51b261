/** The shapes the job pages read and send, beyond the list's: the API's own where the client declares them. */
import type { JobView } from '../types.js';

export type { Deployment, DeploymentGroupState, DeploymentUpdateResponse } from '../../api/deployments.js';
export type { PlanResponse, DesiredUpdates } from '../../api/job-plan.js';
export type { AllocMetric } from '../../api/allocs.js';
export type { RegisterResponse, DispatchResponse, DeregisterResponse } from '../../api/jobs.js';
export type { DiffType, FieldDiff, ObjectDiff, TaskDiff, TaskGroupDiff, JobDiff } from '../../scheduler/structs/diff.js';
import type { JobDiff } from '../../scheduler/structs/diff.js';

/** GET /v1/job/:id as the job page acts on it: what the actions need besides what it shows. */
export interface FullJob extends JobView {
  ParentID?: string;
  Dispatched?: boolean;
  JobModifyIndex: number;
  Periodic?: { Enabled: boolean; Spec: string; Specs?: string[] | null; TimeZone?: string } | null;
  ParameterizedJob?: { Payload: 'optional' | 'required' | 'forbidden'; MetaRequired: string[] | null; MetaOptional: string[] | null } | null;
  Meta?: Record<string, string> | null;
  VersionTag?: { Name: string; Description: string } | null;
  [field: string]: unknown;
}

/** GET /v1/job/:id/versions?diffs=true */
export interface VersionsAnswer {
  Versions: FullJob[];
  Diffs: JobDiff[] | null;
}
