/**
 * Nomad's job commands: check, submit, read, list, evaluate and stop jobs. A bundle of its own
 * (dist/cli-job.cjs) that src/cli/registry.ts loads when argv starts with `job`, or when every command is
 * listed; the group itself (group.ts) and the `run`/`stop` aliases stay in the start-up bundle.
 */
import { defineGroup, type CommandSpec, type GroupSpec } from '../../define.js';
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
import dispatchCommand from './dispatch.js';
import periodicForceCommand from './periodic-force.js';

export { jobGroup } from './group.js';

export const jobGroups: GroupSpec[] = [
  defineGroup({
    path: ['job', 'periodic'],
    synopsis: 'Interact with periodic jobs',
    description: 'Periodic jobs launch a child job at each time their cron specs name. `svc job status` lists the children launched so far and the next launch.',
  }),
];

export const jobCommands: CommandSpec[] = [validateCommand, runCommand, inspectCommand, historyCommand, statusCommand, allocsCommand, deploymentsCommand, evalCommand, stopCommand, actionCommand, dispatchCommand, periodicForceCommand];

