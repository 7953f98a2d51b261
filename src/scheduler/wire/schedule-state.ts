/**
 * Nomad's TaskScheduleState (TaskState.Paused, and the pause API's ScheduleState): what the schedule and
 * its override make of a task, and the override requests the API takes and the node applies.
 */

export type ScheduleState =
  /** running: inside the window, or a task without a schedule */
  | ''
  | 'force_run'
  | 'force_pause'
  | 'scheduled_pause'
  /** an override is being removed; becomes '' or 'scheduled_pause' at once */
  | 'schedule_resume';

/** An override in force: it holds until `scheduled` removes it. */
export type ScheduleOverride = '' | 'force_run' | 'force_pause';

/** The pause API's inputs and the states they ask for. */
export const PAUSE_REQUESTS = { pause: 'force_pause', run: 'force_run', scheduled: 'schedule_resume' } as const;

export type PauseRequest = (typeof PAUSE_REQUESTS)[keyof typeof PAUSE_REQUESTS];

export const SCHEDULE_STATES: readonly ScheduleState[] = ['', 'force_run', 'force_pause', 'scheduled_pause', 'schedule_resume'];

/** Whether the state keeps the task stopped (Nomad's TaskScheduleState.Stop). */
export function stopsTask(state: string): boolean {
  return state === 'force_pause' || state === 'scheduled_pause';
}
