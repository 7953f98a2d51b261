/**
 * /v1/client/allocation/:alloc_id/pause: read a task's pause schedule state, or override its schedule
 * (`pause`, `run`) and remove the override (`scheduled`), on the node that runs the allocation.
 */
import { PAUSE_REQUESTS } from '../wire/schedule-state.js';
import { UserError } from '../../shared/errors.js';
import { allocTerminal } from '../structs/allocation.js';
import { allocForRequest, bodyObject, nodeControl, taskNames } from './alloc-endpoint.js';
import { defineRoute } from './route.js';

const REQUESTS = Object.keys(PAUSE_REQUESTS) as (keyof typeof PAUSE_REQUESTS)[];

export const allocPauseRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/client/allocation/:alloc_id/pause',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: "Read one task's pause schedule state: \"\" (running), force_run, force_pause, scheduled_pause or schedule_resume.",
    query: { task: { type: 'string', description: 'The task whose state to read (required).' } },
    handler: async (req) => {
      const alloc = allocForRequest(req, 'read-job');
      const task = req.query.get<string>('task');
      if (task === '') throw new UserError('query parameter "task" is required: the name of a task of the allocation');
      if (!taskNames(req, alloc).includes(task)) throw new UserError(`query parameter "task": unknown task name "${task}" in allocation ${alloc.ID}`);
      const ScheduleState = await nodeControl(req, alloc).pauseState(alloc.ID, task);
      return { body: { ScheduleState }, index: 0 };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/client/allocation/:alloc_id/pause',
    acl: { authenticated: true },
    allocNode: true,
    synopsis: "Override one task's pause schedule (pause, run), or remove the override (scheduled).",
    handler: async (req) => {
      const alloc = allocForRequest(req, 'submit-job');
      const { Task, ScheduleState } = bodyObject(req, 'object with Task and ScheduleState', true);
      if (typeof Task !== 'string' || Task === '') throw new UserError('field "Task" is required: the name of a task of the allocation');
      if (typeof ScheduleState !== 'string' || !(REQUESTS as string[]).includes(ScheduleState)) {
        throw new UserError(`Not a valid task schedule state: field "ScheduleState" must be one of ${REQUESTS.join(', ')}, got ${JSON.stringify(ScheduleState ?? null)}`);
      }
      if (!taskNames(req, alloc).includes(Task)) throw new UserError(`field "Task": unknown task name "${Task}" in allocation ${alloc.ID}`);
      if (allocTerminal(alloc)) throw new UserError(`allocation ${alloc.ID} is not running (${alloc.ClientStatus}); there is nothing to pause or run`);
      await nodeControl(req, alloc).setPauseState(alloc.ID, Task, PAUSE_REQUESTS[ScheduleState as keyof typeof PAUSE_REQUESTS]);
      return { body: { Index: 0 }, index: 0 };
    },
  }),
];
