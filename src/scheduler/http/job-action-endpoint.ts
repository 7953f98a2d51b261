/**
 * Job actions: GET /v1/job/:job_id/actions lists the `action` blocks of the job's tasks, and
 * /v1/job/:job_id/action runs one in a task of an allocation, over a WebSocket, exactly as exec runs a
 * command. The query names the allocation `alloc_id` in Nomad's API documentation and `allocID` in Nomad's own client: both
 * are accepted.
 */
import { NotFound, UserError } from '../../shared/errors.js';
import { getJob } from '../state/jobs.js';
import { execLaunch, execTarget } from './exec-target.js';
import { defineRoute } from './route.js';
import { needsUpgrade } from './alloc-exec-endpoint.js';
import type { WsRouteDef } from './ws-route.js';

const PATH = '/v1/job/*job_id/action';

export const jobActionWsRoute: WsRouteDef = {
  path: PATH,
  synopsis: 'Run an action of a task of the job in one of its allocations, over a WebSocket.',
  query: {
    action: { type: 'string', description: 'The name of the action, as the task defines it.', required: true },
    alloc_id: { type: 'string', description: 'The allocation (its full UUID) to run the action in.' },
    allocID: { type: 'string', description: 'The same as alloc_id (the name Nomad\'s client sends).' },
    task: { type: 'string', description: 'The task that defines the action.', required: true },
    tty: { type: 'bool', description: 'Run the action under a pseudo-terminal.' },
    ws_handshake: { type: 'bool', description: 'The first frame carries the token: {"version":1,"auth_token":"..."}.' },
    group: { type: 'string', description: 'Sent by Nomad\'s client; the allocation already names its group.' },
    command: { type: 'string', description: 'Sent by Nomad\'s client; ignored (the action defines the command).' },
  },
  allocId: (_params, query) => query.get('alloc_id') || query.get('allocID') || '',
  prepare: async (req) => {
    const jobId = req.params.job_id;
    const fromSpec = req.query.get<string>('alloc_id');
    const fromClient = req.query.get<string>('allocID');
    if (fromSpec && fromClient && fromSpec !== fromClient) throw new UserError('alloc_id and allocID name different allocations: give one');
    const actionName = req.query.get<string>('action');
    if (actionName === '') throw new UserError('must provide action name');
    const target = execTarget(req, fromSpec || fromClient, req.query.get<string>('task'));
    if (target.alloc.JobID !== jobId || target.alloc.Namespace !== req.namespace) throw new UserError(`job ${jobId} does not have allocation ${target.alloc.ID}`);
    const action = (target.task.Actions ?? []).find((a) => a.Name === actionName);
    if (!action) throw new UserError(`action ${actionName} not found in task ${target.task.Name}`);
    return execLaunch(req, target, [action.Command, ...(action.Args ?? [])], req.query.get<boolean>('tty'));
  },
};

export const jobActionRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/job/*job_id/actions',
    acl: { namespace: ['read-job'] },
    synopsis: 'List the actions the tasks of a job define, in group, task and declaration order.',
    handler: async (req) => {
      const job = getJob(req.services.store, req.namespace, req.params.job_id);
      if (!job) throw new NotFound('job not found');
      const body = job.TaskGroups.flatMap((g) =>
        g.Tasks.flatMap((t) => (t.Actions ?? []).map((a) => ({ Name: a.Name, Command: a.Command, Args: a.Args, TaskName: t.Name, TaskGroupName: g.Name }))),
      );
      return { body, index: job.ModifyIndex };
    },
  }),
  needsUpgrade(PATH, jobActionWsRoute.synopsis),
];
