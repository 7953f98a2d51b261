/** The evaluations a scheduler asks to create: blocked, delayed-reschedule and rolling-update follow-ups. */
import { goTime, type AllocMetric } from '../structs/allocation.js';
import { newEvaluation, type Evaluation } from '../structs/evaluation.js';
import {
  BLOCKED_EVAL_DESCRIPTION,
  RESCHEDULE_EVAL_DESCRIPTION,
  TRIGGER_ALLOC_FAILURE,
  TRIGGER_QUEUED_ALLOCS,
  TRIGGER_ROLLING_UPDATE,
} from './descriptions.js';

function followup(from: Evaluation, triggeredBy: string, status: 'blocked' | 'pending', extra: Partial<Evaluation>): Evaluation {
  return newEvaluation({
    namespace: from.Namespace,
    jobId: from.JobID,
    jobType: from.Type,
    priority: from.Priority,
    triggeredBy,
    jobModifyIndex: from.JobModifyIndex,
    index: 0,
    status,
    extra,
  });
}

/** Waits for capacity (a node joining, allocations stopping) to place what this evaluation could not. */
export function blockedEval(from: Evaluation, failed: Record<string, AllocMetric>): Evaluation {
  return followup(from, TRIGGER_QUEUED_ALLOCS, 'blocked', {
    PreviousEval: from.ID,
    StatusDescription: BLOCKED_EVAL_DESCRIPTION,
    FailedTGAllocs: failed,
  });
}

/** Runs at `at` (Unix ns) to replace failed allocations whose reschedule delay has not passed yet. */
export function rescheduleEval(from: Evaluation, at: number): Evaluation {
  return followup(from, TRIGGER_ALLOC_FAILURE, 'pending', {
    StatusDescription: RESCHEDULE_EVAL_DESCRIPTION,
    // Nanosecond times near 2^60 carry float error; round to the millisecond the wire format keeps.
    WaitUntil: goTime(Math.round(at / 1_000_000)),
  });
}

/** Continues a rolling update after the stagger (ns). */
export function rollingEval(from: Evaluation, stagger: number, now: number): Evaluation {
  return followup(from, TRIGGER_ROLLING_UPDATE, 'pending', {
    PreviousEval: from.ID,
    Wait: stagger,
    WaitUntil: goTime(Math.round((now + stagger) / 1_000_000)),
  });
}
