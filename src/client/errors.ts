/** What the node refuses when asked to signal, restart or exec into a task. Caller mistakes: 400 on the API. */
import { UserError } from '../shared/errors.js';

export class UnknownTaskError extends UserError {
  constructor(task: string) {
    super(`unknown task "${task}" in this allocation`);
  }
}

export class TaskNotRunningError extends UserError {
  constructor(task: string) {
    super(`task "${task}" is not running`);
  }
}

export class AllocShuttingDownError extends UserError {
  constructor() {
    super('allocation is shutting down');
  }
}

/** An exec command that cannot run in the task: not found, or a driver that offers no exec. */
export class ExecCommandError extends UserError {}

/** The allocation names a task group its job does not have: a server-side inconsistency. */
export class UnknownTaskGroupError extends Error {
  constructor(group: string, job: string) {
    super(`task group "${group}" is not in job "${job}"`);
  }
}
