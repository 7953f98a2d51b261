/**
 * What exec and job actions share: the allocation and task to run in, the ACL Nomad asks for them
 * (alloc-exec, plus alloc-node-exec when the task's driver has no file-system isolation, since the
 * command then runs as the node's own user on the host), and the node that runs the command.
 */
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { NsCap } from '../../secrets/policy/capabilities.js';
import { getAlloc } from '../state/allocs.js';
import { allocTerminal, type Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Task } from '../structs/task.js';
import { jobCache } from './alloc-view.js';
import { nodeControl } from './alloc-endpoint.js';
import type { ExecLaunch } from '../wire/exec.js';
import type { WsRequest } from './ws-route.js';
import { UUID } from '../../shared/ids.js';

export interface ExecTarget {
  alloc: Allocation;
  job: Job;
  task: Task;
}

/** The allocation, its job version and the named task, after the ACL checks. */
export function execTarget(req: WsRequest, allocId: string, taskName: string): ExecTarget {
  const { acl } = req.caller;
  // A token that may exec nowhere learns nothing, not even whether the allocation exists.
  if (!acl.allowsNamespace('*', NsCap.AllocExec)) throw new PermissionDenied('Permission denied');
  if (allocId === '') throw new UserError('must provide a valid alloc id');
  if (!UUID.test(allocId)) throw new UserError(`alloc id "${allocId}" is not a full allocation UUID (36 characters); resolve a short ID with GET /v1/allocations?prefix=`);
  if (taskName === '') throw new UserError('must provide task name');
  const alloc = getAlloc(req.services.store, allocId);
  if (!alloc) throw new NotFound(`allocation ${allocId} not found`);
  if (!acl.allowsNamespace(alloc.Namespace, NsCap.AllocExec)) throw new PermissionDenied('Permission denied');
  const job = jobCache(req.services.store)(alloc);
  const task = job?.TaskGroups.find((g) => g.Name === alloc.TaskGroup)?.Tasks.find((t) => t.Name === taskName);
  if (!job || !task) throw new UserError(`task ${taskName} not found in allocation ${alloc.ID}`);
  if (!req.services.scheduler.isolatesFs(task.Driver) && !acl.allowsNamespace(alloc.Namespace, NsCap.AllocNodeExec)) throw new PermissionDenied('Permission denied');
  return { alloc, job, task };
}

/** The launch of `command` in the target's task, checked by its node: refused here when it cannot run. */
export async function execLaunch(req: WsRequest, target: ExecTarget, command: string[], tty: boolean): Promise<ExecLaunch> {
  const { alloc, task } = target;
  if (allocTerminal(alloc)) throw new NotFound(`task "${task.Name}" is not running.`);
  const state = alloc.TaskStates?.[task.Name];
  if (!state || state.State === 'pending') throw new NotFound(`task "${task.Name}" not started yet.`);
  if (state.State !== 'running') throw new NotFound(`task "${task.Name}" is not running.`);
  const prepared = await nodeControl(req, alloc).exec(alloc.ID, { task: task.Name, command, tty });
  return { tty, start: (size) => prepared.start(size) };
}
