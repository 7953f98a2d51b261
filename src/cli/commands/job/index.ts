/** Nomad's job commands: check, submit, read, list, evaluate and stop jobs. */
import { defineGroup, type CommandSpec } from '../../define.js';
import validateCommand from './validate.js';
import inspectCommand from './inspect.js';
import historyCommand from './history.js';
import statusCommand from './status.js';
import runCommand from './run.js';
import stopCommand from './stop.js';
import allocsCommand from './allocs.js';
import evalCommand from './eval.js';
import deploymentsCommand from './deployments.js';
import actionCommand from './action.js';

export const jobGroup = defineGroup({
  path: ['job'],
  synopsis: 'Interact with jobs',
  description:
    'Jobs are what the scheduler runs. Job files written for Nomad (HCL2, HCL-JSON or API JSON) are read ' +
    'unchanged. Jobs may be named by ID or by a unique ID prefix.',
});

export const jobCommands: CommandSpec[] = [validateCommand, runCommand, inspectCommand, historyCommand, statusCommand, allocsCommand, deploymentsCommand, evalCommand, stopCommand, actionCommand];

export { runAlias } from './run.js';
export { stopAlias } from './stop.js';
