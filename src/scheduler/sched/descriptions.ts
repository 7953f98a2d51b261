/** The texts Nomad's schedulers write into allocations and evaluations; users and scripts read them. */

export const ALLOC_NOT_NEEDED = 'alloc not needed due to job update';
export const ALLOC_MIGRATING = 'alloc is being migrated';
export const ALLOC_UPDATING = 'alloc is being updated due to job update';
export const ALLOC_LOST = 'alloc is lost since its node is down';
export const ALLOC_NODE_TAINTED = 'alloc not needed as node is tainted';
export const ALLOC_RESCHEDULED = 'alloc was rescheduled because it failed';

export const BLOCKED_EVAL_DESCRIPTION = 'created to place remaining allocations';
export const RESCHEDULE_EVAL_DESCRIPTION = 'created for delayed rescheduling';

export const TRIGGER_QUEUED_ALLOCS = 'queued-allocs';
export const TRIGGER_ALLOC_FAILURE = 'alloc-failure';
export const TRIGGER_ROLLING_UPDATE = 'rolling-update';
