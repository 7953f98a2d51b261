/**
 * `job plan`: the scheduler run for a job as it would be registered, against the current state, with
 * nothing written. The schedulers only read (src/scheduler/sched/types.ts), so the dry run is the same
 * code the broker runs, on a state that answers the proposed job in place of the stored one.
 */
import { newEvaluation } from '../structs/evaluation.js';
import { jobSpecChanged, type Job } from '../structs/index.js';
import { schedulerFor } from './index.js';
import type { SchedulerResult, SchedulerState } from './types.js';

export interface DryRun {
  /** the job the scheduler saw: the stored one when the spec is unchanged */
  planned: Job;
  result: SchedulerResult;
}

/**
 * Plans `job` as the next version of `current` (undefined when it is new). `nextIndex` is the index the
 * registration would get: a job that changed gets it as its modify index (and a new one as its create
 * index too), so the scheduler treats every running allocation as of an older version, as after a
 * real registration.
 */
export async function dryRun(state: SchedulerState, job: Job, current: Job | undefined, nextIndex: number): Promise<DryRun> {
  const unchanged = current !== undefined && !current.Stop && !jobSpecChanged(current, job);
  const planned: Job = unchanged
    ? current
    : {
        ...job,
        Version: current ? current.Version + 1 : 0,
        CreateIndex: current?.CreateIndex ?? nextIndex,
        ModifyIndex: nextIndex,
        JobModifyIndex: nextIndex,
        Status: 'pending',
        Stable: false,
      };
  const overlay: SchedulerState = {
    ...state,
    job: (namespace, id) => (namespace === planned.Namespace && id === planned.ID ? planned : state.job(namespace, id)),
  };
  const evaluation = newEvaluation({
    namespace: planned.Namespace,
    jobId: planned.ID,
    jobType: planned.Type,
    priority: planned.Priority,
    triggeredBy: 'job-register',
    jobModifyIndex: planned.JobModifyIndex,
    index: nextIndex,
  });
  const result = await schedulerFor(planned.Type)(evaluation, overlay);
  return { planned, result };
}
