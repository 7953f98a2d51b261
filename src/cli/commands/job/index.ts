/** Nomad's job commands: check, read and list jobs. Submitting and stopping jobs come with the scheduler. */
import { defineGroup, type CommandSpec } from '../../define.js';
import validateCommand from './validate.js';
import inspectCommand from './inspect.js';
import historyCommand from './history.js';
import statusCommand from './status.js';

export const jobGroup = defineGroup({
  path: ['job'],
  synopsis: 'Interact with jobs',
  description:
    'Jobs are what the scheduler runs. Job files written for Nomad (HCL2, HCL-JSON or API JSON) are read ' +
    'unchanged. Jobs may be named by ID or by a unique ID prefix.',
});

export const jobCommands: CommandSpec[] = [validateCommand, inspectCommand, historyCommand, statusCommand];
