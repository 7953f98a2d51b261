/** The schedulers by job type, and the array-backed state the tests drive them with. */
import { genericScheduler } from './generic.js';
import { systemScheduler } from './system.js';
import type { Scheduler } from './types.js';

export { arrayState, type ArrayData } from './array-state.js';
export { allocUsage } from './usage.js';

export function schedulerFor(jobType: string): Scheduler {
  switch (jobType) {
    case 'system':
    case 'sysbatch':
      return systemScheduler;
    default:
      return genericScheduler;
  }
}
