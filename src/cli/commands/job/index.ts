/**
 * Nomad's job commands: check, submit, read, list, evaluate and stop jobs. A bundle of its own
 * (dist/cli-job.cjs) that src/cli/registry.ts loads when argv starts with `job`, or when every command is
 * listed; the group itself (group.ts) and the `run`/`stop` aliases stay in the start-up bundle.
 */
import type { CommandSpec } from '../../define.js';
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

export { jobGroup } from './group.js';

export const jobCommands: CommandSpec[] = [validateCommand, runCommand, inspectCommand, historyCommand, statusCommand, allocsCommand, deploymentsCommand, evalCommand, stopCommand, actionCommand];

