/** The server shape of a job: what GET /v1/job/:id returns; every field concrete. */
import type { Affinity, Constraint, Spread } from './constraint.js';
import type { ParameterizedJobConfig, PeriodicConfig, UpdateStrategy } from './policies.js';
import type { TaskGroup } from './task-group.js';
import type { StructOf } from '../wire/job/fields.js';
import type { JOB_UI, JOB_VERSION_TAG } from '../wire/job/job.js';

export const JOB_TYPES = ['service', 'batch', 'system', 'sysbatch'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JOB_MIN_PRIORITY = 1;
export const JOB_MAX_PRIORITY = 100;
export const JOB_DEFAULT_PRIORITY = 50;

export type JobUI = StructOf<typeof JOB_UI>;
export type JobVersionTag = StructOf<typeof JOB_VERSION_TAG>;

export interface Job {
  Region: string;
  Namespace: string;
  ID: string;
  ParentID: string;
  Name: string;
  Type: string;
  Priority: number;
  AllAtOnce: boolean;
  Datacenters: string[];
  NodePool: string;
  Constraints: Constraint[] | null;
  Affinities: Affinity[] | null;
  Spreads: Spread[] | null;
  TaskGroups: TaskGroup[];
  /** at job level only Stagger and MaxParallel carry meaning; groups hold the full strategy */
  Update: UpdateStrategy;
  Multiregion: Record<string, unknown> | null;
  Periodic: PeriodicConfig | null;
  ParameterizedJob: ParameterizedJobConfig | null;
  Dispatched: boolean;
  DispatchIdempotencyToken: string;
  /** base64, as Go encodes []byte */
  Payload: string | null;
  Meta: Record<string, string> | null;
  ConsulNamespace: string;
  VaultNamespace: string;
  NomadTokenID: string;
  Status: string;
  StatusDescription: string;
  Stable: boolean;
  Version: number;
  /** Unix nanoseconds */
  SubmitTime: number;
  CreateIndex: number;
  ModifyIndex: number;
  JobModifyIndex: number;
  Stop: boolean;
  UI: JobUI | null;
  VersionTag: JobVersionTag | null;
}
