/**
 * Nomad's job commands: check, submit, read, list, evaluate and stop jobs. A bundle of its own
 * (dist/cli-job.cjs) that src/cli/registry.ts loads when argv starts with `job`, or when every command is
 * listed; the group itself (group.ts) and the `run`/`stop` aliases stay in the start-up bundle.
 */
import { defineGroup, type CommandSpec, type GroupSpec } from '../../define.js';
import validateCommand from './validate.js';
import inspectCommand from './inspect.js';
import historyCommand from './history.js';
import promoteCommand from './promote.js';
import statusCommand from './status.js';
import runCommand from './run.js';
import stopCommand from './stop.js';
import allocsCommand from './allocs.js';
import evalCommand from './eval.js';
import deploymentsCommand from './deployments.js';
import actionCommand from './action.js';
import dispatchCommand from './dispatch.js';
import periodicForceCommand from './periodic-force.js';
import planCommand from './plan.js';
import scaleCommand from './scale.js';
import scalingEventsCommand from './scaling-events.js';
import revertCommand from './revert.js';
import tagApplyCommand from './tag-apply.js';
import tagUnsetCommand from './tag-unset.js';
import initCommand from './init.js';
import restartCommand from './restart.js';

export { jobGroup } from './group.js';

export const groups: GroupSpec[] = [
  defineGroup({
    path: ['job', 'periodic'],
    synopsis: 'Interact with periodic jobs',
    description: 'Periodic jobs launch a child job at each time their cron specs name. `svc job status` lists the children launched so far and the next launch.',
  }),
  defineGroup({
    path: ['job', 'tag'],
    synopsis: 'Tag job versions',
    description: 'A tag names a job version: the version is kept whatever its age, and its name works in place of its number for `svc job revert` and `svc job history -diff-tag`.',
  }),
];

export const commands: CommandSpec[] = [validateCommand, runCommand, inspectCommand, historyCommand, statusCommand, allocsCommand, deploymentsCommand, evalCommand, stopCommand, actionCommand, dispatchCommand, periodicForceCommand, planCommand, scaleCommand, scalingEventsCommand, revertCommand, promoteCommand, tagApplyCommand, tagUnsetCommand, initCommand, restartCommand];

