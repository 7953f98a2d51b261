/**
 * When a failed allocation may be replaced: the group's reschedule policy bounds the
 * attempts within an interval, and the delay grows constant, exponentially or as Fibonacci up to MaxDelay.
 * Times are Unix nanoseconds, as allocations carry them.
 */
import type { Allocation, RescheduleEvent } from '../structs/allocation.js';
import type { ReschedulePolicy } from '../structs/policies.js';

/** A reschedule due within this window is done now rather than by a follow-up evaluation. */
const RESCHEDULE_WINDOW_NS = 1_000_000_000;
/** Unlimited policies carry only the latest few events forward. */
const MAX_PAST_EVENTS = 5;

type Failed = Pick<Allocation, 'TaskStates' | 'ModifyTime' | 'RescheduleTracker'>;

/** When the allocation failed: its last task's finish, else its last modification. */
function failTime(a: Failed): number {
  let latest = 0;
  for (const s of Object.values(a.TaskStates ?? {})) {
    const t = Date.parse(s.FinishedAt);
    if (Number.isFinite(t) && t > 0) latest = Math.max(latest, t * 1_000_000);
  }
  return latest || a.ModifyTime;
}

function events(a: Failed): RescheduleEvent[] {
  return a.RescheduleTracker?.Events ?? [];
}

/** The delay before the next attempt, from the delays of the attempts so far. */
export function nextDelay(a: Failed, policy: ReschedulePolicy): number {
  const past = events(a);
  if (past.length === 0) return policy.Delay;
  const last = past[past.length - 1];
  let delay: number;
  switch (policy.DelayFunction) {
    case 'exponential':
      delay = last.Delay * 2;
      break;
    case 'fibonacci': {
      if (past.length < 2) return policy.Delay;
      const before = past[past.length - 2].Delay;
      // A series that hit the ceiling and was reset starts over from the base delay.
      delay = before === policy.MaxDelay && last.Delay === policy.Delay ? last.Delay : last.Delay + before;
      break;
    }
    default:
      return policy.Delay;
  }
  if (policy.MaxDelay > 0 && delay > policy.MaxDelay) {
    delay = policy.MaxDelay;
    // After a quiet spell longer than the ceiling the backoff starts again from the base delay.
    if (failTime(a) - last.RescheduleTime > delay) delay = policy.Delay;
  }
  return delay;
}

function attemptsInInterval(a: Failed, policy: ReschedulePolicy, at: number): number {
  return events(a).filter((e) => at - e.RescheduleTime < policy.Interval).length;
}

export type RescheduleDecision = { kind: 'now' } | { kind: 'later'; at: number } | { kind: 'none' };

/**
 * Whether a failed allocation is replaced by this evaluation, by a later one (at `at`), or not at all.
 * An allocation already waiting for its follow-up evaluation is left to it unless this is that one.
 */
export function rescheduleDecision(
  a: Failed & Pick<Allocation, 'FollowupEvalID' | 'DesiredTransition'>,
  policy: ReschedulePolicy | null,
  now: number,
  evalId: string,
): RescheduleDecision {
  if (a.DesiredTransition?.ForceReschedule) return { kind: 'now' };
  if (!policy || !(policy.Unlimited || policy.Attempts > 0)) return { kind: 'none' };
  const failed = failTime(a);
  const delay = nextDelay(a, policy);
  const eligible =
    policy.Unlimited ||
    events(a).length === 0 ||
    (attemptsInInterval(a, policy, failed) < policy.Attempts && delay < policy.Interval);
  if (!eligible) return { kind: 'none' };
  const at = failed + delay;
  if (a.FollowupEvalID === evalId || at - now <= RESCHEDULE_WINDOW_NS) return { kind: 'now' };
  if (!a.FollowupEvalID) return { kind: 'later', at };
  return { kind: 'none' };
}

/** The tracker of a replacement: the previous events worth keeping plus this attempt. */
export function nextTracker(prev: Allocation, policy: ReschedulePolicy | null, now: number): Allocation['RescheduleTracker'] {
  const past = events(prev);
  const kept =
    policy && policy.Attempts > 0 && !policy.Unlimited
      ? past.filter((e) => policy.Interval > 0 && now - e.RescheduleTime <= policy.Interval)
      : past.slice(-MAX_PAST_EVENTS);
  const event: RescheduleEvent = {
    RescheduleTime: now,
    PrevAllocID: prev.ID,
    PrevNodeID: prev.NodeID,
    Delay: policy ? nextDelay(prev, policy) : 0,
  };
  return { Events: [...kept.map((e) => ({ ...e })), event], LastReschedule: '' };
}
