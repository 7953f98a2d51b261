/** Evaluations: the unit of scheduling work. Register, stop and node events create them. */
import { randomUUID } from 'node:crypto';

export const EVAL_STATUSES = ['blocked', 'pending', 'complete', 'failed', 'canceled'] as const;
export type EvalStatus = (typeof EVAL_STATUSES)[number];

export interface Evaluation {
  ID: string;
  Namespace: string;
  Priority: number;
  Type: string;
  TriggeredBy: string;
  JobID: string;
  JobModifyIndex: number;
  NodeID?: string;
  NodeModifyIndex?: number;
  DeploymentID?: string;
  Status: EvalStatus;
  StatusDescription?: string;
  PreviousEval?: string;
  NextEval?: string;
  BlockedEval?: string;
  FailedTGAllocs?: Record<string, unknown>;
  QueuedAllocations?: Record<string, number>;
  /** a delayed evaluation runs at this time (RFC3339); a blocked one waits for capacity instead */
  WaitUntil?: string;
  /** nanoseconds to wait before running (rolling updates) */
  Wait?: number;
  /** the feasibility of node classes when the evaluation was blocked (Nomad's ClassEligibility) */
  ClassEligibility?: Record<string, boolean>;
  EscapedComputedClass?: boolean;
  SnapshotIndex?: number;
  CreateIndex: number;
  ModifyIndex: number;
  /** Unix nanoseconds */
  CreateTime: number;
  ModifyTime: number;
}

/** An evaluation that will not be scheduled again. */
export function evalTerminal(status: string): boolean {
  return status === 'complete' || status === 'failed' || status === 'canceled';
}

export function newEvaluation(p: {
  namespace: string;
  jobId: string;
  jobType: string;
  priority: number;
  triggeredBy: string;
  jobModifyIndex: number;
  index: number;
  status?: EvalStatus;
  extra?: Partial<Evaluation>;
}): Evaluation {
  const now = Date.now() * 1_000_000;
  return {
    ID: randomUUID(),
    Namespace: p.namespace,
    Priority: p.priority,
    Type: p.jobType,
    TriggeredBy: p.triggeredBy,
    JobID: p.jobId,
    JobModifyIndex: p.jobModifyIndex,
    Status: p.status ?? 'pending',
    CreateIndex: p.index,
    ModifyIndex: p.index,
    CreateTime: now,
    ModifyTime: now,
    ...p.extra,
  };
}
