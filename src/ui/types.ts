/** The API's shapes the pages read; the ones the CLI's client declares are its, imported as types. */
export type { AllocStub, Allocation, TaskState, TaskEvent } from '../api/allocs.js';
import type { JobSummary } from '../api/jobs.js';
export type { JobSummary };
export type { Evaluation } from '../api/evals.js';

/** GET /v1/jobs: one job's list stub. */
export interface JobStub {
  ID: string;
  Name: string;
  Namespace: string;
  Type: string;
  Status: string;
  Priority: number;
  Stop: boolean;
  ParentID?: string;
  SubmitTime: number;
  JobSummary: JobSummary;
}

/** The fields of GET /v1/job/:id and of /v1/job/:id/versions' jobs the pages show. */
export interface JobView {
  ID: string;
  Name: string;
  Namespace: string;
  Type: string;
  Status: string;
  Priority: number;
  Version: number;
  Stable: boolean;
  Stop: boolean;
  SubmitTime: number;
  Datacenters?: string[];
  TaskGroups?: Array<{ Name: string; Count: number; Tasks?: Array<{ Name: string; Driver: string }> }>;
}

export interface Namespace {
  Name: string;
  Description?: string;
}

/** GET /v1/acl/token/self and the one-time exchange's Token: Nomad's ACLToken. */
export interface AclToken {
  AccessorID: string;
  SecretID: string;
  Name: string;
  Type: 'client' | 'management';
  Policies: string[] | null;
  ExpirationTime: string | null;
}

export type { Node, NodeStub, DriverInfo } from '../api/nodes.js';
