import { describe, expect, it } from 'vitest';
import type { ArrayData } from '../../../src/scheduler/sched/index.js';
import { nextDelay } from '../../../src/scheduler/sched/reschedule.js';
import { goTime, newTaskState, type Allocation } from '../../../src/scheduler/structs/allocation.js';
import type { ReschedulePolicy } from '../../../src/scheduler/structs/policies.js';
import { NS } from '../../../src/scheduler/wire/job/fields.js';
import type { Job } from '../../../src/scheduler/structs/index.js';
import { makeJob, makeNodes, SEC, schedule, scheduleAndApply, simpleJob } from './helpers.js';

/** One running allocation of `job`, then failed `agoMs` ago. */
async function failedOne(job: Job, agoMs: number): Promise<{ data: ArrayData; failed: Allocation }> {
  const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(3) };
  await scheduleAndApply(data, job);
  const failed = data.allocs[0];
  failed.ClientStatus = 'failed';
  failed.TaskStates = { t: { ...newTaskState(), State: 'dead', Failed: true, FinishedAt: goTime(Date.now() - agoMs) } };
  return { data, failed };
}

describe('rescheduling failed allocations', () => {
  it('replaces a failed service allocation once its delay has passed, on another node', async () => {
    const job = makeJob(simpleJob(1));
    const { data, failed } = await failedOne(job, 60_000);
    const r = await schedule(data, job, { TriggeredBy: 'alloc-failure' });
    expect(r.plan.Place).toHaveLength(1);
    const next = r.plan.Place[0];
    expect(next).toMatchObject({ Name: failed.Name, PreviousAllocation: failed.ID });
    expect(next.NodeID).not.toBe(failed.NodeID);
    expect(next.RescheduleTracker!.Events).toHaveLength(1);
    expect(next.RescheduleTracker!.Events![0]).toMatchObject({ PrevAllocID: failed.ID, PrevNodeID: failed.NodeID, Delay: 30 * SEC });
    expect(r.plan.Updates).toEqual([{ ID: failed.ID, DesiredStatus: 'stop', DesiredDescription: 'alloc was rescheduled because it failed' }]);
    expect(r.desiredUpdates.g).toMatchObject({ RescheduleNow: 1, Place: 1 });
    expect(r.createEvals).toEqual([]);
  });

  it('waits for the delay with one follow-up evaluation, then reschedules when it runs', async () => {
    const job = makeJob(simpleJob(2));
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(3) };
    await scheduleAndApply(data, job);
    const finished = Date.now() - 1000;
    for (const a of data.allocs) {
      a.ClientStatus = 'failed';
      a.TaskStates = { t: { ...newTaskState(), State: 'dead', Failed: true, FinishedAt: goTime(finished) } };
    }
    const r = await schedule(data, job, { TriggeredBy: 'alloc-failure' });
    expect(r.plan.Place).toEqual([]);
    expect(r.createEvals).toHaveLength(1);
    const followup = r.createEvals[0];
    expect(followup).toMatchObject({ Status: 'pending', TriggeredBy: 'alloc-failure', JobID: 'web', StatusDescription: 'created for delayed rescheduling' });
    expect(Date.parse(followup.WaitUntil!)).toBe(finished + 30_000);
    expect(r.plan.Updates).toEqual(data.allocs.map((a) => ({ ID: a.ID, FollowupEvalID: followup.ID })));
    expect(r.desiredUpdates.g).toMatchObject({ RescheduleLater: 2, Place: 0 });

    // The allocations wait for their evaluation: another one does not reschedule or re-delay them.
    for (const a of data.allocs) a.FollowupEvalID = followup.ID;
    const other = await schedule(data, job);
    expect(other.plan.Place).toEqual([]);
    expect(other.createEvals).toEqual([]);

    const due = await schedule(data, job, { ID: followup.ID, TriggeredBy: 'alloc-failure' });
    expect(due.plan.Place).toHaveLength(2);
  });

  it('batches failures far apart into separate follow-up evaluations', async () => {
    const job = makeJob(simpleJob(2));
    const data: ArrayData = { jobs: [], allocs: [], nodes: makeNodes(3) };
    await scheduleAndApply(data, job);
    data.allocs.forEach((a, i) => {
      a.ClientStatus = 'failed';
      a.TaskStates = { t: { ...newTaskState(), State: 'dead', Failed: true, FinishedAt: goTime(Date.now() - i * 20_000) } };
    });
    const r = await schedule(data, job);
    expect(r.createEvals).toHaveLength(2);
    expect(new Set(r.plan.Updates.map((u) => u.FollowupEvalID)).size).toBe(2);
  });

  it('stops rescheduling a batch allocation after its one attempt in 24h, unless forced', async () => {
    const job = makeJob(simpleJob(1, { Type: 'batch' }));
    const { data, failed } = await failedOne(job, 60_000);
    failed.RescheduleTracker = { Events: [{ RescheduleTime: (Date.now() - 120_000) * 1_000_000, PrevAllocID: 'x', PrevNodeID: 'y', Delay: 5 * SEC }], LastReschedule: '' };
    let r = await schedule(data, job);
    expect(r.plan.Place).toEqual([]);
    expect(r.createEvals).toEqual([]);
    expect(r.desiredUpdates.g).toMatchObject({ RescheduleNow: 0, RescheduleLater: 0, Ignore: 1 });

    failed.DesiredTransition.ForceReschedule = true;
    r = await schedule(data, job);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Place[0].RescheduleTracker!.Events!.map((e) => e.PrevAllocID)).toEqual(['x', failed.ID]);
  });

  it('does not reschedule with a policy that allows no attempts, nor an allocation already replaced', async () => {
    const job = makeJob(simpleJob(1, { Type: 'batch' }));
    job.TaskGroups[0].ReschedulePolicy = { ...job.TaskGroups[0].ReschedulePolicy!, Attempts: 0, Unlimited: false };
    const { data } = await failedOne(job, 60_000);
    expect((await schedule(data, job)).plan.Place).toEqual([]);

    // Once replaced, a failed allocation is history: a new placement does not continue its chain.
    const again = makeJob(simpleJob(1));
    const second = await failedOne(again, 60_000);
    second.failed.NextAllocation = 'replacement';
    const r = await schedule(second.data, again);
    expect(r.plan.Place).toHaveLength(1);
    expect(r.plan.Place[0].PreviousAllocation).toBe('');
  });
});

describe('reschedule delays', () => {
  const policy = (fn: string, max = NS.hour): ReschedulePolicy => ({ Attempts: 0, Interval: 0, Delay: 30 * SEC, DelayFunction: fn, MaxDelay: max, Unlimited: true });
  const withDelays = (delays: number[], failedAt = Date.now()) =>
    ({
      TaskStates: { t: { ...newTaskState(), FinishedAt: goTime(failedAt) } },
      ModifyTime: 0,
      RescheduleTracker: { Events: delays.map((d) => ({ RescheduleTime: failedAt * 1_000_000, PrevAllocID: '', PrevNodeID: '', Delay: d })), LastReschedule: '' },
    }) as unknown as Allocation;

  it('grows exponentially and by Fibonacci, capped at MaxDelay', () => {
    expect(nextDelay(withDelays([]), policy('exponential'))).toBe(30 * SEC);
    expect(nextDelay(withDelays([30 * SEC, 60 * SEC]), policy('exponential'))).toBe(120 * SEC);
    expect(nextDelay(withDelays([40 * 60 * SEC]), policy('exponential'))).toBe(NS.hour);
    expect(nextDelay(withDelays([30 * SEC, 30 * SEC]), policy('fibonacci'))).toBe(60 * SEC);
    expect(nextDelay(withDelays([30 * SEC, 60 * SEC]), policy('fibonacci'))).toBe(90 * SEC);
    expect(nextDelay(withDelays([60 * SEC, 60 * SEC]), policy('constant'))).toBe(30 * SEC);
  });

  it('starts over after a quiet spell longer than the ceiling', () => {
    const a = withDelays([NS.hour]);
    a.RescheduleTracker!.Events![0].RescheduleTime -= 2 * NS.hour;
    expect(nextDelay(a, policy('exponential'))).toBe(30 * SEC);
  });
});
